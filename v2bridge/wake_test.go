package v2bridge

import (
	"testing"
	"time"
)

// A run another process queued on the same home is picked up at once, not
// at the next maintenance tick: two bridges (separate database handles, so
// no in-process subscription connects them) with the tick an hour away; the
// emitter cannot run the notification, the other bridge's host shows it.
// The 10 s bound is a hang guard only (the figure is BenchmarkCrossProcessWake
// in v2bridge/crossproc).
func TestRunQueuedByAnotherProcessWakesWorkers(t *testing.T) {
	home := t.TempDir()
	server := openBridge(t, home, func(o *Options) { o.MaintenanceInterval = time.Hour })
	h := newFakeHost()
	h.on(MethodNotificationShow, answer(map[string]any{"shown": true}))
	server.AttachHost(h, []string{"notification"})
	mkDef(t, server, `{"name":"n","eventName":"turn.failed","action":{"type":"notification"}}`, true)

	cli := openBridge(t, home, func(o *Options) { o.MaintenanceInterval = time.Hour; o.ClaimSessionID = "s1" })
	for i, turnID := range []string{"t1", "t2", "t3"} {
		start := time.Now()
		emitTurn(t, cli, "turn.failed", turnID, nil)
		select {
		case c := <-h.called:
			t.Logf("emit %d → %s in %v", i, c.Method, c.At.Sub(start))
		case <-time.After(10 * time.Second):
			t.Fatalf("emit %d: the other process's run was not picked up (no cross-process wake-up)", i)
		}
	}
}
