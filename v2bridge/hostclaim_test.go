package v2bridge

import (
	"strings"
	"testing"
	"time"

	"github.com/hookside/hookside/v2bridge/store"
)

// TestUnclaimedHostActionRunIsSkipped: a notification run no host can
// execute is skipped + no_capable_host once the claim timeout passes, and a
// host connecting afterwards is never asked to show it.
func TestUnclaimedHostActionRunIsSkipped(t *testing.T) {
	b := openBridge(t, t.TempDir(), func(o *Options) {
		o.HostClaimTimeout = 150 * time.Millisecond
		o.MaintenanceInterval = 30 * time.Millisecond
	})
	mkDef(t, b, notifyDef, true)
	res := emitTurn(t, b, "turn.completed", "t1", map[string]any{"message": "m"})
	r := waitStatus(t, b, res.EventID, store.RunSkipped, hangGuard)
	if r.ErrorCode != CodeNoCapableHost || !strings.Contains(r.ErrorMessage, "150ms") || r.FinishedAt.IsZero() {
		t.Fatalf("want skipped + %s naming the timeout, got %s", CodeNoCapableHost, dump(r))
	}
	h := newFakeHost()
	h.on(MethodNotificationShow, answer(map[string]any{"shown": true}))
	b.AttachHost(h, []string{"notification"})
	// A fresh event with the host attached runs; the skipped one stays skipped.
	res2 := emitTurn(t, b, "turn.completed", "t2", map[string]any{"message": "m"})
	waitStatus(t, b, res2.EventID, store.RunSucceeded, hangGuard)
	if n := h.count(MethodNotificationShow); n != 1 {
		t.Fatalf("host asked %d times, want 1 (only the fresh run)", n)
	}
	if got, _ := b.db.GetRun(bg, r.ID); got.Status != store.RunSkipped {
		t.Fatalf("skipped run changed: %s", dump(got))
	}
}

// TestUnclaimedHostRunsKeptWhileMasterSwitchOff: queued runs are kept while
// the master switch is off (§12), whatever their age.
func TestUnclaimedHostRunsKeptWhileMasterSwitchOff(t *testing.T) {
	b := openBridge(t, t.TempDir(), func(o *Options) { o.NoPipeline = true })
	mkDef(t, b, notifyDef, true)
	off := false
	if _, err := b.db.UpdateSettings(bg, store.SettingsPatch{Enabled: &off}); err != nil {
		t.Fatal(err)
	}
	res := emitTurn(t, b, "turn.completed", "t1", nil)
	env, err := b.db.GetEvent(bg, res.EventID)
	if err != nil {
		t.Fatal(err)
	}
	e, err := BuildEnvelope(EmitParams{EventName: "turn.completed", Session: sess("s1"), Turn: turn("t1")}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	runs, err := b.resolveRuns(bg, e, nil)
	if err != nil || len(runs) != 1 {
		t.Fatalf("resolve: %v %d", err, len(runs))
	}
	if _, err := b.db.ResolveEvent(bg, env.ID, runs); err != nil {
		t.Fatal(err)
	}
	future := time.Now().Add(time.Hour)
	got, err := b.db.SkipUnclaimedHostRuns(bg, future, future, CodeNoCapableHost, "x")
	if err != nil || len(got) != 0 {
		t.Fatalf("master switch off: want nothing skipped, got %d %v", len(got), err)
	}
	on := true
	if _, err := b.db.UpdateSettings(bg, store.SettingsPatch{Enabled: &on}); err != nil {
		t.Fatal(err)
	}
	got, err = b.db.SkipUnclaimedHostRuns(bg, future, future, CodeNoCapableHost, "x")
	if err != nil || len(got) != 1 || got[0].Status != store.RunSkipped || got[0].ErrorCode != CodeNoCapableHost {
		t.Fatalf("master switch on: want the run skipped, got %s %v", dump(got), err)
	}
}
