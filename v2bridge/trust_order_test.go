package v2bridge

import (
	"testing"
	"time"

	"github.com/hookside/hookside/v2bridge/store"
)

// The condition is decided before trust (§11.1: skipped at dispatch), and a
// needs_review binding's matching run enters the queue, where the worker's
// pre-check blocks it trust_required (§7.2) — so re-authorizing before the
// worker reaches it lets it run.
func TestConditionBeforeTrustAndNeedsReviewRunsAreQueued(t *testing.T) {
	b := openBridge(t, t.TempDir(), nil) // no host yet: sound runs wait in the queue
	d := mkDef(t, b, `{"name":"s","eventName":"turn.completed","action":{"type":"sound"},
		"condition":{"op":"eq","left":{"path":"payload.message"},"right":{"const":"ok"}}}`, true)
	bs, _ := b.ListBindings(bg, d.ID)
	wrong := "deadbeef"
	if v, _ := b.UpdateBinding(bg, bs[0].ID, nil, &wrong); v.State != store.BindingNeedsReview {
		t.Fatalf("%s", dump(v))
	}
	miss := emitTurn(t, b, "turn.completed", "t0", map[string]any{"message": "no"})
	if r := waitStatus(t, b, miss.EventID, store.RunSkipped, 5*time.Second); r.ErrorCode != CodeConditionNotMatched {
		t.Fatalf("non-matching event under needs_review: %s", dump(r))
	}
	hit := emitTurn(t, b, "turn.completed", "t1", map[string]any{"message": "ok"})
	waitStatus(t, b, hit.EventID, store.RunQueued, 5*time.Second)
	blockedToo := emitTurn(t, b, "turn.completed", "t2", map[string]any{"message": "ok"})
	waitStatus(t, b, blockedToo.EventID, store.RunQueued, 5*time.Second)

	h := newFakeHost()
	h.on(MethodSoundPlay, answer(map[string]any{"played": true}))
	// Not re-authorized: the pre-check blocks both queued runs.
	b.AttachHost(h, []string{"sound"})
	for _, id := range []string{hit.EventID, blockedToo.EventID} {
		if r := waitStatus(t, b, id, store.RunBlocked, 5*time.Second); r.ErrorCode != CodeTrustRequired {
			t.Fatalf("%s", dump(r))
		}
	}
	if h.count(MethodSoundPlay) != 0 {
		t.Fatal("an unauthorized run played")
	}
	// Re-authorized while a run is queued: it runs.
	b.DetachHost()
	again := emitTurn(t, b, "turn.completed", "t3", map[string]any{"message": "ok"})
	waitStatus(t, b, again.EventID, store.RunQueued, 5*time.Second)
	hash := d.ExecutionHash
	if v, err := b.UpdateBinding(bg, bs[0].ID, nil, &hash); err != nil || v.State != store.BindingActive {
		t.Fatalf("%s %v", dump(v), err)
	}
	b.AttachHost(h, []string{"sound"})
	waitStatus(t, b, again.EventID, store.RunSucceeded, 5*time.Second)
}
