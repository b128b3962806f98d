package runner

import (
	"path/filepath"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/truststore"
	"github.com/hookside/hookside/truststore/pin"
)

// withWorkspacePlugins returns w with the declarations of the workspace
// plugins (config.Set.WorkspacePlugins: plugins only the workspace scope
// switches on) added after the settings files' ones: they are digested,
// pinned (truststore.PinRoot) and admitted exactly like the hooks of
// .claude/settings.json, and a declaration's own `enabled` is its only
// switch. w is not modified.
func withWorkspacePlugins(w *truststore.Workspace, hooks []hook.Hook) *truststore.Workspace {
	if len(hooks) == 0 {
		return w
	}
	n := *w
	n.Declarations = append(append([]truststore.Declaration{}, w.Declarations...), make([]truststore.Declaration, 0, len(hooks))...)
	n.Enabled = append([]bool{}, w.Enabled...)
	for _, h := range hooks {
		n.Declarations = append(n.Declarations, truststore.Declare(h))
		n.Enabled = append(n.Enabled, h.Enabled == nil || *h.Enabled)
	}
	n.BundleDigest = truststore.Show(&n).BundleDigest
	return &n
}

// pluginWatchPaths lists, for the admission watch, the files of the
// workspace declarations whose pins are relative to a plugin directory
// outside the workspace root (truststore.PinRoot): the declaring file and
// the scripts a grant would pin.
func pluginWatchPaths(w *truststore.Workspace) []string {
	var out []string
	for _, d := range w.Declarations {
		root := truststore.PinRoot(d.Hook, w.Root)
		if root == w.Root {
			continue
		}
		out = append(out, d.Hook.Source.Path)
		for _, rel := range pin.ScriptPaths(d.Hook, root) {
			out = append(out, filepath.Join(root, filepath.FromSlash(rel)))
		}
	}
	return out
}
