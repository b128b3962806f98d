package truststore

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookside/hookside/truststore/pin"
)

// TestDescribeJSONShape: the status JSON of a declaration follows
// docs/protocol.md: a directory is a pin of kind "dir", a glob with no
// match has the hash pin.NoMatches, and the optional arrays (scripts,
// pins, unpinned) are left out when empty, never null.
func TestDescribeJSONShape(t *testing.T) {
	cfg := `{"hooks": {"events": {"PreToolUse": [{"hooks": [
  {"type": "command", "command": "perl -I lib hooks/*.none"},
  {"type": "command", "command": "true"}]}]}}}`
	w, p := discoverOne(t, cfg, 0o644)
	writeFile(t, filepath.Join(filepath.Dir(filepath.Dir(p)), "lib", "a.pm"), "1;\n")
	w = discover(w.Root)
	evs := Evaluate(EvalInput{WorkspaceID: "w", Policy: PolicyUserDecides, Declarations: w.Declarations})
	ds := Describe(w, evs, nil)
	if len(ds) != 2 {
		t.Fatalf("%d described", len(ds))
	}
	var dir, glob bool
	for _, e := range ds[0].Pins {
		dir = dir || e.Kind == "dir" && e.Path == "lib"
		if e.Kind == "glob" {
			glob = true
			if e.SHA256 != pin.NoMatches {
				t.Errorf("empty glob pin %+v, want sha256 %s", e, pin.NoMatches)
			}
		}
	}
	if !dir || !glob {
		t.Fatalf("pins %+v, want a dir pin for lib and a glob pin", ds[0].Pins)
	}
	for i, d := range ds {
		b, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		s := string(b)
		for _, k := range []string{`"unpinned":null`, `"pins":null`, `"scripts":null`, `"unpinned":[]`, `"sites":null`} {
			if strings.Contains(s, k) {
				t.Errorf("declaration %d JSON has %s: %s", i, k, s)
			}
		}
		if i == 1 && (strings.Contains(s, `"pins"`) || strings.Contains(s, `"unpinned"`)) {
			t.Errorf("declaration without pins: %s", s)
		}
	}
}
