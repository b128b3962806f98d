package store

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// fakeClock is a settable clock for lease and retention tests.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *fakeClock {
	return &fakeClock{t: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func openTest(t testing.TB, opts Options) (*DB, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "hookside.db")
	db, err := Open(path, opts)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	return db, path
}

func reopen(t testing.TB, path string, opts Options) *DB {
	t.Helper()
	db, err := Open(path, opts)
	if err != nil {
		t.Fatalf("Open %s: %v", path, err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func testEvent(id, session string) Event {
	env, _ := json.Marshal(map[string]any{
		"schemaVersion": 1, "eventId": id, "eventName": "turn.completed",
		"session": map[string]any{"id": session}, "turn": map[string]any{"id": "t-" + id},
		"payload": map[string]any{},
	})
	return Event{ID: id, Name: "turn.completed", SessionID: session, TurnID: "t-" + id, Envelope: env}
}

func testDef(name, event string) Definition {
	return Definition{
		Name:          name,
		Enabled:       true,
		EventName:     event,
		Action:        json.RawMessage(`{"type":"sound"}`),
		ExecutionHash: "hash-" + name + "-" + event,
	}
}

var bg = context.Background()

func must[T any](t testing.TB) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

// seedRuns emits one event per session and resolves it into one queued run
// per hook, returning the created runs in creation order.
func seedRuns(t testing.TB, db *DB, eventPrefix string, sessions []string, hooks []string, policy string) []Run {
	t.Helper()
	var out []Run
	for i, s := range sessions {
		id := fmt.Sprintf("%s-%d", eventPrefix, i)
		if _, err := db.Emit(bg, testEvent(id, s)); err != nil {
			t.Fatal(err)
		}
		var nrs []NewRun
		for _, h := range hooks {
			nrs = append(nrs, NewRun{HookID: h, HookRevision: 1, ConcurrencyPolicy: policy,
				Execution: json.RawMessage(`{"action":{"type":"sound"}}`)})
		}
		created, err := db.ResolveEvent(bg, id, nrs)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, created...)
	}
	return out
}
