package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/hookside/hookside/internal/jsonexact"
	"github.com/hookside/hookside/v2bridge"
	"github.com/hookside/hookside/v2bridge/expr"
	"github.com/hookside/hookside/v2bridge/store"
)

// emitRun is one run in `v2 emit --json`'s "runs": the run as `v2 runs get
// --json` prints it, plus
//   - nextAttemptAt (RFC 3339, UTC): a queued run's planned next automatic
//     attempt (a retry policy's backoff, §10.2–§10.4, or the fixed
//     PipelineRetryDelay of a pipeline failure, §10.3); absent when the run
//     may be claimed now or is not queued;
//   - leftQueued: present when the emit stopped waiting with the run queued.
type emitRun struct {
	store.Run
	NextAttemptAt time.Time   `json:"nextAttemptAt,omitzero"`
	LeftQueued    *leftQueued `json:"leftQueued,omitempty"`
}

// Reasons of leftQueued.
const (
	// leftRetryLater: its next attempt (nextAttemptAt) is due later than
	// --wait leaves, once its timeoutMs is counted.
	leftRetryLater = "retry_later"
	// leftBehindRetry: serial order (§10.5) holds it behind an earlier
	// queued run of its hook and session (behind) that is retry_later.
	leftBehindRetry = "behind_retry"
	leftWaitExpired = "wait_expired" // it could run now, --wait expired
	leftInterrupted = "interrupted"  // it could run now, SIGINT/SIGTERM
	leftNotWaited   = "not_waited"   // --wait 0: nothing is run by this command
)

// leftQueued says why `v2 emit` stopped waiting for a queued command run
// and who runs it from now on. The last attempt's reason, if any, is the
// run's errorCode and errorMessage (kept by the re-queue, §10.3).
type leftQueued struct {
	Reason string     `json:"reason"`
	Behind *behindRun `json:"behind,omitempty"` // behind_retry only
	RunBy  string     `json:"runBy"`            // who claims it (text)
}

// behindRun is the run a behind_retry run waits for.
type behindRun struct {
	RunID         string    `json:"runId"`
	NextAttemptAt time.Time `json:"nextAttemptAt"`
}

// runByText says who claims the queued command run r: any app-server on the
// home (its workers claim every queued command run), or a `v2 emit`, whose
// workers take only its event's runs and the queued runs of its session
// that serial order puts before them (store.ClaimFilter.EventID).
func runByText(r store.Run) string {
	s := "an app-server on this home, or `hookside v2 emit` of this event again"
	if r.ConcurrencyPolicy != expr.ConcurrencyParallel {
		s = fmt.Sprintf("an app-server on this home, `hookside v2 emit` of this event again, or a later `hookside v2 emit` in session %q of an event that runs hook %s (serial order runs this one first)", r.SessionID, r.HookID)
	}
	return s
}

// runSnap is what waitEventRuns reads of a run's execution snapshot.
type runSnap struct {
	Action struct {
		Type string `json:"type"`
	} `json:"action"`
	TimeoutMs int `json:"timeoutMs"`
}

func snapOf(r store.Run) runSnap {
	var s runSnap
	_ = jsonexact.Unmarshal(r.Execution, &s)
	return s
}

func hostActionRun(r store.Run) bool { return snapOf(r).Action.Type != expr.ActionCommand }

// laterAttempt reports whether queued run r waits for a later attempt
// (nextAttemptAt in the future) that cannot start and end (its timeoutMs)
// by deadline. A run claimable now is not: it is claimed at once.
func laterAttempt(r store.Run, now, deadline time.Time) bool {
	return r.NextAttemptAt.After(now) &&
		r.NextAttemptAt.Add(time.Duration(snapOf(r).TimeoutMs)*time.Millisecond).After(deadline)
}

// emitRunsState is one reading of an event's runs.
type emitRunsState struct {
	runs []emitRun
	// waitingForHost counts the queued host-action runs (notification,
	// sound, tool): never waited for, another process's host runs them.
	waitingForHost int
	// busy: a command run is running, or queued and able to run by the
	// deadline (leftQueued nil).
	busy bool
}

// readEventRuns reads the runs of eventID and classifies them against
// deadline (waitEventRuns; the final report passes now).
func readEventRuns(ctx context.Context, db *store.DB, eventID string, now, deadline time.Time) (emitRunsState, error) {
	runs, _, err := db.ListRuns(ctx, store.RunFilter{EventID: eventID, Limit: store.MaxListLimit})
	if err != nil {
		return emitRunsState{runs: []emitRun{}}, err
	}
	st := emitRunsState{runs: make([]emitRun, 0, len(runs))}
	for _, r := range runs {
		er := emitRun{Run: r}
		if r.Status == store.RunQueued && r.NextAttemptAt.After(now) {
			er.NextAttemptAt = r.NextAttemptAt.UTC().Truncate(time.Millisecond) // as the text prints it
		}
		host := hostActionRun(r)
		switch {
		case host && r.Status == store.RunQueued:
			st.waitingForHost++
		case host:
		case r.Status == store.RunRunning:
			st.busy = true
		case r.Status == store.RunQueued && laterAttempt(r, now, deadline):
			er.LeftQueued = &leftQueued{Reason: leftRetryLater, RunBy: runByText(r)}
		case r.Status == store.RunQueued:
			if bl, ok := laterBlocker(ctx, db, r, now, deadline); ok {
				er.LeftQueued = &leftQueued{Reason: leftBehindRetry, Behind: &bl, RunBy: runByText(r)}
			} else {
				st.busy = true
			}
		}
		st.runs = append(st.runs, er)
	}
	return st, nil
}

