package truststore

import (
	"path/filepath"
	"testing"

	"github.com/hookside/hookside/internal/hook"
)

// TestPinRoot: a workspace plugin's pins are relative to its directory
// when it lies outside the workspace root; everything else pins relative
// to the root.
func TestPinRoot(t *testing.T) {
	root := filepath.Join(t.TempDir(), "ws")
	outside := filepath.Join(filepath.Dir(root), "home", "plug")
	for _, c := range []struct {
		kind       hook.SourceKind
		pluginRoot string
		want       string
	}{
		{hook.SourceWorkspace, "", root},
		{hook.SourceWorkspace, filepath.Join(root, "plug"), root},
		{hook.SourceWorkspace, outside, outside},
		{hook.SourcePlugin, outside, root},
	} {
		h := hook.Hook{Source: hook.Source{Kind: c.kind, PluginRoot: c.pluginRoot}}
		if got := PinRoot(h, root); got != c.want {
			t.Errorf("PinRoot(%s, plugin %q) = %q, want %q", c.kind, c.pluginRoot, got, c.want)
		}
	}
	if got := PinRoot(hook.Hook{Source: hook.Source{Kind: hook.SourceWorkspace, PluginRoot: outside}}, ""); got != "" {
		t.Errorf("no workspace root: %q, want \"\" (pins cannot be verified)", got)
	}
}
