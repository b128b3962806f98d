package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/hookside/hookside/internal/fsid"
	"github.com/hookside/hookside/internal/hook"
)

// WorkspaceFile is one workspace configuration file as read.
type WorkspaceFile struct {
	Path           string // absolute
	RelativePath   string // relative to the workspace root, "/" separators
	DiscoveryOrder int
	Content        []byte
	// Enabled is the file's hooks.enabled as written (nil: absent, or a
	// Claude Code–shaped file, which has no file switch).
	Enabled *bool
}

// Workspace is the workspace scope of a session's configuration
// (lifecycle-hooks-and-workspace-trust §"工作区钩子为什么要信任"): the files
// found in the session's dialect and every declaration they hold, with
// their enabled switches applied. The declarations still need trust: the
// runner digests them (truststore.NewWorkspace) and admits each before it
// runs.
type Workspace struct {
	Root string // the workspace root: nearest ancestor holding .git (zcode), else the cwd
	Cwd  string
	// Files are the existing configuration files in discovery order.
	Files []WorkspaceFile
	// Hooks are all declarations found (disabled ones too), in discovery
	// order, Source.Kind SourceWorkspace with RelativePath and
	// DiscoveryOrder set. Enabled[i] says whether Hooks[i] passes the
	// switches: its file's hooks.enabled not false, its own enabled not
	// false and (zcode) the root switch on.
	Hooks       []hook.Hook
	Enabled     []bool
	Diagnostics []hook.Diagnostic
	// Rejected are the declarations the settings and zcode files hold that
	// were dropped while parsing, for `hooks explain`.
	Rejected []Rejected

	probes []probe
	direct bool // read files under the root without an os.Root (it could not be opened)
	memo   *fsid.Memo
}

// probe is what a candidate path looked like when discovery read it.
type probe struct {
	path string
	st   stamp
}

// WorkspaceOptions configure DiscoverWorkspace.
type WorkspaceOptions struct {
	Dialect *hook.Dialect // nil = hook.Zcode
	Cwd     string        // absolute session cwd
	// ProjectConfigPath is the host's extra project config file (absolute
	// or relative to Cwd; "" = none), read in the zcode dialect only.
	ProjectConfigPath string
	// UserLimits are the fallback limits of workspace declarations (the
	// user config's hooks.timeoutMs / maxOutputBytes).
	UserLimits hook.Limits
	// RootOn is the root switch as the other layers set it (user config,
	// environment, command line, host); a zcode workspace file saying
	// hooks.enabled: true turns it on too.
	RootOn bool
	// Memo, when set, gives the bytes of a workspace file already read
	// while the session opens, when the file's identity inside the root
	// (an Lstat through the os.Root) is the one they were read from
	// (fsid.Memo): the file is not read again.
	Memo *fsid.Memo
}

