package v2bridge

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/hookside/hookside/v2bridge/expr"
)

// TestUpdateDefinitionThatChangesNothing: {}, a patch of the stored values,
// and one of read-only members only answer outcome unchanged and write
// nothing (revision and updatedAt kept); a real change answers updated.
func TestUpdateDefinitionThatChangesNothing(t *testing.T) {
	b := openBridge(t, t.TempDir(), nil)
	created := mkDef(t, b, seedDef, true)
	for _, patch := range []string{`{}`, `{"name":"Seed","enabled":true}`, `{"id":"seed","revision":7}`,
		`{"eventName":"turn.completed","nmae":"x"}`} {
		r, err := b.UpdateDefinition(bg, "seed", json.RawMessage(patch))
		if err != nil || r.Outcome != OutcomeUnchanged || r.Definition.Revision != 1 ||
			!r.Definition.UpdatedAt.Equal(created.UpdatedAt) || r.BindingsNeedingReview != 0 {
			t.Errorf("%s: want unchanged, revision 1, updatedAt kept, got %s %v", patch, dump(r), err)
		}
	}
	r, err := b.UpdateDefinition(bg, "seed", json.RawMessage(`{"enabled":false}`))
	if err != nil || r.Outcome != OutcomeUpdated || r.Definition.Enabled || r.Definition.Revision != 1 {
		t.Fatalf("disable: want updated, disabled, revision 1, got %s %v", dump(r), err)
	}
	r, err = b.UpdateDefinition(bg, "seed", json.RawMessage(`{"timeoutMs":1000}`))
	if err != nil || r.Outcome != OutcomeUpdated || r.Definition.Revision != 2 || r.BindingsNeedingReview != 1 {
		t.Fatalf("executing change: want updated, revision 2, 1 binding needing review, got %s %v", dump(r), err)
	}
}

// TestUpdateDefinitionOfUnknownMembersOnly: a patch none of whose members a
// definition has (besides id and the read-only ones) is -32602 on "patch", naming each member and the one it
// most likely means (or listing a definition's members), with the members
// in data.problems as unknown_member errors; nothing is written.
func TestUpdateDefinitionOfUnknownMembersOnly(t *testing.T) {
	b := openBridge(t, t.TempDir(), nil)
	created := mkDef(t, b, seedDef, false)
	for _, c := range []struct{ patch, want string }{
		{`{"nmae":"renamed","enabeld":false}`, `"enabeld" (did you mean "enabled"?), "nmae" (did you mean "name"?)`},
		{`{"zzzzzz":1}`, `"zzzzzz"; a definition has id, name, description, enabled, eventName`},
		// get's output pasted in: id and the read-only members change nothing.
		{`{"id":"seed","revision":5,"enabeld":false}`, `"enabeld" (did you mean "enabled"?)`},
	} {
		_, err := b.UpdateDefinition(bg, "seed", json.RawMessage(c.patch))
		var ie *InvalidError
		if !errors.As(err, &ie) || ie.Field != "patch" || !strings.Contains(ie.Reason, c.want) {
			t.Fatalf("%s: want an invalid patch naming %q, got %v", c.patch, c.want, err)
		}
		ps, _ := ie.Data.(map[string]any)["problems"].([]expr.Problem)
		if len(ps) == 0 {
			t.Fatalf("%s: no problems in data: %s", c.patch, dump(ie.Data))
		}
		for _, p := range ps {
			if p.Code != expr.CodeUnknownMember || p.Severity != expr.SeverityError || !strings.Contains(c.patch, `"`+p.Path+`"`) {
				t.Errorf("%s: problem %s", c.patch, dump(p))
			}
		}
	}
	got, err := b.GetDefinition(bg, "seed")
	if err != nil || !got.Definition.Enabled || got.Definition.Name != "Seed" || !got.Definition.UpdatedAt.Equal(created.UpdatedAt) {
		t.Fatalf("after the refused patches: %s %v", dump(got), err)
	}
}
