package expr

import (
	"errors"
	"testing"
)

// The two mapping failures carry the handbook's messages (§5.3) and a
// stable code beside them.
func TestMappingErrorMessagesAreTheSpecs(t *testing.T) {
	env := SampleEnvelope(EventTurnFailed)
	for _, c := range []struct {
		mapping map[string]Value
		msg     string
		code    string
	}{
		{map[string]Value{"x": {Path: strp("payload.nil")}}, "映射路径越权：payload.nil [path_not_allowed; input x]", MappingReasonPathNotAllowed},
		{map[string]Value{"ws": {Path: strp("workspaces.5.id")}}, "映射字段 workspaces.5.id 在事件中不存在 [field_missing; input ws]", MappingReasonFieldMissing},
	} {
		_, err := Map(c.mapping, &env)
		var me *MappingError
		if !errors.As(err, &me) || !errors.Is(err, ErrMappingFailed) {
			t.Fatalf("%v", err)
		}
		if err.Error() != c.msg || me.Reason != c.code {
			t.Errorf("got %q (%s), want %q (%s)", err.Error(), me.Reason, c.msg, c.code)
		}
	}
}
func strp(s string) *string { return &s }