// DiscoverWorkspace finds the workspace configuration files of the
// dialect, reads them and parses every declaration, in one loop for every
// dialect:
//
//   - zcode: from the nearest ancestor of Cwd holding `.git` down to Cwd
//     (only Cwd without `.git`), at each level the dialect's
//     WorkspaceFiles (`zcode.json`, `.zcode/config.json`), then
//     ProjectConfigPath; a file's `plugins.dirs` entries become workspace
//     declarations too (they need trust like any other; spec/README.md).
//     Discovery orders count the files found.
//   - WorkspaceRootIsCwd dialects (spark, claude): the dialect's
//     WorkspaceFiles in Cwd, which is the root; their discovery orders are
//     their positions in the list, so one file's presence never changes
//     the other's digests. A declaration's own `enabled` is the only
//     switch.
//
// Files under the root are read through an os.Root, so a symlink leading
// outside it is refused with hook.CodeOutsideRoot; every file is read with
// the bounded non-blocking reader of internal/fsid. Problems are
// diagnostics; DiscoverWorkspace never fails.
func DiscoverWorkspace(opts WorkspaceOptions) *Workspace {
	d := opts.Dialect
	if d == nil {
		d = hook.Zcode
	}
	w := &Workspace{Cwd: opts.Cwd, Root: opts.Cwd, memo: opts.Memo}
	levels := []string{opts.Cwd}
	if !d.WorkspaceRootIsCwd {
		w.Root = findRoot(opts.Cwd)
		levels = dirLevels(w.Root, opts.Cwd)
	}
	root, err := os.OpenRoot(w.Root)
	if err == nil {
		defer root.Close()
	}
	// Without a root to read through, zcode reads its files directly and
	// the cwd-rooted dialects read none.
	w.direct = root == nil && !d.WorkspaceRootIsCwd
	rootOn := opts.RootOn
	var fileOn []bool // per hook: its file's switch
	for _, dir := range levels {
		for i, name := range d.WorkspaceFiles {
			path := filepath.Join(dir, filepath.FromSlash(name))
			data, ok := w.read(root, path, "read "+path)
			if !ok {
				continue
			}
			order := len(w.Files)
			if d.WorkspaceRootIsCwd {
				order = i
			}
			if w.add(d, root, path, order, data, opts.UserLimits, &fileOn) {
				rootOn = true
			}
		}
	}
	if p := opts.ProjectConfigPath; p != "" && !d.WorkspaceRootIsCwd {
		if !filepath.IsAbs(p) {
			p = filepath.Join(opts.Cwd, p)
		}
		p = filepath.Clean(p)
		st := statStamp(p)
		w.probes = append(w.probes, probe{path: p, st: st})
		data, err := fsid.ReadFile(p, hook.MaxConfigFileBytes)
		if err != nil {
			w.Diagnostics = append(w.Diagnostics, hook.Diagnostic{Code: hook.CodeReadError, Severity: hook.SeverityError,
				Source: p, Message: fmt.Sprintf("projectConfigPath: %v", err)})
		} else if w.add(d, root, p, len(w.Files), data, opts.UserLimits, &fileOn) {
			rootOn = true
		}
	}
	w.Enabled = make([]bool, len(w.Hooks))
	for i, h := range w.Hooks {
		w.Enabled[i] = fileOn[i] && (h.Enabled == nil || *h.Enabled) && (rootOn || d.WorkspaceRootIsCwd)
	}
	return w
}

// read reads the candidate path (through root when it lies under w.Root),
// recording its stamp. A missing file is not an error; any other problem
// is a diagnostic (what names the read in its message).
func (w *Workspace) read(root *os.Root, path, what string) ([]byte, bool) {
	w.probes = append(w.probes, probe{path: path, st: statStamp(path)})
	var data []byte
	var err error
	switch rel, in := fsid.Within(w.Root, path); {
	case !in || root == nil && w.direct:
		data, err = fsid.ReadFile(path, hook.MaxConfigFileBytes)
	case root == nil:
		return nil, false
	default:
		if fi, lerr := root.Lstat(rel); lerr == nil {
			if d, ok := w.memo.Get(path, fsid.Of(fi)); ok {
				return d, true
			}
		}
		data, err = fsid.ReadInRoot(root, rel, hook.MaxConfigFileBytes)
	}
	switch {
	case err == nil:
		return data, true
	case errors.Is(err, fs.ErrNotExist):
	case fsid.IsEscape(err):
		w.Diagnostics = append(w.Diagnostics, hook.Diagnostic{Code: hook.CodeOutsideRoot, Severity: hook.SeverityWarning,
			Source: path, Message: fmt.Sprintf("%s leads outside the workspace root %s (symlink); not read", path, w.Root)})
	case errors.As(err, new(*fsid.NotRegularError)): // its text names the file
		w.Diagnostics = append(w.Diagnostics, hook.Diagnostic{Code: hook.CodeReadError, Severity: hook.SeverityError,
			Source: path, Message: err.Error()})
	default:
		w.Diagnostics = append(w.Diagnostics, hook.Diagnostic{Code: hook.CodeReadError, Severity: hook.SeverityError,
			Source: path, Message: fmt.Sprintf("%s: %v", what, err)})
	}
	return nil, false
}

