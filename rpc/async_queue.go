package rpc

import (
	"context"
	"errors"
	"time"

	"github.com/hookside/hookside/runner"
	"github.com/hookside/hookside/v2bridge"
)

// asyncQueueBudget bounds how long a hooks/run waits for the V2 store
// before starting an async hook in the background instead.
const asyncQueueBudget = 500 * time.Millisecond

var errQueueBusy = errors.New("the V2 store is still opening")

// enqueueAsync is runner.SessionOptions.AsyncQueue: an async shell hook
// becomes a run of the durable V2 queue (it appears in v2/runs/list and
// v2/run/updated). Any failure — the store unavailable, busy past the
// budget, the master switch off — makes the runner start the hook in the
// background as before, so the shell-hook path never depends on the DB.
func (s *Server) enqueueAsync(ctx context.Context, job runner.AsyncJob) (string, error) {
	type opened struct {
		b   *v2bridge.Bridge
		err error
	}
	ch := make(chan opened, 1)
	go func() {
		b, err := s.v2Bridge()
		ch <- opened{b, err}
	}()
	select {
	case o := <-ch:
		if o.err != nil {
			return "", o.err
		}
		qctx, cancel := context.WithTimeout(ctx, asyncQueueBudget)
		defer cancel()
		return o.b.EnqueueShellHook(qctx, job)
	case <-time.After(asyncQueueBudget):
		return "", errQueueBusy
	case <-ctx.Done():
		return "", ctx.Err()
	}
}
