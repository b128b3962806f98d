//go:build unix

package crossproc

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// concurrentEmits is how many `hookside v2 emit` run at once.
const concurrentEmits = 16

// emitBound is the most one concurrent emit may take: it waits for its own
// run and, by serial order (§10.5), the runs of its session queued before
// it — at most concurrentEmits `echo` processes, well under a second here.
// It is far below the fixed 60 s re-queue of a pipeline failure (§10.3) and
// the 10 min maintenance tick set below, the two waits an emit must never
// sit on.
const emitBound = 10 * time.Second

// TestConcurrentEmitsOfOneSessionNeverWait: 16 `hookside v2 emit` at once
// in ONE session (several turns of one conversation), then 16 of one and
// the same event. Each returns within emitBound with its run succeeded on
// the first attempt. Before, an emit's workers took the other emits' runs
// of the session and cancelled them when it exited: cancelled in the
// pre-check they were re-queued 60 s later as transient_failure, holding
// back every later run of the session; cancelled in the command they were
// recorded outcome_unknown.
func TestConcurrentEmitsOfOneSessionNeverWait(t *testing.T) {
	home := t.TempDir()
	dir := t.TempDir()
	env := append(os.Environ(), "HOOKSIDE_HOME="+home, "HOOKSIDE_V2_MAINTENANCE_MS=600000")
	def := filepath.Join(dir, "def.json")
	if err := os.WriteFile(def, []byte(`{"id":"note","name":"N","eventName":"turn.completed","timeoutMs":2000,
		"action":{"type":"command","hook":{"type":"command","command":"echo hi"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"v2", "definitions", "create", "--file", def},
		{"v2", "bindings", "create", "--hook", "note", "--scope", "application"}} {
		if out, err := hooksideCmd(env, args...).CombinedOutput(); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
	}
	for _, round := range []struct {
		name string
		turn func(i int) string
	}{
		{"distinct turns", func(i int) string { return fmt.Sprintf("t%d", i) }},
		{"one event", func(int) string { return "same" }},
	} {
		var wg sync.WaitGroup
		for i := range concurrentEmits {
			ev := filepath.Join(dir, fmt.Sprintf("ev-%s-%d.json", round.turn(i), i))
			body, _ := json.Marshal(map[string]any{"eventName": "turn.completed", "session": map[string]any{"id": "s1"},
				"turn": map[string]any{"id": round.turn(i)}, "payload": map[string]any{}})
			if err := os.WriteFile(ev, body, 0o600); err != nil {
				t.Fatal(err)
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				start := time.Now()
				out, err := hooksideCmd(env, "v2", "emit", "--file", ev, "--json", "--wait", "15s").Output() // a hang ends in 15 s
				took := time.Since(start)
				var res struct {
					Runs []struct {
						ID, Status, ErrorCode, ErrorMessage string
						AttemptCount                        int
					}
				}
				if jerr := json.Unmarshal(out, &res); err != nil || jerr != nil || len(res.Runs) != 1 {
					t.Errorf("%s, emit %d: %v %v\n%s", round.name, i, err, jerr, out)
					return
				}
				if r := res.Runs[0]; r.Status != "succeeded" || r.AttemptCount != 1 {
					t.Errorf("%s, emit %d: run %s %s after %d attempt(s) (%s %s), want succeeded at the first: another emit's exit cancelled it",
						round.name, i, r.ID, r.Status, r.AttemptCount, r.ErrorCode, r.ErrorMessage)
				}
				if took > emitBound {
					t.Errorf("%s, emit %d: returned after %v, more than %v (its run and the %d before it in its session): it waited on a re-queue or a maintenance tick",
						round.name, i, took.Round(time.Millisecond), emitBound, concurrentEmits-1)
				}
			}()
		}
		wg.Wait()
	}
}
