package v2bridge

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/hookside/hookside/v2bridge/store"
)

// TestGetBindingAndPlainConflicts: GetBinding returns the binding with its
// shadowedBy as ListBindings does, ErrNotFound for an unknown id; a
// duplicate create of a definition or binding is a *ConflictError
// (errors.Is ErrConflict) whose message has no SQLite text.
func TestGetBindingAndPlainConflicts(t *testing.T) {
	b := openBridge(t, t.TempDir(), nil)
	if _, err := b.CreateDefinition(bg, json.RawMessage(seedDef)); err != nil {
		t.Fatal(err)
	}
	app, err := b.CreateBinding(bg, "seed", store.ScopeApplication, "")
	if err != nil {
		t.Fatal(err)
	}
	sess, err := b.CreateBinding(bg, "seed", store.ScopeSession, "s1")
	if err != nil {
		t.Fatal(err)
	}
	got, err := b.GetBinding(bg, app.ID)
	if err != nil || got.ID != app.ID || len(got.ShadowedBy) != 1 || got.ShadowedBy[0] != sess.ID {
		t.Errorf("GetBinding: %s %v", dump(got), err)
	}
	if _, err := b.GetBinding(bg, "bind_none"); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown binding: %v", err)
	}
	_, err = b.CreateDefinition(bg, json.RawMessage(seedDef))
	var ce *ConflictError
	if !errors.As(err, &ce) || !errors.Is(err, ErrConflict) || err.Error() != "a definition with id seed already exists; use update or upsert" {
		t.Errorf("duplicate definition: %v", err)
	}
	_, err = b.CreateBinding(bg, "seed", store.ScopeSession, "s1")
	if !errors.As(err, &ce) || err.Error() != "a binding of hook seed at scope session s1 already exists; use update or upsert" {
		t.Errorf("duplicate binding: %v", err)
	}
	for _, s := range []string{"UNIQUE", "constraint", "store:"} {
		if strings.Contains(err.Error(), s) {
			t.Errorf("conflict carries %q: %v", s, err)
		}
	}
	if r, err := b.UpsertBinding(bg, "seed", store.ScopeSession, "s1"); err != nil || r.Outcome != OutcomeUnchanged || r.Binding.ID != sess.ID {
		t.Errorf("upsert of the bound scope: %s %v", dump(r), err)
	}
}
