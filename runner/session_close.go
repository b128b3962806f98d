package runner

import (
	"context"
	"errors"
	"os"
)

// ErrSessionClosed is the error of a Run or RunClaude that Close ended (or
// that began after it): the run's hooks were killed, and their runs say
// "cancelled: the session was closed".
var ErrSessionClosed = errors.New("the session was closed")

// track registers a foreground run for Close: the returned ctx also ends
// (cause ErrSessionClosed) when the session is closed, and done must be
// called when the run ends. ok is false once Close has begun.
func (s *Session) track(ctx context.Context) (_ context.Context, done func(), ok bool) {
	s.runMu.Lock()
	defer s.runMu.Unlock()
	if s.closing {
		return ctx, nil, false
	}
	rctx, cancel := context.WithCancelCause(ctx)
	if s.inflight == nil {
		s.inflight = map[uint64]context.CancelCauseFunc{}
	}
	s.nextRun++
	id := s.nextRun
	s.inflight[id] = cancel
	s.runs.Add(1)
	return rctx, func() {
		s.runMu.Lock()
		delete(s.inflight, id)
		s.runMu.Unlock()
		cancel(nil)
		s.runs.Done()
	}, true
}

// closedErr is err, or ErrSessionClosed when Close ended the run of ctx.
func closedErr(ctx context.Context, err error) error {
	if err != nil && context.Cause(ctx) == ErrSessionClosed {
		return ErrSessionClosed
	}
	return err
}

// Close ends the session's runs: a Run or RunClaude in progress is
// cancelled (its hooks' process groups get SIGTERM, then SIGKILL after
// exec.KillGrace; it returns ErrSessionClosed), then the background (async)
// hooks are stopped the same way, and the temporary files removed. It waits
// for all of them to end; a Run that starts after it returns ErrSessionClosed.
func (s *Session) Close() {
	s.closedOnce.Do(func() {
		if s.watch != nil {
			s.watch.close()
		}
		// Foreground runs first: their hooks are killed as for a cancelled
		// request, and they end before the temporary files they use go.
		s.runMu.Lock()
		s.closing = true
		for _, cancel := range s.inflight {
			cancel(ErrSessionClosed)
		}
		s.runMu.Unlock()
		s.runs.Wait()
		s.asyncStop()
		s.async.Wait()
		s.tmpMu.Lock()
		if s.emptyF != nil {
			_ = s.emptyF.Close()
			s.emptyF = nil
		}
		if s.tmpDir != "" {
			os.RemoveAll(s.tmpDir)
		}
		s.tmpMu.Unlock()
	})
}
