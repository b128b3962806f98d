package truststore

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/hookside/hookside/internal/fsid"
	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/runner/config"
)

// CodePendingTrust is the diagnostic raised when workspace declarations were
// found and stripped from the executable config until trusted
// (project-config.adapter.ts:63 in the spec).
const CodePendingTrust = "config_project_hooks_pending_trust"

// CodeOutsideRoot is the diagnostic for a workspace config file reached
// through a symlink that leaves the workspace root: it is not read.
const CodeOutsideRoot = "workspace_config_outside_root"

// WorkspaceFile is one discovered workspace configuration file.
type WorkspaceFile struct {
	Path           string // absolute
	RelativePath   string // relative to the workspace root, "/" separators
	DiscoveryOrder int
	Content        []byte
	Enabled        *bool // the file's hooks.enabled as written
}

// Workspace is the result of workspace-hook discovery
// (lifecycle-hooks-and-workspace-trust §"工作区钩子为什么要信任"): every
// declaration found, digested once, with its three enabled switches applied.
type Workspace struct {
	Root string // nearest ancestor holding .git, else the cwd
	Cwd  string
	// Files are the existing configuration files in discovery order.
	Files []WorkspaceFile
	// Declarations are all declarations found (including disabled ones), in
	// discovery order. Enabled[i] says whether Declarations[i] passes the
	// three switches: file hooks.enabled not false, declaration enabled not
	// false, and the root switch (user or any workspace file true).
	Declarations []Declaration
	Enabled      []bool
	Diagnostics  []hook.Diagnostic
	// BundleDigest is Show(w).BundleDigest at discovery; scripts may change
	// afterwards, so review and grant call Show again.
	BundleDigest string

	probes []probe
}

// probe remembers what a candidate path looked like at discovery.
type probe struct {
	path string
	id   fsid.ID
}

// DiscoverOptions configure Discover.
type DiscoverOptions struct {
	Cwd string // absolute session cwd
	// ProjectConfigPath is the host's extra project config file (absolute or
	// relative to Cwd); "" for none.
	ProjectConfigPath string
	// UserLimits are the user config's hooks.timeoutMs / maxOutputBytes, the
	// fallback of workspace declarations' limits.
	UserLimits hook.Limits
	// UserEnabled is the user config's hooks.enabled (nil = absent), one
	// input of the root switch.
	UserEnabled *bool
}

// Discover finds the workspace configuration files: from the nearest
// ancestor of Cwd holding `.git` down to Cwd, at each level `zcode.json` and
// `.zcode/config.json` (only Cwd when there is no `.git`), plus
// ProjectConfigPath; a workspace file's `plugins.dirs` entries become
// workspace declarations too (they need trust like any other; spec/README.md).
// Files are read through an os.Root at the workspace root, so a symlinked
// file or `.zcode` directory that leads outside the root is refused with a
// CodeOutsideRoot diagnostic. Problems are diagnostics; Discover never fails.
func Discover(opts DiscoverOptions) *Workspace {
	w := &Workspace{Cwd: opts.Cwd, Root: findRoot(opts.Cwd)}
	var candidates []string
	for _, dir := range levels(w.Root, opts.Cwd) {
		// hook.Zcode.WorkspaceFiles: the spec's names, so existing
		// repositories work unchanged (spec/README.md).
		for _, name := range hook.Zcode.WorkspaceFiles {
			candidates = append(candidates, filepath.Join(dir, filepath.FromSlash(name)))
		}
	}
	root, rootErr := os.OpenRoot(w.Root)
	if rootErr == nil {
		defer root.Close()
	}
	var hooks []hook.Hook
	rootOn := opts.UserEnabled != nil && *opts.UserEnabled
	var fileOn []bool // per hook: its file's switch
	add := func(path string, data []byte) {
		order := len(w.Files)
		rel := relPath(w.Root, path)
		f, diags := config.ParseFile(path, data, hook.SourceWorkspace)
		w.Diagnostics = append(w.Diagnostics, diags...)
		w.Files = append(w.Files, WorkspaceFile{Path: path, RelativePath: rel, DiscoveryOrder: order, Content: data, Enabled: f.Enabled})
		if f.Enabled != nil && *f.Enabled {
			rootOn = true
		}
		on := f.Enabled == nil || *f.Enabled
		for _, h := range f.Resolve(opts.UserLimits) {
			h.Source.RelativePath, h.Source.DiscoveryOrder = rel, order
			hooks = append(hooks, h)
			fileOn = append(fileOn, on)
		}
		for _, pd := range f.PluginDirs {
			if !filepath.IsAbs(pd) {
				pd = filepath.Join(filepath.Dir(path), pd)
			}
			w.addPlugin(root, pd, &hooks, &fileOn)
		}
	}
	for _, c := range candidates {
		data, id, err := readInRoot(root, w.Root, c)
		w.probes = append(w.probes, probe{path: c, id: id})
		switch {
		case err == nil:
			add(c, data)
		case errors.Is(err, fs.ErrNotExist):
		case fsid.IsEscape(err):
			w.Diagnostics = append(w.Diagnostics, hook.Diagnostic{Code: CodeOutsideRoot, Severity: hook.SeverityWarning,
				Source: c, Message: fmt.Sprintf("%s leads outside the workspace root %s (symlink); not read", c, w.Root)})
		default:
			w.Diagnostics = append(w.Diagnostics, hook.Diagnostic{Code: hook.CodeReadError, Severity: hook.SeverityError,
				Source: c, Message: fmt.Sprintf("read %s: %v", c, err)})
		}
	}
	if p := opts.ProjectConfigPath; p != "" {
		if !filepath.IsAbs(p) {
			p = filepath.Join(opts.Cwd, p)
		}
		p = filepath.Clean(p)
		data, id, err := readFile(p)
		w.probes = append(w.probes, probe{path: p, id: id})
		if err != nil {
			w.Diagnostics = append(w.Diagnostics, hook.Diagnostic{Code: hook.CodeReadError, Severity: hook.SeverityError,
				Source: p, Message: fmt.Sprintf("projectConfigPath: %v", err)})
		} else {
			add(p, data)
		}
	}
	w.Declarations = make([]Declaration, len(hooks))
	w.Enabled = make([]bool, len(hooks))
	for i, h := range hooks {
		w.Declarations[i] = Declare(h)
		w.Enabled[i] = rootOn && fileOn[i] && (h.Enabled == nil || *h.Enabled)
	}
	w.BundleDigest = Show(w).BundleDigest
	return w
}

