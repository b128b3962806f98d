package v2bridge

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/hookside/hookside/v2bridge/store"
)

func TestReplayFirstRoundOnlyInitialisesTheCursor(t *testing.T) {
	home := t.TempDir()
	b := openBridge(t, home, nil)
	mkDef(t, b, `{"name":"n","eventName":"turn.completed","action":{"type":"notification"}}`, true)
	h := newFakeHost()
	var asked []string
	round := 0
	h.on(MethodLifecycleFacts, func(p json.RawMessage) (any, error) {
		asked = append(asked, string(p))
		round++
		switch round {
		case 1:
			return map[string]any{"cursor": "c1", "events": []any{
				map[string]any{"eventName": "turn.completed", "session": map[string]any{"id": "s1"}, "turn": map[string]any{"id": "old"}},
			}}, nil
		case 2:
			return nil, &HostError{Code: -32000, Message: "facts store busy"}
		case 3, 4:
			return map[string]any{"cursor": map[string]any{"seq": 2}, "events": []any{
				map[string]any{"eventName": "turn.completed", "session": map[string]any{"id": "s1"}, "turn": map[string]any{"id": "t1"}},
				map[string]any{"eventName": "permission.requested", "session": map[string]any{"id": "s1"}, "turn": map[string]any{"id": "t1"}, "payload": map[string]any{"requestId": "r"}},
				map[string]any{"eventName": "question.requested", "session": map[string]any{"id": "s1"}, "turn": map[string]any{"id": "t1"}},
				map[string]any{"eventName": "turn.completed"},
				"not an object",
			}}, nil
		}
		return map[string]any{"cursor": map[string]any{"seq": 2}, "events": []any{}}, nil
	})
	key := ReplayCursorKey + "test"
	rep, err := b.ReplayOnce(bg, h, key)
	if err != nil || !rep.Initialised || rep.Emitted != 0 || string(rep.Cursor) != `"c1"` {
		t.Fatalf("round 1: %+v %v", rep, err)
	}
	if n, _, _ := b.DB().ListRuns(bg, store.RunFilter{}); len(n) != 0 {
		t.Fatalf("first round backfilled: %s", dump(n))
	}
	if _, err := b.ReplayOnce(bg, h, key); err == nil {
		t.Fatal("round 2: want the host error")
	}
	rep, err = b.ReplayOnce(bg, h, key)
	if err != nil || rep.Emitted != 1 || rep.Skipped != 2 || rep.Invalid != 2 || string(rep.Cursor) != `{"seq":2}` {
		t.Fatalf("round 3: %+v %v", rep, err)
	}
	// The same facts again (a host that did not move its cursor): deduplicated.
	rep, err = b.ReplayOnce(bg, h, key)
	if err != nil || rep.Emitted != 0 || rep.Duplicates != 1 {
		t.Fatalf("round 4: %+v %v", rep, err)
	}
	if !strings.Contains(asked[0], `"cursor":null`) || !strings.Contains(asked[1], `"cursor":"c1"`) ||
		!strings.Contains(asked[2], `"cursor":"c1"`) || !strings.Contains(asked[3], `"cursor":{"seq":2}`) {
		t.Fatalf("cursors asked: %q", asked)
	}
	b.Close(0)
	// The cursor is durable: a new bridge on the same home continues from it.
	b2 := openBridge(t, home, nil)
	rep, err = b2.ReplayOnce(bg, h, key)
	if err != nil || rep.Initialised {
		t.Fatalf("after reopen: %+v %v", rep, err)
	}
	if !strings.Contains(asked[4], `"cursor":{"seq":2}`) {
		t.Fatalf("after reopen asked %s", asked[4])
	}
	// Exactly one run: the event of t1, once; nothing of the first round.
	// Its dispatch may come after the reopen: wait for it (a shared
	// machine can take seconds), then check there is only it.
	waitRuns(t, b2, "", 0, func(rs []store.Run) bool { return len(rs) > 0 })
	runs, _, err := b2.DB().ListRuns(bg, store.RunFilter{})
	if err != nil || len(runs) != 1 || runs[0].TurnID != "t1" {
		t.Fatalf("runs: %s %v", dump(runs), err)
	}
}

func TestReplayHostTimeoutIsHarmless(t *testing.T) {
	b := openBridge(t, t.TempDir(), nil)
	h := newFakeHost() // never answers
	ctx, cancel := contextWithTimeoutMs(50)
	defer cancel()
	if _, err := b.ReplayOnce(ctx, h, ReplayCursorKey+"x"); !errors.Is(err, ctx.Err()) || err == nil {
		t.Fatalf("want the deadline, got %v", err)
	}
	if _, ok, _ := b.DB().GetKV(bg, ReplayCursorKey+"x"); ok {
		t.Fatal("cursor stored after a timeout")
	}
}

func TestMailboxBridge(t *testing.T) {
	b := openBridge(t, t.TempDir(), nil)
	for i := range 22 {
		from := "lead"
		if i == 0 {
			from = ""
		}
		r, err := b.PostMessage(bg, "s1", from, "hello "+string(rune('a'+i)))
		if err != nil || r.Unread != i+1 || r.MessageID == "" {
			t.Fatalf("post: %+v %v", r, err)
		}
	}
	ctx, err := b.DeliverMailbox(bg, "s1")
	if err != nil || len(ctx) != 20 || ctx[0] != "Session mailbox message:\nhello a" || ctx[1] != "Session mailbox message from lead:\nhello b" {
		t.Fatalf("deliver: %q %v", ctx, err)
	}
	ctx, _ = b.DeliverMailbox(bg, "s1")
	if len(ctx) != 2 {
		t.Fatalf("second delivery: %q", ctx)
	}
	var ie *InvalidError
	if _, err := b.PostMessage(bg, "s1", "", strings.Repeat("x", store.MaxMessageBytes+1)); !errors.As(err, &ie) || ie.Field != "text" {
		t.Fatalf("too long: %v", err)
	}
	if _, err := b.ListMessages(bg, "", false); !errors.As(err, &ie) || ie.Field != "sessionId" {
		t.Fatalf("no session: %v", err)
	}
	p, err := b.PurgeSession(bg, "s1")
	if err != nil || p.Messages != 22 {
		t.Fatalf("purge: %+v %v", p, err)
	}
}

func contextWithTimeoutMs(ms int) (context.Context, context.CancelFunc) {
	return context.WithTimeout(bg, time.Duration(ms)*time.Millisecond)
}
