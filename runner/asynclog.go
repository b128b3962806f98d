package runner

import (
	"sync"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/runner/exec"
)

// AsyncHook is one background (async) hook process a session started
// (zcode and spark async: true, claude async/asyncRewake handlers and
// handlers that printed the runtime async marker), as AsyncHooks reports
// it: which hook, and, once it ended, how.
type AsyncHook struct {
	HookID, Event string
	// Command and Args are the hook's command as configured (before
	// ${VAR} expansion), for display.
	Command string
	Args    []string
	// Running: it has not ended yet; the fields below are then zero.
	Running bool
	// ExitCode is its exit status (0–255), -1 when it was killed (TimedOut,
	// Stopped) or did not start (StartError).
	ExitCode int
	// TimedOut: its timeout expired and its process group was killed.
	TimedOut bool
	// Stopped: the session's Close stopped it (process group SIGTERM, then
	// SIGKILL after exec.KillGrace) before it ended.
	Stopped bool
	// StartError is why no process ran ("" when one did).
	StartError string
	// DurationMs is its wall time in milliseconds, from just before the
	// start until its output was collected.
	DurationMs int64
}

// maxAsyncLog bounds the ended hooks asyncLog keeps (the oldest go
// first), so that a long app-server session does not grow it forever;
// running hooks are always kept (at most MaxAsyncPerSession of them, plus
// detached claude handlers).
const maxAsyncLog = 256

// asyncLog records the session's background hooks for AsyncHooks.
type asyncLog struct {
	mu    sync.Mutex
	hooks []*AsyncHook
}

// start records that h started in the background for event; the result is
// given to end when it ends.
func (l *asyncLog) start(h *hook.Hook, event string) *AsyncHook {
	a := &AsyncHook{HookID: h.ID, Event: event, Command: h.Command, Args: append([]string(nil), h.Args...), Running: true}
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.hooks) >= maxAsyncLog {
		for i, old := range l.hooks {
			if !old.Running {
				l.hooks = append(l.hooks[:i], l.hooks[i+1:]...)
				break
			}
		}
	}
	l.hooks = append(l.hooks, a)
	return a
}

// end records how a ended (res: its process's result).
func (l *asyncLog) end(a *AsyncHook, res exec.Result) {
	l.mu.Lock()
	defer l.mu.Unlock()
	a.Running, a.ExitCode, a.TimedOut, a.Stopped = false, res.ExitCode, res.TimedOut, res.Canceled
	a.DurationMs = res.Duration.Milliseconds()
	if res.StartErr != nil {
		a.StartError, a.Stopped = res.StartErr.Error(), false
	}
}

// AsyncHooks returns the background (async) hooks the session started, in
// start order (the last maxAsyncLog ended ones, and every running one),
// each as it is now: running, or how it ended. After WaitAsync returned
// true, or after Close, none is running. Safe for concurrent use.
func (s *Session) AsyncHooks() []AsyncHook {
	s.asyncLog.mu.Lock()
	defer s.asyncLog.mu.Unlock()
	out := make([]AsyncHook, len(s.asyncLog.hooks))
	for i, a := range s.asyncLog.hooks {
		out[i] = *a
	}
	return out
}
