package store

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
)

func TestMailboxPostTakeList(t *testing.T) {
	db, path := openTest(t, Options{})
	for i := range 25 {
		m, unread, err := db.PostMessage(bg, "s1", "lead", fmt.Sprintf("m%d", i))
		if err != nil {
			t.Fatal(err)
		}
		if unread != i+1 || !strings.HasPrefix(m.ID, "msg_") || m.CreatedAt == "" || m.ReadAt != "" {
			t.Fatalf("post %d: %+v unread %d", i, m, unread)
		}
	}
	if _, _, err := db.PostMessage(bg, "other", "", "x"); err != nil {
		t.Fatal(err)
	}
	got, err := db.TakeUnread(bg, "s1", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != MailboxBatch || got[0].Text != "m0" || got[19].Text != "m19" || got[0].ReadAt == "" || got[0].From != "lead" {
		t.Fatalf("first take: %d messages, %+v", len(got), got)
	}
	unread, err := db.ListMessages(bg, "s1", true)
	if err != nil {
		t.Fatal(err)
	}
	if len(unread) != 5 || unread[0].Text != "m20" {
		t.Fatalf("unread after first take: %+v", unread)
	}
	// Durable: a second DB on the same file sees the same state.
	db2 := reopen(t, path, Options{})
	got, err = db2.TakeUnread(bg, "s1", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 5 || got[0].Text != "m20" || got[4].Text != "m24" {
		t.Fatalf("second take: %+v", got)
	}
	if got, _ := db.TakeUnread(bg, "s1", 0); len(got) != 0 {
		t.Fatalf("third take: %+v", got)
	}
	all, err := db.ListMessages(bg, "s1", false)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 25 || all[24].ReadAt == "" {
		t.Fatalf("list all: %d, last %+v", len(all), all[len(all)-1])
	}
	if o, _ := db.ListMessages(bg, "other", true); len(o) != 1 {
		t.Fatalf("other session: %+v", o)
	}
}

func TestMailboxLimits(t *testing.T) {
	db, _ := openTest(t, Options{})
	field := func(err error) string {
		var fe *MailboxFieldError
		if !errors.As(err, &fe) || !errors.Is(err, ErrInvalid) {
			t.Fatalf("want a field error, got %v", err)
		}
		return fe.Field
	}
	if _, _, err := db.PostMessage(bg, "", "", "x"); field(err) != "sessionId" {
		t.Fatal(err)
	}
	if _, _, err := db.PostMessage(bg, "s", "", ""); field(err) != "text" {
		t.Fatal(err)
	}
	if _, _, err := db.PostMessage(bg, "s", "", strings.Repeat("x", MaxMessageBytes+1)); field(err) != "text" {
		t.Fatal(err)
	}
	if _, _, err := db.PostMessage(bg, "s", "", "bad \xff"); field(err) != "text" {
		t.Fatal(err)
	}
	if _, _, err := db.PostMessage(bg, "s", strings.Repeat("f", MaxFromBytes+1), "x"); field(err) != "from" {
		t.Fatal(err)
	}
	if _, _, err := db.PostMessage(bg, "s", "", strings.Repeat("x", MaxMessageBytes)); err != nil {
		t.Fatalf("exactly the cap: %v", err)
	}
	for i := 1; i < MaxUnread; i++ {
		if _, _, err := db.PostMessage(bg, "s", "", "x"); err != nil {
			t.Fatal(i, err)
		}
	}
	if _, _, err := db.PostMessage(bg, "s", "", "one too many"); !errors.Is(err, ErrMailboxFull) || !errors.Is(err, ErrInvalid) {
		t.Fatalf("full mailbox: %v", err)
	}
	if _, err := db.TakeUnread(bg, "s", 1); err != nil {
		t.Fatal(err)
	}
	if _, unread, err := db.PostMessage(bg, "s", "", "fits again"); err != nil || unread != MaxUnread {
		t.Fatalf("after one delivery: unread %d, %v", unread, err)
	}
}

func TestMailboxConcurrentTakesNeverShareAMessage(t *testing.T) {
	db, _ := openTest(t, Options{})
	for i := range 60 {
		if _, _, err := db.PostMessage(bg, "s", "", fmt.Sprint(i)); err != nil {
			t.Fatal(err)
		}
	}
	var mu sync.Mutex
	seen := map[string]int{}
	var wg sync.WaitGroup
	for range 6 {
		wg.Go(func() {
			got, err := db.TakeUnread(bg, "s", 0)
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			for _, m := range got {
				seen[m.ID]++
			}
			mu.Unlock()
		})
	}
	wg.Wait()
	if len(seen) != 60 {
		t.Fatalf("delivered %d distinct messages, want 60", len(seen))
	}
	for id, n := range seen {
		if n != 1 {
			t.Fatalf("%s delivered %d times", id, n)
		}
	}
}

func TestPurgeSessionData(t *testing.T) {
	db, _ := openTest(t, Options{})
	for _, id := range []string{"e1", "e2"} {
		if _, err := db.Emit(bg, testEvent(id, "s1")); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Emit(bg, testEvent("e3", "s2")); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if _, _, err := db.PostMessage(bg, "s1", "", "hi"); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := db.PostMessage(bg, "s2", "", "keep"); err != nil {
		t.Fatal(err)
	}
	p, err := db.PurgeSessionData(bg, "s1")
	if err != nil {
		t.Fatal(err)
	}
	if p.Events != 2 || p.Messages != 3 || p.Runs != 0 {
		t.Fatalf("purged %+v", p)
	}
	if m, _ := db.ListMessages(bg, "s1", false); len(m) != 0 {
		t.Fatalf("s1 messages left: %+v", m)
	}
	if m, _ := db.ListMessages(bg, "s2", false); len(m) != 1 {
		t.Fatalf("s2 messages: %+v", m)
	}
	if _, err := db.GetEvent(bg, "e3"); err != nil {
		t.Fatalf("s2 event: %v", err)
	}
	if p, err := db.PurgeSessionData(bg, "s1"); err != nil || p != (Purged{}) {
		t.Fatalf("second purge: %+v %v", p, err)
	}
	if _, err := db.PurgeSessionData(bg, ""); !errors.Is(err, ErrInvalid) {
		t.Fatalf("empty id: %v", err)
	}
	// PurgeSession (runs, events) deletes the mailbox too.
	if _, _, err := db.PurgeSession(bg, "s2"); err != nil {
		t.Fatal(err)
	}
	if m, _ := db.ListMessages(bg, "s2", false); len(m) != 0 {
		t.Fatalf("s2 messages after PurgeSession: %+v", m)
	}
}