// addPlugin reads a plugin directory named by a workspace file: its
// hooks/hooks.json declarations become workspace declarations.
func (w *Workspace) addPlugin(root *os.Root, dir string, hooks *[]hook.Hook, fileOn *[]bool) {
	path := filepath.Join(dir, config.PluginHooksFile)
	var data []byte
	var id fsid.ID
	var err error
	if within(w.Root, path) {
		data, id, err = readInRoot(root, w.Root, path)
	} else {
		data, id, err = readFile(path)
	}
	w.probes = append(w.probes, probe{path: path, id: id})
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			w.Diagnostics = append(w.Diagnostics, hook.Diagnostic{Code: hook.CodeReadError, Severity: hook.SeverityError,
				Source: path, Message: fmt.Sprintf("workspace plugin %s: %v", dir, err)})
		}
		return
	}
	order := len(w.Files)
	rel := relPath(w.Root, path)
	w.Files = append(w.Files, WorkspaceFile{Path: path, RelativePath: rel, DiscoveryOrder: order, Content: data})
	hs, diags := config.ParsePluginFile(dir, path, data)
	w.Diagnostics = append(w.Diagnostics, diags...)
	for _, h := range hs {
		h.Source.Kind = hook.SourceWorkspace
		h.Source.RelativePath, h.Source.DiscoveryOrder = rel, order
		h.ID = hook.ID(hook.SourceWorkspace, path, h.Event, h.MatcherIndex, h.HookIndex)
		*hooks = append(*hooks, h)
		*fileOn = append(*fileOn, true)
	}
}

// Changed reports whether any candidate file appeared, disappeared or
// changed since discovery (a stat per candidate).
func (w *Workspace) Changed() bool {
	for _, p := range w.probes {
		if statID(p.path) != p.id {
			return true
		}
	}
	return false
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

// findRoot returns the nearest ancestor of cwd (cwd included) that holds
// .git (file or directory), else cwd.
func findRoot(cwd string) string {
	for dir := cwd; ; {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return cwd
		}
		dir = parent
	}
}

// levels lists root, then each directory down to cwd.
func levels(root, cwd string) []string {
	rel, err := filepath.Rel(root, cwd)
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return []string{cwd}
	}
	out := []string{root}
	dir := root
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		dir = filepath.Join(dir, part)
		out = append(out, dir)
	}
	return out
}

func relPath(root, path string) string {
	rel, err := filepath.Rel(root, path)
	if err != nil {
		return filepath.ToSlash(path)
	}
	return filepath.ToSlash(rel)
}

func within(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// maxWorkspaceFile bounds a workspace config file (same as config).
const maxWorkspaceFile = hook.MaxConfigFileBytes

// readInRoot reads path (inside rootDir) through root, refusing symlinks
// that escape it.
func readInRoot(root *os.Root, rootDir, path string) ([]byte, fsid.ID, error) {
	if root == nil {
		return readFile(path)
	}
	rel, err := filepath.Rel(rootDir, path)
	if err != nil {
		return nil, fsid.ID{}, err
	}
	f, err := fsid.OpenInRoot(root, rel) // never block on a FIFO
	if err != nil {
		return nil, statID(path), err
	}
	defer f.Close()
	return readOpen(f)
}

func readFile(path string) ([]byte, fsid.ID, error) {
	f, err := fsid.Open(path)
	if err != nil {
		return nil, statID(path), err
	}
	defer f.Close()
	return readOpen(f)
}

func readOpen(f *os.File) ([]byte, fsid.ID, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, fsid.ID{}, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fsid.Of(fi), fmt.Errorf("not a regular file")
	}
	data, err := io.ReadAll(io.LimitReader(f, maxWorkspaceFile+1))
	if err != nil {
		return nil, fsid.Of(fi), err
	}
	if len(data) > maxWorkspaceFile {
		return nil, fsid.Of(fi), fmt.Errorf("larger than %d bytes", maxWorkspaceFile)
	}
	return data, fsid.Of(fi), nil
}

// statID is the stat identity of path (zero when it does not exist). It
// follows symlinks, so a retargeted link counts as a change.
func statID(path string) fsid.ID {
	fi, err := os.Stat(path)
	if err != nil {
		return fsid.ID{}
	}
	return fsid.Of(fi)
}

// Candidates returns every path discovery looked at (existing or not): the
// files whose appearance, edit or removal Changed reports.
func (w *Workspace) Candidates() []string {
	out := make([]string, len(w.probes))
	for i, p := range w.probes {
		out[i] = p.path
	}
	return out
}
