package config

import (
	"strings"
	"testing"

	"github.com/hookside/hookside/internal/hook"
)

// TestDuplicateKeysWarnAtTheLaterKey: every object that names a key twice
// (file level, under hooks, inside a declaration) gets one warning at the
// later key's line:col naming the first one; the last value still wins.
func TestDuplicateKeysWarnAtTheLaterKey(t *testing.T) {
	const doc = `{
  "hooks": {
    "enabled": false,
    "enabled": true,
    "events": {
      "Stop": [{"hooks": [{"type": "command", "command": "a", "command": "b"}]}]
    }
  }
}`
	f, diags := ParseFile("c.json", []byte(doc), hook.SourceUser)
	var got []string
	for _, d := range diags {
		if d.Code == hook.CodeDuplicateKey {
			if d.Severity != hook.SeverityWarning {
				t.Errorf("severity %s, want warning", d.Severity)
			}
			got = append(got, d.Source+" "+d.Message)
		}
	}
	want := []string{
		`c.json:4:5 duplicate key "enabled" (first at line 3, column 5)`,
		`c.json:6:63 duplicate key "command" (first at line 6, column 47)`,
	}
	if len(got) != len(want) {
		t.Fatalf("diagnostics %v, want %d duplicate-key warnings", diags, len(want))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) || !strings.Contains(got[i], "the last one wins") {
			t.Errorf("diagnostic %d = %q, want prefix %q", i, got[i], want[i])
		}
	}
	if f.Enabled == nil || !*f.Enabled || len(f.Hooks) != 1 || f.Hooks[0].Command != "b" {
		t.Fatalf("the last value must win: enabled=%v hooks=%+v", f.Enabled, f.Hooks)
	}
	// Claude Code–shaped settings go through the same reader.
	_, diags = ParseSettingsFile(hook.Claude, "s.json", []byte(`{"hooks": {}, "hooks": {}}`), hook.SourceUser)
	if len(diags) != 1 || diags[0].Code != hook.CodeDuplicateKey || diags[0].Source != "s.json:1:15" {
		t.Fatalf("settings file: %+v", diags)
	}
}
