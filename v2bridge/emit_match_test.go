package v2bridge

import (
	"testing"

	"github.com/hookside/hookside/v2bridge/store"
)

// TestEmitReplyNamesMatchedAndUnbound: the emit reply lists every enabled
// definition of the event with its effective binding, and the ones without
// an active binding with the reason, so a host sees why nothing will run.
func TestEmitReplyNamesMatchedAndUnbound(t *testing.T) {
	b := openBridge(t, t.TempDir(), nil)
	res := emitTurn(t, b, "turn.completed", "t0", nil)
	if res.Enqueued || res.Matched == nil || len(res.Matched) != 0 || res.Unbound == nil || len(res.Unbound) != 0 {
		t.Fatalf("no definition: want enqueued false and empty (non-nil) lists, got %s", dump(res))
	}
	bound := mkDef(t, b, `{"id":"bound","name":"b","eventName":"turn.completed","action":{"type":"sound"}}`, true)
	mkDef(t, b, `{"id":"loose","name":"l","eventName":"turn.completed","action":{"type":"sound"}}`, false)
	off := mkDef(t, b, `{"id":"off","name":"o","eventName":"turn.completed","action":{"type":"sound"}}`, false)
	mkDef(t, b, `{"id":"other-session","name":"x","eventName":"turn.completed","action":{"type":"sound"}}`, false)
	mkDef(t, b, `{"id":"disabled-def","name":"d","enabled":false,"eventName":"turn.completed","action":{"type":"sound"}}`, true)
	mkDef(t, b, `{"id":"elsewhere","name":"e","eventName":"turn.failed","action":{"type":"sound"}}`, true)
	bv, err := b.CreateBinding(bg, off.ID, store.ScopeSession, "s1")
	if err != nil {
		t.Fatal(err)
	}
	no := false
	if _, err := b.UpdateBinding(bg, bv.ID, &no, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := b.CreateBinding(bg, "other-session", store.ScopeSession, "s2"); err != nil {
		t.Fatal(err)
	}
	res = emitTurn(t, b, "turn.completed", "t1", nil)
	if !res.Enqueued {
		t.Fatalf("want enqueued, got %s", dump(res))
	}
	states := map[string]string{}
	for _, m := range res.Matched {
		states[m.DefinitionID] = m.BindingState
	}
	want := map[string]string{"bound": "active", "loose": "", "off": "disabled", "other-session": ""}
	if dump(states) != dump(want) {
		t.Fatalf("matched states = %s, want %s (reply %s)", dump(states), dump(want), dump(res))
	}
	if res.Matched[0].DefinitionID != bound.ID || res.Matched[0].BindingID == "" {
		t.Fatalf("first match should be %s with its binding id, got %s", bound.ID, dump(res.Matched[0]))
	}
	reasons := map[string]string{}
	for _, u := range res.Unbound {
		reasons[u.DefinitionID] = u.Reason
	}
	wantR := map[string]string{"loose": UnboundNoBinding, "off": UnboundBindingDisabled, "other-session": UnboundNoBinding}
	if dump(reasons) != dump(wantR) {
		t.Fatalf("unbound = %s, want %s", dump(reasons), dump(wantR))
	}
	// A definition change drops trust: the binding needs review.
	if _, err := b.UpdateDefinition(bg, bound.ID, []byte(`{"action":{"type":"notification"}}`)); err != nil {
		t.Fatal(err)
	}
	res = emitTurn(t, b, "turn.completed", "t2", nil)
	for _, u := range res.Unbound {
		reasons[u.DefinitionID] = u.Reason
	}
	if reasons[bound.ID] != UnboundNeedsReview {
		t.Fatalf("after an executing change want %s needs_review, got %s", bound.ID, dump(res))
	}
}
