package rpc

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/output"
	"github.com/hookside/hookside/runner"
)

// runObserver turns the progress of one hooks/run into hook/started and
// hook/completed notifications. Internal hooks are private: no
// notifications.
//
// hook/started is held (Server.hold) and goes out with the connection's
// next frame — the hook's hook/completed or the run's reply when the hook
// ends sooner — or, with what else is held, once the hook has run
// startedHold: a host is woken once for a hook that ends at once, and
// learns of a longer one within startedHold of its start. A host that
// opted out of hook/started gets what is held when the next hook starts.
// A hook/completed is held when nothing
// else of the run is under way — no hook process started and not
// completed, no internal hook waiting (wait) — so the run's next frame,
// the next hook/started or the reply, follows without waiting on anything,
// and they go out in one write. After the run returned (end) nothing is
// held.
type runObserver struct {
	s         *Server
	sessionID string

	mu      sync.Mutex
	running []string      // run ids of hooks started and not completed
	waiting int           // internal hooks of the run under way (wait)
	ended   bool          // the run returned
	flush   *time.Timer   // writes a held hook/started after startedHold
	hold    time.Duration // startedHold unless set (tests)
}

// startedHold is how long a hook/started may wait for the hook's next
// frame (docs/protocol.md, Notifications).
const startedHold = 10 * time.Millisecond

// observerKey is the context key of the run's observer, which internal
// hook handlers find in their context (runObserver.wait).
type observerKey struct{}

// observerOf returns the observer of the hooks/run ctx belongs to, or nil.
func observerOf(ctx context.Context) *runObserver {
	o, _ := ctx.Value(observerKey{}).(*runObserver)
	return o
}

// end marks the run returned: later notifications are written at once.
func (o *runObserver) end() {
	o.mu.Lock()
	o.ended = true
	o.stopFlush()
	o.mu.Unlock()
}

// wait marks work of the run that may block (an internal hook reading the
// V2 store) as under way until the returned function is called: what was
// held is written now, and nothing is held meanwhile.
func (o *runObserver) wait() (done func()) {
	o.mu.Lock()
	o.waiting++
	o.mu.Unlock()
	o.s.flushHeld()
	return func() {
		o.mu.Lock()
		o.waiting--
		o.mu.Unlock()
	}
}

type hookStartedParams struct {
	SessionID string     `json:"sessionId"`
	RunID     string     `json:"runId"`
	HookID    string     `json:"hookId"`
	Event     string     `json:"event"`
	Source    hookSource `json:"source"`
}

type hookCompletedParams struct {
	SessionID     string         `json:"sessionId"`
	RunID         string         `json:"runId"`
	HookID        string         `json:"hookId"`
	Event         string         `json:"event"`
	Outcome       output.Outcome `json:"outcome"`
	ExitCode      *int           `json:"exitCode"`
	DurationMs    int64          `json:"durationMs"`
	StdoutPreview string         `json:"stdoutPreview"`
	StderrPreview string         `json:"stderrPreview"`
	Error         string         `json:"error,omitempty"`
	Warnings      []string       `json:"warnings,omitempty"`
}

func (o *runObserver) HookStarted(e runner.HookStart) {
	if e.Hook.Source.Kind == hook.SourceInternal {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.running = append(o.running, e.RunID)
	if o.s.optedOut("hook/started") {
		// What was held goes out now: the hook may run long.
		o.s.flushHeld()
		return
	}
	o.s.hold("hook/started", hookStartedParams{
		SessionID: o.sessionID, RunID: e.RunID, HookID: e.Hook.ID, Event: e.Event,
		Source: hookSource{Kind: string(e.Hook.Source.Kind), Path: e.Hook.Source.Path, Name: e.Hook.Source.Name},
	})
	// What is held goes out within startedHold: the hook may run long.
	d := o.hold
	if d == 0 {
		d = startedHold
	}
	if o.flush == nil {
		o.flush = time.AfterFunc(d, o.s.flushHeld)
	} else {
		o.flush.Reset(d)
	}
}

// stopFlush stops the startedHold timer (under o.mu): the next frame is
// written without waiting.
func (o *runObserver) stopFlush() {
	if o.flush != nil {
		o.flush.Stop()
	}
}

func (o *runObserver) HookCompleted(e runner.HookDone) {
	if e.Hook.Source.Kind == hook.SourceInternal {
		return
	}
	p := hookCompletedParams{
		SessionID: o.sessionID, RunID: e.RunID, HookID: e.Hook.ID, Event: e.Event,
		Outcome: e.Run.Outcome, ExitCode: e.Run.ExitCode, DurationMs: e.Run.DurationMs,
		StdoutPreview: preview(e.Stdout), StderrPreview: preview(e.Stderr), Error: e.Run.Error, Warnings: e.Run.Warnings,
	}
	// Decided and held under o.mu: end() cannot slip in between, so a
	// held frame is always followed by the run's reply.
	o.mu.Lock()
	defer o.mu.Unlock()
	// A skipped hook never started: it is not in running.
	if i := slices.Index(o.running, e.RunID); i >= 0 {
		o.running = slices.Delete(o.running, i, i+1)
	}
	if len(o.running) == 0 && o.waiting == 0 && !o.ended {
		o.stopFlush()
		o.s.holdOpt("hook/completed", p)
		return
	}
	o.s.notifyOpt("hook/completed", p)
}
