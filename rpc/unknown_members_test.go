package rpc

import (
	"reflect"
	"testing"

	"github.com/hookside/hookside/v2bridge"
)

// TestUnknownMembersPaths: UnknownMembers names each member the params
// type does not define by its own path (elements by index, odd names in
// brackets) and by its log path (indexes left out), with the object's
// members; a map (payload) is not looked into.
func TestUnknownMembersPaths(t *testing.T) {
	raw := []byte(`{"eventName":"turn.completed","sesion":{},"workspaces":[{"id":"a"},{"id":"b","nmae":"n"}],"a.b":1,"payload":{"x":1}}`)
	got := UnknownMembers(reflect.TypeFor[v2bridge.EmitParams](), raw)
	want := []struct{ path, log, name string }{
		{"sesion", "sesion", "sesion"},
		{"workspaces[1].nmae", "workspaces[].nmae", "nmae"},
		{"['a.b']", "a.b", "a.b"},
	}
	if len(got) != len(want) {
		t.Fatalf("got %+v", got)
	}
	for i, w := range want {
		if got[i].Path != w.path || got[i].LogPath != w.log || got[i].Name != w.name || len(got[i].Known) == 0 {
			t.Errorf("%d: got %+v, want %+v", i, got[i], w)
		}
	}
	if k := got[1].Known; !reflect.DeepEqual(k, []string{"id", "name"}) {
		t.Errorf("workspace members: %v", k)
	}
}