// add parses one workspace file of dialect d found at discovery order
// order and appends its declarations (and, for zcode, its plugin
// directories'). It reports whether the file says hooks.enabled: true.
func (w *Workspace) add(d *hook.Dialect, root *os.Root, path string, order int, data []byte, userLimits hook.Limits, fileOn *[]bool) bool {
	rel := relPath(w.Root, path)
	if d.ClaudeShaped {
		f, diags := ParseSettingsFile(d, path, data, hook.SourceWorkspace)
		w.Diagnostics = append(w.Diagnostics, diags...)
		w.Rejected = append(w.Rejected, f.Rejected...)
		w.Files = append(w.Files, WorkspaceFile{Path: path, RelativePath: rel, DiscoveryOrder: order, Content: data})
		w.append(f.Hooks, rel, order, true, fileOn)
		return false
	}
	f, diags := ParseFile(path, data, hook.SourceWorkspace)
	w.Diagnostics = append(w.Diagnostics, diags...)
	w.Rejected = append(w.Rejected, f.Rejected...)
	w.Files = append(w.Files, WorkspaceFile{Path: path, RelativePath: rel, DiscoveryOrder: order, Content: data, Enabled: f.Enabled})
	w.append(f.Resolve(userLimits), rel, order, f.Enabled == nil || *f.Enabled, fileOn)
	for _, pd := range f.PluginDirs {
		if !filepath.IsAbs(pd) {
			pd = filepath.Join(filepath.Dir(path), pd)
		}
		w.addPlugin(root, pd, rel, fileOn)
	}
	return f.Enabled != nil && *f.Enabled
}

func (w *Workspace) append(hooks []hook.Hook, rel string, order int, on bool, fileOn *[]bool) {
	for _, h := range hooks {
		h.Source.RelativePath, h.Source.DiscoveryOrder = rel, order
		w.Hooks = append(w.Hooks, h)
		*fileOn = append(*fileOn, on)
	}
}

// addPlugin reads a plugin directory named by the plugins.dirs of the
// workspace file from (relative to the root): its hooks/hooks.json
// declarations become workspace declarations, governed by trust and their
// own enabled only. A directory that does not exist or is not one is a
// hook.CodePluginDirNotFound warning.
func (w *Workspace) addPlugin(root *os.Root, dir, from string, fileOn *[]bool) {
	path := filepath.Join(dir, filepath.FromSlash(PluginHooksFile))
	n := len(w.Diagnostics)
	data, ok := w.read(root, path, "workspace plugin "+dir)
	if !ok {
		if rp := rootProblem(dir); rp != "" && len(w.Diagnostics) == n {
			w.Diagnostics = append(w.Diagnostics, hook.Diagnostic{Code: hook.CodePluginDirNotFound, Severity: hook.SeverityWarning, Source: dir,
				Message: rp + " (plugins.dirs of " + from + "); its hooks do not load"})
		}
		return
	}
	order := len(w.Files)
	rel := relPath(w.Root, path)
	w.Files = append(w.Files, WorkspaceFile{Path: path, RelativePath: rel, DiscoveryOrder: order, Content: data})
	hs, diags := ParsePluginFile(dir, path, data)
	w.Diagnostics = append(w.Diagnostics, diags...)
	for i := range hs {
		hs[i].Source.Kind = hook.SourceWorkspace
		hs[i].ID = hook.ID(hook.SourceWorkspace, path, hs[i].Event, hs[i].MatcherIndex, hs[i].HookIndex)
	}
	w.append(hs, rel, order, true, fileOn)
}

// Changed reports whether any candidate file appeared, disappeared or
// changed since discovery (one stat per candidate, the Loader's stamp).
func (w *Workspace) Changed() bool {
	if w == nil {
		return true
	}
	for _, p := range w.probes {
		if statStamp(p.path) != p.st {
			return true
		}
	}
	return false
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

// FileDisabled reports whether the workspace file at path says
// hooks.enabled: false.
func (w *Workspace) FileDisabled(path string) bool {
	for _, f := range w.Files {
		if f.Path == path {
			return f.Enabled != nil && !*f.Enabled
		}
	}
	return false
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

// dirLevels lists root, then each directory down to cwd.
func dirLevels(root, cwd string) []string {
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
