package rpc

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/runner"
)

// TestObserverHoldsOnlyWhenNothingElseIsUnderWay: a hook/completed is held
// for the run's next frame only when no other hook of the run is running,
// no internal hook waits and the run has not returned; a skipped hook
// (completed, never started) does not count as running.
func TestObserverHoldsOnlyWhenNothingElseIsUnderWay(t *testing.T) {
	w := &writeLog{}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	s := &Server{log: log, stream: &objectStream{f: newFramer(FramingNDJSON, bytes.NewReader(nil), w), log: log}}
	o := &runObserver{s: s, sessionID: "s1", hold: time.Hour}
	h := &hook.Hook{ID: "h", Source: hook.Source{Kind: hook.SourceUser}}
	start := func(id string) { o.HookStarted(runner.HookStart{RunID: id, Hook: h, Event: "Stop"}) }
	done := func(id string) { o.HookCompleted(runner.HookDone{RunID: id, Hook: h, Event: "Stop"}) }
	writes := func() int { return len(w.writes) }
	last := func() string { return w.writes[len(w.writes)-1] }

	start("a") // held for its next frame
	start("b") // held
	if writes() != 0 {
		t.Fatalf("hook/started written alone: %q", w.writes)
	}
	done("c") // skipped while a and b run: written at once, with both starts (1)
	done("a") // b still runs: written at once (2)
	if writes() != 2 || !strings.Contains(w.writes[0], `"runId":"b"`) || !strings.Contains(last(), `"runId":"a"`) {
		t.Fatalf("writes %q", w.writes)
	}
	done("b") // nothing else under way: held
	if writes() != 2 {
		t.Fatalf("hook/completed of the last running hook written alone: %q", last())
	}
	start("d") // held with it
	release := observerOf(context.WithValue(context.Background(), observerKey{}, o)).wait()
	// wait flushed both, in one write (3)
	if writes() != 3 || !strings.Contains(last(), `"runId":"b"`) || !strings.Contains(last(), `"runId":"d"`) {
		t.Fatalf("held frames not written together: %q", w.writes)
	}
	done("d") // an internal hook waits: written at once (4)
	if writes() != 4 {
		t.Fatalf("held while an internal hook waits: %q", w.writes)
	}
	release()
	start("e")
	done("e") // both held
	o.wait()()
	if writes() != 5 || !strings.Contains(last(), `"runId":"e"`) {
		t.Fatalf("wait did not flush the held frames: %q", w.writes)
	}
	o.end()
	done("f") // after the run returned: at once
	if writes() != 6 {
		t.Fatalf("held after end: %q", w.writes)
	}

	// A host that opted out of hook/started: the held hook/completed goes
	// out when the next hook starts, alone.
	s.init = &initializeParams{optOut: map[string]bool{"hook/started": true}}
	o = &runObserver{s: s, sessionID: "s1", hold: time.Hour}
	start("g")
	done("g") // held
	start("h")
	if writes() != 7 || !strings.Contains(last(), `"runId":"g"`) || strings.Contains(last(), "hook/started") {
		t.Fatalf("held frame not flushed at the next start without hook/started: %q", w.writes)
	}
}

// TestObserverHeldStartGoesOutAfterStartedHold: a hook/started, with what
// else is held, is written on its own once the hook has run startedHold
// without a frame of the run to carry it.
func TestObserverHeldStartGoesOutAfterStartedHold(t *testing.T) {
	w := &writeLog{}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	s := &Server{log: log, stream: &objectStream{f: newFramer(FramingNDJSON, bytes.NewReader(nil), w), log: log}}
	o := &runObserver{s: s, sessionID: "s1", hold: 20 * time.Millisecond}
	h := &hook.Hook{ID: "h", Source: hook.Source{Kind: hook.SourceUser}}
	o.HookStarted(runner.HookStart{RunID: "a", Hook: h, Event: "Stop"})
	deadline := time.Now().Add(10 * time.Second)
	for {
		w.mu.Lock()
		n := len(w.writes)
		w.mu.Unlock()
		if n == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("held hook/started not written after the hold: %d writes", n)
		}
		time.Sleep(time.Millisecond)
	}
	if !strings.Contains(w.writes[0], `"hook/started"`) {
		t.Fatalf("wrote %q", w.writes[0])
	}
	o.HookCompleted(runner.HookDone{RunID: "a", Hook: h, Event: "Stop"}) // held for the reply
	o.end()
	time.Sleep(40 * time.Millisecond) // past the hold: the timer was stopped
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.writes) != 1 {
		t.Fatalf("held hook/completed written by a stopped timer: %q", w.writes)
	}
}
