package rpc

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/runner"
	"github.com/hookside/hookside/v2bridge"
)

// TestMailboxLockedDatabaseIsBounded: with hookside.db write-locked by
// another process, the mailbox hook answers nothing within its budget
// (instead of 3 × 5 s busy waits); the message is delivered on a later event.
func TestMailboxLockedDatabaseIsBounded(t *testing.T) {
	home := t.TempDir()
	s := &Server{log: slog.New(slog.NewTextHandler(io.Discard, nil)), home: home, sessions: map[string]*session{}}
	b, err := s.v2Bridge()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close(0) })
	if _, err := b.PostMessage(context.Background(), "s1", "ci", "hello"); err != nil {
		t.Fatal(err)
	}
	o, err := sql.Open("sqlite", filepath.Join(home, "hookside.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	c, err := o.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	// The bridge may be writing (maintenance) right now: wait for it.
	if _, err := c.ExecContext(context.Background(), "PRAGMA busy_timeout = 5000"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.ExecContext(context.Background(), "BEGIN EXCLUSIVE"); err != nil {
		t.Fatal(err)
	}
	req := runner.InternalRequest{SessionID: "s1", Event: hook.UserPromptSubmit}
	start := time.Now()
	ans, err := s.deliverMailbox(context.Background(), req)
	if d := time.Since(start); err != nil || len(ans.AdditionalContext) != 0 || d > 5*time.Second { // the budget is well under 1 s; 3 busy waits would be 15 s
		t.Fatalf("locked: %+v %v after %v", ans, err, d)
	}
	c.ExecContext(context.Background(), "ROLLBACK")
	c.Close()
	ans, err = s.deliverMailbox(context.Background(), req)
	if err != nil || len(ans.AdditionalContext) != 1 || !strings.Contains(ans.AdditionalContext[0], "hello") {
		t.Fatalf("after unlock: %+v %v", ans, err)
	}
}

func TestUnavailableSaysItOnce(t *testing.T) {
	e := unavailable(fmt.Errorf("%w: %w", v2bridge.ErrUnavailable, errors.New("database is locked")))
	if e.Message != "V2 store unavailable: database is locked" {
		t.Fatalf("%q", e.Message)
	}
}
