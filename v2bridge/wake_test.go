package v2bridge

import (
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/hookside/hookside/v2bridge/store"
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

// BenchmarkWakeAcrossHandles isolates the wake-up: emit on one database
// handle (the "CLI": dispatch, commit, wake file) → host/notification/show
// through another handle's workers (fsnotify → claim → host call). p50/p99
// in ms; the process start of a real `hookside v2 emit` is not included
// (BenchmarkCrossProcessWake in v2bridge/crossproc has it).
func BenchmarkWakeAcrossHandles(b *testing.B) {
	home := b.TempDir()
	server, err := Open(Options{Home: home, Logger: quietLogger(), MaintenanceInterval: time.Hour})
	if err != nil {
		b.Fatal(err)
	}
	defer server.Close(0)
	h := newFakeHost()
	h.on(MethodNotificationShow, answer(map[string]any{"shown": true}))
	server.AttachHost(h, []string{"notification"})
	if _, err := server.CreateDefinition(bg, []byte(`{"name":"n","eventName":"turn.failed","action":{"type":"notification"}}`)); err != nil {
		b.Fatal(err)
	}
	defs, _ := server.DB().ListDefinitions(bg, "turn.failed")
	if _, err := server.CreateBinding(bg, defs[0].ID, "application", ""); err != nil {
		b.Fatal(err)
	}
	cli, err2 := Open(Options{Home: home, Logger: quietLogger(), MaintenanceInterval: time.Hour, ClaimSessionID: "s1"})
	if err2 != nil {
		b.Fatal(err2)
	}
	defer cli.Close(0)
	lats := make([]float64, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		start := time.Now()
		if _, err := cli.Emit(bg, EmitParams{EventName: "turn.failed", Session: sess("s1"), Turn: turn(fmt.Sprintf("b%d", i))}); err != nil {
			b.Fatal(err)
		}
		select {
		case c := <-h.called:
			lats = append(lats, float64(c.At.Sub(start).Microseconds())/1000)
		case <-time.After(10 * time.Second):
			b.Fatal("not woken")
		}
	}
	b.StopTimer()
	sort.Float64s(lats)
	b.ReportMetric(lats[len(lats)/2], "p50-ms")
	b.ReportMetric(lats[min(len(lats)-1, len(lats)*99/100)], "p99-ms")
}

// Changed is closed by this process's own commits: the dispatch of an
// emitted event (with its runs) and, with no run at all, the event's
// resolution; `hookside v2 emit --wait` reads the runs back on it instead
// of on a timer. The 10 s bound is a hang guard only.
func TestChangedSignalsDispatchAndRuns(t *testing.T) {
	b := openBridge(t, t.TempDir(), func(o *Options) { o.MaintenanceInterval = time.Hour; o.ClaimSessionID = "s1" })
	mkDef(t, b, `{"name":"bound","eventName":"turn.failed","action":{"type":"notification"}}`, true)
	mkDef(t, b, `{"name":"unbound","eventName":"turn.completed","action":{"type":"notification"}}`, false)
	for _, ev := range []string{"turn.failed", "turn.completed"} {
		changed := b.Changed()
		res := emitTurn(t, b, ev, "t-"+ev, nil)
		select {
		case <-changed:
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: Changed not closed after the event's dispatch", ev)
		}
		for deadline := time.Now().Add(10 * time.Second); ; {
			next := b.Changed()
			got, err := b.DB().GetEvent(bg, res.EventID)
			if err == nil && got.Status == store.EventResolved {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: event %s not resolved: %+v %v", ev, res.EventID, got, err)
			}
			select {
			case <-next:
			case <-time.After(time.Until(deadline)):
			}
		}
	}
}
