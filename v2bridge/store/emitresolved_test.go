package store

import (
	"errors"
	"sync"
	"testing"
)

// TestEmitResolvedOneTransaction: the event, its runs and the resolved mark
// are written together; subscribers hear of the runs, not of a pending
// event; a duplicate id writes nothing; an invalid run writes nothing.
func TestEmitResolvedOneTransaction(t *testing.T) {
	for _, one := range []bool{false, true} {
		name := "pool"
		if one {
			name = "one_connection"
		}
		t.Run(name, func(t *testing.T) {
			db, path := openTest(t, Options{OneConnection: one})
			var mu sync.Mutex
			var enqueued []string
			var changed []Run
			db.SubscribeEvents(func(ids []string) { mu.Lock(); enqueued = append(enqueued, ids...); mu.Unlock() })
			db.SubscribeRuns(func(r Run) { mu.Lock(); changed = append(changed, r); mu.Unlock() })

			runs := []NewRun{
				{HookID: "h1", HookRevision: 1, Execution: []byte(`{"action":{"type":"sound"}}`)},
				{HookID: "h2", HookRevision: 1, Status: RunSkipped, ErrorCode: "condition_not_matched"},
			}
			dup, created, err := db.EmitResolved(bg, testEvent("e1", "s1"), runs)
			if err != nil || dup || len(created) != 2 {
				t.Fatalf("EmitResolved: dup %v, %d runs, %v", dup, len(created), err)
			}
			if created[0].Status != RunQueued || created[0].SessionID != "s1" || created[0].TurnID != "t-e1" || created[0].EventName != "turn.completed" {
				t.Fatalf("run %+v", created[0])
			}
			ev := must[Event](t)(db.GetEvent(bg, "e1"))
			if ev.Status != EventResolved || ev.ResolvedAt.IsZero() {
				t.Fatalf("event %+v, want resolved", ev)
			}
			mu.Lock()
			if len(enqueued) != 0 || len(changed) != 2 {
				t.Fatalf("subscribers: events %v, runs %d; want none and 2", enqueued, len(changed))
			}
			mu.Unlock()

			// A duplicate: nothing written, not even the new runs.
			dup, created, err = db.EmitResolved(bg, testEvent("e1", "s1"), []NewRun{{HookID: "h3", HookRevision: 1}})
			if err != nil || !dup || len(created) != 0 {
				t.Fatalf("duplicate: dup %v, %d runs, %v", dup, len(created), err)
			}
			if n := must[int](t)(db.CountRunsOfHook(bg, "h3")); n != 0 {
				t.Fatalf("duplicate created %d runs", n)
			}

			// An invalid run: refused before anything is written.
			if _, _, err := db.EmitResolved(bg, testEvent("e2", "s1"), []NewRun{{HookRevision: 1}}); !errors.Is(err, ErrInvalid) {
				t.Fatalf("run without a hook id: %v", err)
			}
			if _, err := db.GetEvent(bg, "e2"); !errors.Is(err, ErrNotFound) {
				t.Fatalf("event of a refused EmitResolved: %v", err)
			}

			// Durable: another process opening the file sees both.
			db.Close()
			db2 := reopen(t, path, Options{})
			if ev := must[Event](t)(db2.GetEvent(bg, "e1")); ev.Status != EventResolved {
				t.Fatalf("reopened event %+v", ev)
			}
			if n := must[int](t)(db2.CountRunsOfHook(bg, "h1")); n != 1 {
				t.Fatalf("reopened: h1 runs %d", n)
			}
		})
	}
}

// TestOneConnectionReadsItsOwnWrites: with OneConnection the definitions
// check reads the table, so a definition written by another process counts
// at once, and reads and writes share the one connection without blocking.
func TestOneConnectionReadsItsOwnWrites(t *testing.T) {
	db, path := openTest(t, Options{OneConnection: true})
	other := reopen(t, path, Options{})
	if has := must[bool](t)(db.HasEnabledDefinition(bg, "turn.completed")); has {
		t.Fatal("empty store has a definition")
	}
	must[Definition](t)(other.CreateDefinition(bg, testDef("d1", "turn.completed")))
	if has := must[bool](t)(db.HasEnabledDefinition(bg, "turn.completed")); !has {
		t.Fatal("a definition created by another connection is not seen")
	}
	seedRuns(t, db, "e", []string{"s1", "s2"}, []string{"h1"}, SerialPerSession)
	runs, _, err := db.ListRuns(bg, RunFilter{Limit: 10})
	if err != nil || len(runs) != 2 {
		t.Fatalf("ListRuns: %d runs, %v", len(runs), err)
	}
}
