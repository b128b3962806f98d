//go:build unix

package crossproc

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "modernc.org/sqlite"
)

// reportBound is the most an emit below may take: the work is one command
// timing out after 1 s (twice in the retry case) or a few dispatch tries
// spread over 1.75 s, far below the --wait of 120 s the emits are given —
// which they used to sit out.
const reportBound = 20 * time.Second

// emitResult is what the tests read of `v2 emit --json`.
type emitResult struct {
	EventID string `json:"eventId"`
	Runs    []struct {
		ID            string    `json:"id"`
		Status        string    `json:"status"`
		ErrorCode     string    `json:"errorCode"`
		AttemptCount  int       `json:"attemptCount"`
		NextAttemptAt time.Time `json:"nextAttemptAt"`
		LeftQueued    *struct {
			Reason string `json:"reason"`
			Behind *struct {
				RunID         string    `json:"runId"`
				NextAttemptAt time.Time `json:"nextAttemptAt"`
			} `json:"behind"`
			RunBy string `json:"runBy"`
		} `json:"leftQueued"`
	} `json:"runs"`
	NotDispatched *struct {
		Reason, Error, DispatchBy string
		Attempts                  int
	} `json:"notDispatched"`
	Notes []string `json:"notes"`
}

type emitRun struct {
	code           int
	took           time.Duration
	stdout, stderr string
}

// emitFor runs `hookside v2 emit` (--wait 120s unless extra says) of event
// turn in session s1.
func emitFor(t *testing.T, env []string, dir, turn string, extra ...string) emitRun {
	t.Helper()
	ev := filepath.Join(dir, "ev-"+turn+".json")
	body, _ := json.Marshal(map[string]any{"eventName": "turn.completed", "session": map[string]any{"id": "s1"},
		"turn": map[string]any{"id": turn}, "payload": map[string]any{}})
	if err := os.WriteFile(ev, body, 0o600); err != nil {
		t.Fatal(err)
	}
	args := []string{"v2", "emit", "--file", ev}
	if !strings.Contains(strings.Join(extra, " "), "--wait") {
		args = append(args, "--wait", "120s")
	}
	cmd := hooksideCmd(env, append(args, extra...)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	r := emitRun{took: time.Since(start), stdout: out.String(), stderr: errb.String()}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		r.code = ee.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	if r.took > reportBound {
		t.Errorf("emit %s %v: returned after %v, more than %v: it sat out --wait", turn, extra, r.took.Round(time.Millisecond), reportBound)
	}
	return r
}

func decodeEmit(t *testing.T, r emitRun) emitResult {
	t.Helper()
	var res emitResult
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
		t.Fatalf("emit --json: %v\n%s\nstderr: %s", err, r.stdout, r.stderr)
	}
	return res
}

// v2Setup creates definition def (JSON) and an application binding of it.
func v2Setup(t *testing.T, env []string, dir, def string) {
	t.Helper()
	path := filepath.Join(dir, "def.json")
	if err := os.WriteFile(path, []byte(def), 0o600); err != nil {
		t.Fatal(err)
	}
	var id struct{ ID string }
	_ = json.Unmarshal([]byte(def), &id)
	for _, args := range [][]string{{"v2", "definitions", "create", "--file", path},
		{"v2", "bindings", "create", "--hook", id.ID, "--scope", "application"}} {
		if out, err := hooksideCmd(env, args...).CombinedOutput(); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
	}
}

