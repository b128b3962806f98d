package rpc

import (
	"context"
	"time"

	"github.com/hookside/hookside/v2bridge"
)

// The compensator (hooks-v2-handbook §9.3, docs/protocol.md §6): when the
// host declared capabilities.lifecycleReplay, every
// v2bridge.ReplayInterval() (60 s; $HOOKSIDE_REPLAY_INTERVAL_MS) this
// connection asks it host/lifecycle/facts {cursor} and emits the answer
// through the normal emit path (v2bridge.Bridge.ReplayOnce). The loop ends
// when the connection closes or the server shuts down.

// replayStart starts the compensator loop after initialize when the host
// asked for it. Called once per connection (a second initialize is refused).
func (s *Server) replayStart() {
	s.mu.Lock()
	init := s.init
	s.mu.Unlock()
	if init == nil || !init.Capabilities.LifecycleReplay {
		return
	}
	name := "host"
	if init.ClientInfo != nil && init.ClientInfo.Name != "" {
		name = init.ClientInfo.Name
	}
	go s.replayLoop(v2bridge.ReplayCursorKey+name, v2bridge.ReplayInterval())
}

func (s *Server) replayLoop(key string, every time.Duration) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := s.conn.DisconnectNotify()
	go func() {
		select {
		case <-done:
			cancel()
		case <-ctx.Done():
		}
	}()
	// A host that does not answer is given until the next round at most.
	timeout := min(every, 30*time.Second)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-done:
			return
		case <-t.C:
		}
		if s.getState() != stateReady {
			return // shutting down: no more rounds
		}
		b, err := s.v2Bridge()
		if err != nil {
			s.log.Debug("compensator: V2 store unavailable, round skipped", "err", err)
			continue
		}
		rctx, rcancel := context.WithTimeout(ctx, timeout)
		rep, err := b.ReplayOnce(rctx, connHost{s}, key)
		rcancel()
		if err != nil {
			s.log.Info("compensator round failed; retried next round", "err", err)
			continue
		}
		s.log.Debug("compensator round", "initialised", rep.Initialised, "emitted", rep.Emitted,
			"duplicates", rep.Duplicates, "skipped", rep.Skipped, "invalid", rep.Invalid)
	}
}
