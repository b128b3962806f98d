package v2bridge

import (
	"testing"

	"github.com/hookside/hookside/internal/home"
	"github.com/hookside/hookside/v2bridge/store"
)

// TestResolveAtEmit: with Options.ResolveAtEmit (the CLI's pipeline) the
// event is resolved, and its runs exist, when Emit returns — one commit, no
// dispatcher pass — as another process opening the file sees; a condition
// miss is recorded skipped as the dispatcher would; the reply names the
// matched and unbound definitions; with the master switch off the event
// waits pending (§12.1) and a duplicate writes nothing (§3.2).
func TestResolveAtEmit(t *testing.T) {
	dir := t.TempDir()
	b := openBridge(t, dir, func(o *Options) {
		o.ResolveAtEmit, o.ClaimSessionID = true, "s1"
		o.Store.OneConnection = true
	})
	mkDef(t, b, notifyDef, true)
	mkDef(t, b, `{"name":"c","eventName":"turn.completed","condition":{"op":"contains","left":{"path":"payload.message"},"right":{"const":"disk"}},"action":{"type":"notification"}}`, true)
	unbound := mkDef(t, b, `{"name":"u","eventName":"turn.completed","action":{"type":"notification"}}`, false)
	other, err := store.Open(home.DBPath(dir), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()

	res := emitTurn(t, b, "turn.completed", "t1", map[string]any{"message": "ok"})
	if !res.Enqueued || res.Duplicate || len(res.Matched) != 3 || len(res.Unbound) != 1 ||
		res.Unbound[0].DefinitionID != unbound.ID || res.Unbound[0].Reason != UnboundNoBinding {
		t.Fatalf("emit result %s; want 3 matched, the unbound one no_binding", dump(res))
	}
	ev, err := other.GetEvent(bg, res.EventID)
	if err != nil || ev.Status != store.EventResolved {
		t.Fatalf("event seen by another process: %s %v; want resolved", dump(ev), err)
	}
	runs, _, err := other.ListRuns(bg, store.RunFilter{EventID: res.EventID, Limit: 10})
	if err != nil || len(runs) != 2 {
		t.Fatalf("runs seen by another process: %s %v", dump(runs), err)
	}
	var queued, skipped int
	for _, r := range runs {
		switch {
		case r.Status == store.RunQueued:
			queued++
		case r.Status == store.RunSkipped && r.ErrorCode == CodeConditionNotMatched:
			skipped++
		}
	}
	if queued != 1 || skipped != 1 {
		t.Fatalf("runs %s; want one queued (no host here) and one skipped condition_not_matched", dump(runs))
	}

	again := emitTurn(t, b, "turn.completed", "t1", map[string]any{"message": "ok"})
	if !again.Duplicate || again.EventID != res.EventID {
		t.Fatalf("second emit %s; want a duplicate", dump(again))
	}
	if runs, _, _ := other.ListRuns(bg, store.RunFilter{EventID: res.EventID, Limit: 10}); len(runs) != 2 {
		t.Fatalf("a duplicate emit changed the runs: %s", dump(runs))
	}

	off := false
	if _, err := other.UpdateSettings(bg, store.SettingsPatch{Enabled: &off}); err != nil {
		t.Fatal(err)
	}
	res = emitTurn(t, b, "turn.completed", "t2", nil)
	if ev, err := other.GetEvent(bg, res.EventID); err != nil || ev.Status != store.EventPending {
		t.Fatalf("master switch off: event %s %v; want pending", dump(ev), err)
	}
	if runs, _, _ := other.ListRuns(bg, store.RunFilter{EventID: res.EventID, Limit: 10}); len(runs) != 0 {
		t.Fatalf("master switch off: runs %s; want none", dump(runs))
	}
}