// TestEmitReportsRunsLeftQueuedForLater: a command that times out under a
// safe retry policy with a 10 min backoff is re-queued for an attempt 10
// min away. `v2 emit --wait 120s` returns once the attempt has timed out,
// exit 0, reporting the run queued with its nextAttemptAt, the last
// attempt's reason and who runs it — in JSON and as text; a later event of
// the session, held behind that run by serial order (§10.5), is reported
// behind_retry at once. An app-server on the home runs the run once due.
// A retry due within --wait is waited for and run by the emit.
func TestEmitReportsRunsLeftQueuedForLater(t *testing.T) {
	home, dir := t.TempDir(), t.TempDir()
	env := append(os.Environ(), "HOOKSIDE_HOME="+home)
	v2Setup(t, env, dir, `{"id":"slow","name":"S","eventName":"turn.completed","timeoutMs":1000,
		"retryPolicy":{"mode":"safe","maxAttempts":3,"backoffMs":600000},
		"action":{"type":"command","hook":{"type":"command","command":"sleep 30"}}}`)

	r := emitFor(t, env, dir, "t1", "--json")
	res := decodeEmit(t, r)
	if r.code != 0 || len(res.Runs) != 1 {
		t.Fatalf("first emit: exit %d, %d runs, want 0 and 1\n%s\n%s", r.code, len(res.Runs), r.stdout, r.stderr)
	}
	first := res.Runs[0]
	lq := first.LeftQueued
	if first.Status != "queued" || first.ErrorCode != "timeout" || first.AttemptCount != 1 || lq == nil || lq.Reason != "retry_later" ||
		!strings.Contains(lq.RunBy, "app-server") || !strings.Contains(lq.RunBy, `session "s1"`) {
		t.Errorf("first emit's run: %+v %+v, want queued after 1 timeout, left queued retry_later, run by an app-server or an emit of s1", first, lq)
	}
	if d := time.Until(first.NextAttemptAt); d < 8*time.Minute || d > 10*time.Minute || first.NextAttemptAt.Location() != time.UTC {
		t.Errorf("first run's nextAttemptAt %v: want ~10 min from now, UTC", first.NextAttemptAt)
	}
	if len(res.Notes) != 1 || !strings.Contains(res.Notes[0], "left queued for its next attempt at") || !strings.Contains(r.stderr, res.Notes[0]) {
		t.Errorf("notes %q, stderr %q: want the left-queued note in both", res.Notes, r.stderr)
	}

	// A later event of the session: its run waits behind the first.
	r = emitFor(t, env, dir, "t2")
	if r.code != 0 || !strings.Contains(r.stdout, "  queued  ") ||
		!strings.Contains(r.stderr, "left queued behind run "+first.ID) || !strings.Contains(r.stderr, "it is run by an app-server") {
		t.Errorf("second emit: exit %d, want 0, its run reported queued behind %s\nstdout: %s\nstderr: %s", r.code, first.ID, r.stdout, r.stderr)
	}
	// The first event again (a duplicate): its run still is not due.
	r = emitFor(t, env, dir, "t1")
	if r.code != 0 || !strings.Contains(r.stdout, first.ID+"  queued  timeout") || !strings.Contains(r.stdout, "(next attempt ") ||
		!strings.Contains(r.stderr, "run "+first.ID+" left queued for its next attempt at") {
		t.Errorf("duplicate emit: exit %d, want 0 and the text report\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}

	// Who runs it: an app-server on the home, once the attempt is due.
	db, err := sql.Open("sqlite", filepath.Join(home, "hookside.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`UPDATE hook_runs SET next_attempt_at = NULL WHERE id = ?`, first.ID); err != nil {
		t.Fatal(err)
	}
	startAppServerWith(t, home, nil, nil, []string{"v2/run/updated"}, nil)
	waitUntil(t, "the app-server claims run "+first.ID, func() bool {
		var attempts int
		if err := db.QueryRow(`SELECT attempt_count FROM hook_runs WHERE id = ?`, first.ID).Scan(&attempts); err != nil {
			t.Fatal(err)
		}
		return attempts >= 2
	})

	// A retry due within --wait is waited for: two timed-out attempts, then failed.
	home2, dir2 := t.TempDir(), t.TempDir()
	env2 := append(os.Environ(), "HOOKSIDE_HOME="+home2)
	v2Setup(t, env2, dir2, `{"id":"quick","name":"Q","eventName":"turn.completed","timeoutMs":1000,
		"retryPolicy":{"mode":"safe","maxAttempts":2,"backoffMs":100},
		"action":{"type":"command","hook":{"type":"command","command":"sleep 30"}}}`)
	r = emitFor(t, env2, dir2, "t1", "--json")
	res = decodeEmit(t, r)
	if r.code != 0 || len(res.Runs) != 1 || res.Runs[0].Status != "failed" || res.Runs[0].AttemptCount != 2 || res.Runs[0].LeftQueued != nil {
		t.Errorf("emit with a 100 ms backoff: exit %d, %+v, want 0 and the run failed after its 2 attempts here\n%s", r.code, res.Runs, r.stderr)
	}

	// --wait expiring is reported in JSON too.
	r = emitFor(t, env2, dir2, "t3", "--json", "--wait", "200ms")
	res = decodeEmit(t, r)
	if r.code != 1 || len(res.Notes) != 1 || !strings.Contains(res.Notes[0], "--wait expired: 1 run(s) still running were cancelled") {
		t.Errorf("emit --wait 200ms: exit %d, notes %q, want 1 and the --wait note\n%s", r.code, res.Notes, r.stderr)
	}
}

// TestEmitReportsEventNotDispatched: when storing the runs fails (here a
// trigger refuses every insert into hook_runs), the one-transaction emit
// and the dispatches after it fail; `v2 emit` reports at once that the
// event is stored but not dispatched (exit 5), instead of waiting out
// --wait. Emitting the event again once the database accepts runs
// dispatches and runs it; so does an app-server on the home.
func TestEmitReportsEventNotDispatched(t *testing.T) {
	home, dir := t.TempDir(), t.TempDir()
	env := append(os.Environ(), "HOOKSIDE_HOME="+home)
	v2Setup(t, env, dir, `{"id":"note","name":"N","eventName":"turn.completed",
		"action":{"type":"command","hook":{"type":"command","command":"echo hi"}}}`)
	db, err := sql.Open("sqlite", filepath.Join(home, "hookside.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE TRIGGER no_runs BEFORE INSERT ON hook_runs BEGIN SELECT RAISE(ABORT, 'no runs today'); END`); err != nil {
		t.Fatal(err)
	}
	r := emitFor(t, env, dir, "t1", "--json")
	res := decodeEmit(t, r)
	nd := res.NotDispatched
	if r.code != 5 || len(res.Runs) != 0 || nd == nil || nd.Reason != "dispatch_failed" || !strings.Contains(nd.Error, "no runs today") ||
		nd.Attempts < 2 || !strings.Contains(nd.DispatchBy, "app-server") || len(res.Notes) != 1 || !strings.Contains(r.stderr, res.Notes[0]) {
		t.Errorf("emit: exit %d, want 5 and notDispatched\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	r2 := emitFor(t, env, dir, "t2")
	if r2.code != 5 || !strings.Contains(r2.stdout, "stored, not dispatched") || !strings.Contains(r2.stderr, "is stored but not dispatched") {
		t.Errorf("text emit: exit %d, want 5 and the report\nstdout: %s\nstderr: %s", r2.code, r2.stdout, r2.stderr)
	}
	var status string
	if err := db.QueryRow(`SELECT status FROM hook_events WHERE event_id = ?`, res.EventID).Scan(&status); err != nil || status != "pending" {
		t.Fatalf("event %s: %q %v, want pending", res.EventID, status, err)
	}
	if _, err := db.Exec(`DROP TRIGGER no_runs`); err != nil {
		t.Fatal(err)
	}
	r = emitFor(t, env, dir, "t1", "--json")
	res = decodeEmit(t, r)
	if r.code != 0 || res.NotDispatched != nil || len(res.Runs) != 1 || res.Runs[0].Status != "succeeded" {
		t.Errorf("emit again: exit %d, want 0 and the run succeeded\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	// t2's event is left to an app-server: its backlog pass at start.
	startAppServerWith(t, home, nil, nil, []string{"v2/run/updated"}, nil)
	waitUntil(t, "the app-server dispatches and runs t2's event", func() bool {
		var n int
		if err := db.QueryRow(`SELECT COUNT(*) FROM hook_runs r JOIN hook_events e ON e.event_id = r.event_id
			WHERE e.turn_id = 't2' AND r.status = 'succeeded'`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n == 1
	})
}

// waitUntil polls cond until it holds, failing after reportBound.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(reportBound); !cond(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %v", what, reportBound)
		}
	}
}
