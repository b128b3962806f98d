package v2bridge

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/hookside/hookside/v2bridge/store"
)

const seedDef = `{"id":"seed","name":"Seed","eventName":"turn.completed","action":{"type":"notification","title":{"const":"done"}}}`

// TestUpsertDefinitionIsIdempotent: created, then unchanged (no revision
// bump, no write), then a name change keeps the revision and trust, an
// executing change bumps it and drops the binding's trust; an omitted
// enabled keeps the user's switch.
func TestUpsertDefinitionIsIdempotent(t *testing.T) {
	b := openBridge(t, t.TempDir(), nil)
	r, err := b.UpsertDefinition(bg, json.RawMessage(seedDef))
	if err != nil || r.Outcome != OutcomeCreated || r.Definition.Revision != 1 {
		t.Fatalf("first upsert: %s %v", dump(r), err)
	}
	bv, err := b.CreateBinding(bg, "seed", store.ScopeApplication, "")
	if err != nil {
		t.Fatal(err)
	}
	r2, err := b.UpsertDefinition(bg, json.RawMessage(seedDef))
	if err != nil || r2.Outcome != OutcomeUnchanged || r2.Definition.Revision != 1 ||
		!r2.Definition.UpdatedAt.Equal(r.Definition.UpdatedAt) {
		t.Fatalf("same content: want unchanged, same revision and updatedAt, got %s %v", dump(r2), err)
	}
	// The user switches the definition off; re-seeding without "enabled" keeps it off.
	off := false
	if _, err := b.UpdateDefinition(bg, "seed", json.RawMessage(`{"enabled":false}`)); err != nil {
		t.Fatal(err)
	}
	r3, err := b.UpsertDefinition(bg, json.RawMessage(seedDef))
	if err != nil || r3.Outcome != OutcomeUnchanged || r3.Definition.Enabled != off {
		t.Fatalf("re-seed after the user's switch: want unchanged and disabled, got %s %v", dump(r3), err)
	}
	renamed := `{"id":"seed","name":"Seed 2","enabled":true,"eventName":"turn.completed","action":{"type":"notification","title":{"const":"done"}}}`
	r4, err := b.UpsertDefinition(bg, json.RawMessage(renamed))
	if err != nil || r4.Outcome != OutcomeUpdated || r4.Definition.Revision != 1 || r4.BindingsNeedingReview != 0 || !r4.Definition.Enabled {
		t.Fatalf("rename: want updated, revision 1, trust kept, got %s %v", dump(r4), err)
	}
	exec := `{"id":"seed","name":"Seed 2","eventName":"turn.completed","action":{"type":"notification","title":{"const":"finished"}}}`
	r5, err := b.UpsertDefinition(bg, json.RawMessage(exec))
	if err != nil || r5.Outcome != OutcomeUpdated || r5.Definition.Revision != 2 || r5.BindingsNeedingReview != 1 {
		t.Fatalf("executing change: want updated, revision 2, 1 binding needing review, got %s %v", dump(r5), err)
	}
	got, err := b.db.GetBinding(bg, bv.ID)
	if err != nil || got.State != store.BindingNeedsReview {
		t.Fatalf("binding after the executing change: %s %v", dump(got), err)
	}
	if _, err := b.UpsertDefinition(bg, json.RawMessage(`{"name":"x","eventName":"turn.completed","action":{"type":"sound"}}`)); err == nil {
		t.Fatal("an upsert without id must be refused")
	} else {
		var ie *InvalidError
		if !errors.As(err, &ie) || ie.Field != "definition.id" {
			t.Fatalf("want an invalid definition.id, got %v", err)
		}
	}
}

// TestUpsertBindingKeepsTheUsersDecisions: created once, then returned
// unchanged — a disabled binding is not re-enabled.
func TestUpsertBindingKeepsTheUsersDecisions(t *testing.T) {
	b := openBridge(t, t.TempDir(), nil)
	if _, err := b.UpsertDefinition(bg, json.RawMessage(seedDef)); err != nil {
		t.Fatal(err)
	}
	r, err := b.UpsertBinding(bg, "seed", store.ScopeWorkspace, "local:/w")
	if err != nil || r.Outcome != OutcomeCreated || r.Binding.State != store.BindingActive {
		t.Fatalf("first: %s %v", dump(r), err)
	}
	no := false
	if _, err := b.UpdateBinding(bg, r.Binding.ID, &no, nil); err != nil {
		t.Fatal(err)
	}
	r2, err := b.UpsertBinding(bg, "seed", store.ScopeWorkspace, "local:/w")
	if err != nil || r2.Outcome != OutcomeUnchanged || r2.Binding.ID != r.Binding.ID || r2.Binding.State != store.BindingDisabled {
		t.Fatalf("second: want the same disabled binding unchanged, got %s %v", dump(r2), err)
	}
	if _, err := b.UpsertBinding(bg, "missing", store.ScopeApplication, ""); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown hook: want not found, got %v", err)
	}
}
