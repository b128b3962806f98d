package runner

import (
	"context"
	"math"
	"sync/atomic"
	"time"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/internal/jsonexact"
	"github.com/hookside/hookside/output"
	"github.com/hookside/hookside/runner/exec"
)

// deliverAsync hands a finished background hook's result to the session:
// it waits for the next reply (ClaudeMerged.AsyncResults), and an
// asyncRewake exit 2 also goes to SessionOptions.OnClaudeWake at once,
// with the handler's rewakeMessage before the hook's text and its
// rewakeSummary when the output gives none. A result with nothing to
// deliver (no context, system message, wake-up or hookErrors notice) is
// dropped.
func (s *Session) deliverAsync(h *hook.Hook, event string, pr output.ProcessResult) {
	r := output.ClaudeAsync(event, h.AsyncRewake, pr)
	r.HookID, r.Event = h.ID, event
	if r.Wake {
		if h.RewakeMessage != "" {
			r.WakeText = h.RewakeMessage + "\n\n" + r.WakeText
		}
		if r.WakeSummary == "" {
			r.WakeSummary = h.RewakeSummary
		}
	}
	if len(r.AdditionalContext) == 0 && r.SystemMessage == "" && !r.Wake && len(r.HookErrors) == 0 {
		return
	}
	s.claudeSt().addPending(r)
	if r.Wake && s.opts.OnClaudeWake != nil {
		s.opts.OnClaudeWake(r)
	}
}

// claudeLateAsync handles a command hook that printed Claude Code's runtime
// async marker ({"async": true, …} as its first stdout line,
// output.ClaudeAsyncMarker): the event gets no answer from it (outcome
// started_async) and its output is delivered as a background hook's, in
// asyncResults. This is the path of a hook that had already exited when
// its marker was read (claudeSpawnRun detaches the others), or of a
// Spawner that does not report first lines; its result is then already in
// the reply of the run that started it.
func (s *Session) claudeLateAsync(h *hook.Hook, event string, pr output.ProcessResult) output.ClaudeAnswer {
	s.deliverAsync(h, event, pr)
	return output.ClaudeAnswer{Outcome: output.OutcomeStartedAsync}
}

// claudeSpawnRun runs a command handler in the foreground and watches its
// first stdout line for Claude Code's runtime async marker
// ({"async": true, "asyncTimeout": ms}, output.ClaudeAsyncMarker). Without
// the marker the handler runs under ctx and its result is returned. With
// it the run is answered at once (Async: outcome started_async) and the
// process goes on as a background hook of the session (claudeDetach).
// A handler that has already exited when its marker is seen is returned
// as it is; claudeRunOne then reads the marker from its stdout.
func (s *Session) claudeSpawnRun(ctx context.Context, h *hook.Hook, event string, spec exec.Spec, cleanup func()) output.ProcessResult {
	marker := make(chan time.Duration, 1)
	spec.OnFirstLine = func(line []byte) {
		if output.ClaudeAsyncMarker(line) {
			marker <- claudeAsyncTimeout(line)
		}
	}
	runCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan exec.Result, 1)
	go func() { done <- s.opts.Spawner.Run(runCtx, spec) }()
	var res exec.Result
	select {
	case res = <-done:
	case <-ctx.Done():
		cancel()
		res = <-done
	case timeout := <-marker:
		select {
		case res = <-done:
		default:
			s.claudeDetach(h, event, done, cancel, cleanup, timeout)
			return output.ProcessResult{ExitCode: -1, Async: true}
		}
	}
	cancel()
	cleanup()
	return claudeProcessResult(res)
}

// claudeDetach keeps a handler that printed the runtime async marker
// running as a background hook: it ends at its exit, at the handler's
// timeout (counted from its start), at asyncTimeout (counted from the
// marker; 0 = none) when that comes first, or at Close, which kills it
// and drops its output. Its result is delivered like an async handler's
// (deliverAsync: asyncResults of a later reply, asyncRewake wake-ups).
func (s *Session) claudeDetach(h *hook.Hook, event string, done <-chan exec.Result, cancel context.CancelFunc, cleanup func(), timeout time.Duration) {
	s.async.Add(1)
	rec := s.asyncLog.start(h, event)
	go func() {
		defer s.async.Done()
		defer cleanup()
		defer cancel()
		stop := context.AfterFunc(s.asyncCtx, cancel)
		defer stop()
		var expired atomic.Bool
		if timeout > 0 {
			t := time.AfterFunc(timeout, func() {
				expired.Store(true)
				cancel()
			})
			defer t.Stop()
		}
		res := <-done
		if res.Canceled && expired.Load() {
			res.Canceled, res.TimedOut = false, true
		}
		s.asyncLog.end(rec, res)
		if res.Canceled {
			return
		}
		s.deliverAsync(h, event, claudeProcessResult(res))
	}()
}

// claudeAsyncTimeout reads asyncTimeout (milliseconds) from an async
// marker line; 0 when absent or not a positive number.
func claudeAsyncTimeout(line []byte) time.Duration {
	var m struct {
		AsyncTimeout float64 `json:"asyncTimeout"`
	}
	if jsonexact.Unmarshal(line, &m) != nil || m.AsyncTimeout <= 0 || m.AsyncTimeout > float64(math.MaxInt64/int64(time.Millisecond)) {
		return 0
	}
	return time.Duration(m.AsyncTimeout * float64(time.Millisecond))
}

// claudeProcessResult is a spawned handler's result as output parses it.
func claudeProcessResult(res exec.Result) output.ProcessResult {
	pr := output.ProcessResult{
		ExitCode: res.ExitCode, Stdout: res.Stdout, Stderr: res.Stderr,
		StdoutTruncated: res.StdoutTruncated, StderrTruncated: res.StderrTruncated, TimedOut: res.TimedOut,
	}
	if res.StartErr != nil {
		pr.SpawnError = res.StartErr.Error()
	}
	return pr
}
