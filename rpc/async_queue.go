package rpc

import (
	"context"
	"errors"
	"time"

	"github.com/hookside/hookside/runner/exec"
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
// background of its session, so the shell-hook path never depends on the DB.
func (s *Server) enqueueAsync(ctx context.Context, job exec.AsyncJob) (string, error) {
	b, err := s.v2BridgeWithin(ctx, asyncQueueBudget)
	if err != nil {
		return "", err
	}
	qctx, cancel := context.WithTimeout(ctx, asyncQueueBudget)
	defer cancel()
	return b.EnqueueShellHook(qctx, job)
}

// v2BridgeWithin is v2Bridge for the shell-hook path: it waits at most
// budget for the store to open (the open goes on in the background, so the
// next call finds it open) and returns errQueueBusy past it.
func (s *Server) v2BridgeWithin(ctx context.Context, budget time.Duration) (*v2bridge.Bridge, error) {
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
		return o.b, o.err
	case <-time.After(budget):
		return nil, errQueueBusy
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
