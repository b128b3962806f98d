package rpc

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"

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
	o := &runObserver{s: s, sessionID: "s1"}
	h := &hook.Hook{ID: "h", Source: hook.Source{Kind: hook.SourceUser}}
	start := func(id string) { o.HookStarted(runner.HookStart{RunID: id, Hook: h, Event: "Stop"}) }
	done := func(id string) { o.HookCompleted(runner.HookDone{RunID: id, Hook: h, Event: "Stop"}) }
	writes := func() int { return len(w.writes) }
	last := func() string { return w.writes[len(w.writes)-1] }

	start("a") // 1 write
	start("b") // 2
	done("c")  // skipped while a and b run: written at once (3)
	done("a")  // b still runs: written at once (4)
	if writes() != 4 || !strings.Contains(last(), `"runId":"a"`) {
		t.Fatalf("writes %q", w.writes)
	}
	done("b") // nothing else under way: held
	if writes() != 4 {
		t.Fatalf("hook/completed of the last running hook written alone: %q", last())
	}
	start("d") // goes out with the held frame, in one write
	if writes() != 5 || !strings.Contains(last(), `"runId":"b"`) || !strings.Contains(last(), `"hook/started"`) {
		t.Fatalf("held frame not written with the next one: %q", w.writes)
	}
	release := observerOf(context.WithValue(context.Background(), observerKey{}, o)).wait()
	done("d") // an internal hook waits: written at once
	if writes() != 6 {
		t.Fatalf("held while an internal hook waits: %q", w.writes)
	}
	release()
	start("e")
	done("e") // held
	o.wait()()
	if writes() != 8 || !strings.Contains(last(), `"runId":"e"`) {
		t.Fatalf("wait did not flush the held frame: %q", w.writes)
	}
	o.end()
	done("f") // after the run returned: at once
	if writes() != 9 {
		t.Fatalf("held after end: %q", w.writes)
	}

	// A host that opted out of hook/started: the held hook/completed goes
	// out when the next hook starts, alone.
	s.init = &initializeParams{optOut: map[string]bool{"hook/started": true}}
	o = &runObserver{s: s, sessionID: "s1"}
	start("g")
	done("g") // held
	start("h")
	if writes() != 10 || !strings.Contains(last(), `"runId":"g"`) || strings.Contains(last(), "hook/started") {
		t.Fatalf("held frame not flushed at the next start without hook/started: %q", w.writes)
	}
}
