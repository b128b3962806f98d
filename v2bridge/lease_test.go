package v2bridge

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookside/hookside/v2bridge/store"
)

// A process renews its own in-flight runs before it sweeps expired leases
// (hooks-v2-handbook §9.4): a wall-clock jump (or a stall) longer than the
// lease between two renewals must not turn the live run into
// outcome_unknown, and the action that then succeeds is recorded succeeded.
func TestMaintenanceRenewsOwnInflightRunsBeforeSweeping(t *testing.T) {
	clk := newFakeClock()
	b := openBridge(t, t.TempDir(), func(o *Options) {
		o.Store.Now = clk.Now
		o.RunLease = time.Minute // the renewal ticker (20 s) never fires in this test
		o.MaintenanceInterval = time.Hour
	})
	release := make(chan struct{})
	var once sync.Once
	t.Cleanup(func() { once.Do(func() { close(release) }) }) // runs before the bridge closes
	h := toolHost("read", "1", "none", func(json.RawMessage) (any, error) {
		<-release
		return map[string]any{"ok": true}, nil
	})
	b.AttachHost(h, []string{"tool"})
	mkDef(t, b, strings.Replace(toolDef, "%s", "", 1), true)
	res := emitResponse(t, b, "m1", "x")
	for c := range h.called {
		if c.Method == MethodToolInvoke {
			break
		}
	}
	// The clock jumps 10 leases ahead (suspend, SIGSTOP): the maintenance
	// tick of this very process must keep the run alive.
	clk.Add(10 * time.Minute)
	b.maintain()
	runs, _, _ := b.DB().ListRuns(bg, store.RunFilter{EventID: res.EventID, Limit: 5})
	if len(runs) != 1 || runs[0].Status != store.RunRunning {
		t.Fatalf("own live run swept: %s", dump(runs))
	}
	if want := clk.Now().Add(time.Minute); !runs[0].LeaseUntil.Equal(want) {
		t.Fatalf("lease until %v, want %v (renewed from the new now)", runs[0].LeaseUntil, want)
	}
	once.Do(func() { close(release) })
	r := waitStatus(t, b, res.EventID, store.RunSucceeded, 5*time.Second)
	if h.count(MethodToolInvoke) != 1 {
		t.Fatalf("%s", dump(r))
	}
}

// Another process's expired run is still recovered by the same tick.
func TestMaintenanceStillRecoversForeignExpiredRuns(t *testing.T) {
	clk := newFakeClock()
	home := t.TempDir()
	b := openBridge(t, home, func(o *Options) {
		o.Store.Now = clk.Now
		o.MaintenanceInterval = time.Hour
	})
	// A notification run nobody here can execute, claimed by another owner.
	d := mkDef(t, b, `{"name":"n","eventName":"turn.failed","action":{"type":"notification"}}`, true)
	res := emitTurn(t, b, "turn.failed", "t1", nil)
	waitStatus(t, b, res.EventID, store.RunQueued, 5*time.Second)
	r, ok, err := b.DB().ClaimRun(bg, "other-process", time.Minute, clk.Now(), store.ClaimFilter{HookID: d.ID})
	if err != nil || !ok {
		t.Fatalf("%v %v", ok, err)
	}
	clk.Add(2 * time.Minute)
	b.maintain()
	got, _ := b.DB().GetRun(bg, r.ID)
	if got.Status != store.RunOutcomeUnknown {
		t.Fatalf("foreign expired run: %s", dump(got))
	}
}
