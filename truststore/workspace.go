package truststore

import (
	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/truststore/pin"
)

// CodePendingTrust is the diagnostic raised when workspace declarations were
// found and stripped from the executable config until trusted
// (project-config.adapter.ts:63 in the spec).
const CodePendingTrust = "config_project_hooks_pending_trust"

// Workspace is a workspace's declarations as trust sees them
// (lifecycle-hooks-and-workspace-trust §"工作区钩子为什么要信任"): each
// digested once, with whether its enabled switches let it run, and the
// bundle digest over the source files. Discovery (which files, which
// declarations) is the configuration loader's business; NewWorkspace takes
// its result as plain data.
type Workspace struct {
	Root string // the workspace root: pins are relative to it
	Cwd  string // the session directory (Site.Dir)
	// Site is where the session's hooks run: Show pins there, and the
	// session's gate admits a grant only while the pins resolved there
	// are covered by one of its sets (PinsMatch); a grant records them under this
	// site's key (SiteKeyOf).
	Site pin.Site
	// Files are the source files in discovery order (bundle digest input).
	Files []SourceFile
	// Declarations are all declarations found (including disabled ones), in
	// discovery order; Enabled[i] says whether Declarations[i] passes its
	// enabled switches.
	Declarations []Declaration
	Enabled      []bool
	// BundleDigest is Show(w).BundleDigest when the workspace was made;
	// scripts may change afterwards, so review and grant call Show again.
	BundleDigest string
}

// NewWorkspace is NewWorkspaceAt with Site{Dir: cwd}.
func NewWorkspace(root, cwd string, files []SourceFile, hooks []hook.Hook, enabled []bool) *Workspace {
	return NewWorkspaceAt(root, pin.Site{Dir: cwd}, files, hooks, enabled)
}

// NewWorkspaceAt digests hooks (Declare) and computes the bundle digest
// with the pins resolved at the Site at (at.Dir is the session
// directory, Cwd). enabled[i] goes with hooks[i]; a missing entry is false.
func NewWorkspaceAt(root string, at pin.Site, files []SourceFile, hooks []hook.Hook, enabled []bool) *Workspace {
	w := &Workspace{Root: root, Cwd: at.Dir, Site: at, Files: files,
		Declarations: make([]Declaration, len(hooks)), Enabled: make([]bool, len(hooks))}
	for i, h := range hooks {
		w.Declarations[i] = Declare(h)
		w.Enabled[i] = i < len(enabled) && enabled[i]
	}
	w.BundleDigest = Show(w).BundleDigest
	return w
}

// Executable returns the hooks that pass the enabled switches, in
// discovery order (they still need admission before each run).
func (w *Workspace) Executable() []hook.Hook {
	var out []hook.Hook
	for i, d := range w.Declarations {
		if w.Enabled[i] {
			out = append(out, d.Hook)
		}
	}
	return out
}