// laterBlocker finds the earlier queued run of r's hook and session that
// holds r back by serial order (§10.5, store.ClaimRun) and whose own next
// attempt is not due by deadline: r cannot run before it.
func laterBlocker(ctx context.Context, db *store.DB, r store.Run, now, deadline time.Time) (behindRun, bool) {
	if r.ConcurrencyPolicy == expr.ConcurrencyParallel {
		return behindRun{}, false
	}
	queued, _, err := db.ListRuns(ctx, store.RunFilter{Status: store.RunQueued, HookID: r.HookID, SessionID: r.SessionID, Limit: store.MaxListLimit})
	if err != nil {
		return behindRun{}, false
	}
	for _, o := range queued {
		if o.Seq < r.Seq && o.SessionID == r.SessionID && laterAttempt(o, now, deadline) {
			return behindRun{RunID: o.ID, NextAttemptAt: o.NextAttemptAt.UTC().Truncate(time.Millisecond)}, true
		}
	}
	return behindRun{}, false
}

// waitRecheck bounds how long waitEventRuns goes without reading the runs
// back: changes committed here wake it at once (Bridge.Changed), this
// catches those of another process on the home (e.g. an app-server that
// dispatched the event or ran one of its runs).
const waitRecheck = 50 * time.Millisecond

// waitEventRuns waits until the event is resolved and every command run of
// it is terminal or left queued (leftQueued: its next attempt, or the one
// of the run serial order holds it behind, is not due by the deadline);
// a re-queued run due earlier is waited for (this process runs it). A
// host-action run (notification, sound, tool) is not waited for, whether
// still queued for a capable host or already running in another process.
// done is false when the wait ended first (deadline passed or ctx
// cancelled).
func waitEventRuns(ctx context.Context, b *v2bridge.Bridge, eventID string, deadline time.Time) (emitRunsState, bool) {
	for {
		changed := b.Changed() // before the reads, so a change during them is not missed
		ev, err := b.DB().GetEvent(ctx, eventID)
		resolved := err == nil && (ev.Status == store.EventResolved || ev.Status == store.EventFailed)
		st, _ := readEventRuns(ctx, b.DB(), eventID, time.Now(), deadline)
		if resolved && !st.busy {
			return st, true
		}
		if ctx.Err() != nil || !time.Now().Before(deadline) {
			return st, false
		}
		t := time.NewTimer(min(waitRecheck, time.Until(deadline)))
		select {
		case <-ctx.Done():
		case <-changed:
		case <-t.C:
		}
		t.Stop()
	}
}

// Reasons of notDispatched.
const (
	notDispatchedSwitchOff = "master_switch_off"
	notDispatchedFailed    = "dispatch_failed"
)

// notDispatched is `v2 emit --json`'s "notDispatched": the event is stored
// pending in the outbox but this emit did not dispatch it (no runs exist).
type notDispatched struct {
	Reason     string `json:"reason"`          // master_switch_off | dispatch_failed
	Error      string `json:"error,omitempty"` // dispatch_failed: the last attempt's error
	Attempts   int    `json:"attempts,omitempty"`
	DispatchBy string `json:"dispatchBy"` // who dispatches it (text)
}

// dispatchAttempts bounds the emit's own dispatches of its event when the
// event is still pending after Emit (the one-transaction emit failed and so
// did the dispatcher's first try), dispatchRetryDelay·2^(i−1) apart: a busy
// or briefly failing database gets about a second and a half.
const (
	dispatchAttempts   = 4
	dispatchRetryDelay = 250 * time.Millisecond
)

const dispatchByText = "an app-server on this home (its backlog pass, at start and every maintenance tick, default 5 s), or `hookside v2 emit` of this event again"

// ensureDispatched makes sure the emitted event is dispatched: nil when it
// is (or another process is dispatching it, or ctx ended: the wait reports
// that), else why it is left pending.
func ensureDispatched(ctx context.Context, b *v2bridge.Bridge, eventID string) *notDispatched {
	var err error
	for i := range dispatchAttempts {
		if i > 0 {
			t := time.NewTimer(dispatchRetryDelay << (i - 1))
			select {
			case <-ctx.Done():
				t.Stop()
				return nil
			case <-t.C:
			}
		}
		var ev store.Event
		if ev, err = b.DB().GetEvent(ctx, eventID); err == nil && ev.Status != store.EventPending {
			return nil
		} else if err == nil {
			if set, serr := b.DB().GetSettings(ctx); serr == nil && !set.Enabled {
				// §12.1: with the master switch off events wait pending.
				return &notDispatched{Reason: notDispatchedSwitchOff,
					DispatchBy: dispatchByText + ", once the master switch is on (v2/settings/update)"}
			}
			err = b.DispatchStored(ctx, eventID)
		}
		if err == nil || errors.Is(err, v2bridge.ErrEventLeased) || ctx.Err() != nil {
			return nil
		}
	}
	return &notDispatched{Reason: notDispatchedFailed, Error: err.Error(), Attempts: dispatchAttempts, DispatchBy: dispatchByText}
}
