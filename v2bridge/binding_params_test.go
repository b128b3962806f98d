package v2bridge

import (
	"errors"
	"regexp"
	"testing"
)

// TestCreateBindingParamErrors: a misspelt scope kind names the one it
// most likely means; a missing scopeId says what it is; both are English.
func TestCreateBindingParamErrors(t *testing.T) {
	b := openBridge(t, t.TempDir(), nil)
	mkDef(t, b, seedDef, false)
	cjk := regexp.MustCompile(`\p{Han}`)
	for _, c := range []struct{ kind, id, field, reason string }{
		{"worksapce", "", "scopeKind", `must be application, workspace, agent or session; did you mean "workspace"?`},
		{"zzz", "", "scopeKind", `must be application, workspace, agent or session`},
		{"agent", "", "scopeId", `required for scope agent: the id of the agent the binding applies to`},
	} {
		_, err := b.CreateBinding(bg, "seed", c.kind, c.id)
		var ie *InvalidError
		if !errors.As(err, &ie) || ie.Field != c.field || ie.Reason != c.reason || cjk.MatchString(ie.Reason) {
			t.Errorf("%s: want %s %q, got %v", c.kind, c.field, c.reason, err)
		}
	}
}
