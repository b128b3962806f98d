package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/hookside/hookside/internal/fsid"
	"github.com/hookside/hookside/internal/hook"
)

// LoaderOptions configures a Loader.
type LoaderOptions struct {
	// UserConfigPath is the user config file (<home>/config.json). "" means
	// no user config; a path that does not exist means no user hooks and no
	// diagnostic, unless UserConfigNamed. Made absolute with filepath.Abs.
	UserConfigPath string
	// UserConfigNamed: the host or the command line named UserConfigPath
	// (it is not the home's default), so a missing file is a mistake worth
	// saying: a hook.CodeConfigNotFound warning while it does not exist.
	UserConfigNamed bool
	// PluginDirs are plugin roots; each may hold hooks/hooks.json (absent =
	// no hooks, no diagnostic). A root that does not exist or is not a
	// directory is a hook.CodePluginDirNotFound warning (so is one of
	// WorkspacePluginDirs). Made absolute; duplicates are dropped.
	PluginDirs []string
	// Internal hooks run after every other source. The Loader copies the
	// slice; an empty ID becomes "internal:<Name>#<Event>[<MatcherIndex>][<HookIndex>]",
	// an empty Source.Kind becomes SourceInternal, zero limits become the
	// defaults, and Enabled=false drops the hook.
	Internal []hook.Hook
	// Dialect is the session's dialect (nil = hook.Zcode). When it has a
	// UserSettingsFile (spark, hooks-v2-handbook §1.3) the user hooks come
	// from UserSettingsPath, a file in that dialect (<userDir>/settings.json;
	// "" = none; no root switch), and UserConfigPath is read for
	// storage.dir only — its hooks do not run.
	Dialect          *hook.Dialect
	UserSettingsPath string // made absolute
	// ManagedSettingsPath is the dialect's managed settings file, read
	// like UserSettingsPath; its hooks run first (source kind user, Name
	// ManagedSourceName). "" = none.
	ManagedSettingsPath string
	// Cwd is the session's directory: the workspace files of Dialect are
	// discovered from it (DiscoverWorkspace; "" = no workspace scope).
	// ProjectConfigPath is the host's extra project config file (zcode).
	Cwd               string
	ProjectConfigPath string
	// RootOn is the root switch's environment, command-line and host
	// layers (lifecycle-hooks-and-workspace-trust §"配置格式与默认值": the
	// switch is an OR over default, user, project, environment and command
	// line); the user layer is the user config.
	RootOn bool
	// WorkspacePluginDirs are plugin roots that only the workspace scope
	// switches on (claude: project or local enabledPlugins, project- or
	// local-scope installs). Their hooks are workspace declarations, not
	// plugin hooks: Set.WorkspacePlugins, with Source.Kind
	// SourceWorkspace, RelativePath relative to WorkspaceRoot and
	// DiscoveryOrder WorkspacePluginOrder, for the trust gate
	// (lifecycle-hooks-and-workspace-trust §"插件钩子与工作区钩子").
	WorkspacePluginDirs  []string
	WorkspaceRoot        string
	WorkspacePluginOrder int
	// Memo, when set, holds the settings files the session has already
	// read while it opens (fsid.Memo): a user, managed or workspace
	// settings file whose identity at Load equals that of a reading there
	// is parsed from those bytes instead of being read again.
	Memo *fsid.Memo
}

// ManagedSourceName is Source.Name of hooks from managed settings.
const ManagedSourceName = "managed"

// Loader loads the user config and plugin hooks into a Set and reloads only
// what changed. It is safe for concurrent use.
//
// Switches (lifecycle-hooks-and-workspace-trust §"配置格式与默认值" and
// §"插件钩子与工作区钩子"):
//   - user hooks run only when the user config says hooks.enabled: true;
//     absent means off. hooks.enabled: false drops the file's hooks;
//   - a declaration with enabled: false is dropped (any source);
//   - plugin hooks run (canRunPluginHooks is true in the spec) without
//     touching the root switch: unlike the original, a plugin with hooks
//     does not switch on user hooks whose file lacks hooks.enabled: true;
//   - internal hooks always run.
//
// Limits: user hooks resolve hook → user file → defaults; plugin hooks
// resolve hook → user file hooks.* → defaults (hooks.json has no
// file-level limits).
type Loader struct {
	mu           sync.Mutex
	dialect      *hook.Dialect
	userSettings settingsSource
	managed      settingsSource
	user         fileSource
	userNamed    bool // LoaderOptions.UserConfigNamed
	plugins      []*pluginSource
	wsRoot       string
	wsOrder      int
	internal     []hook.Hook
	workspace    WorkspaceOptions // Cwd "" = none
	ws           *Workspace
	set          *Set
	version      uint64
	memo         *fsid.Memo
}

// stamp identifies one state of a file cheaply (one os.Stat): its
// internal/fsid identity, or the stat error. It is the one change detector
// of every configuration file (user, settings, plugins, workspace files).
type stamp struct {
	exists bool
	id     fsid.ID
	err    string // stat error other than "does not exist"
}

func statStamp(path string) stamp {
	fi, err := os.Stat(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return stamp{}
		}
		return stamp{err: err.Error()}
	}
	return stamp{exists: true, id: fsid.Of(fi)}
}

// stampedSource is one configuration file the Loader re-reads when its
// stat stamp changes: the user config (F = File) or the spark user
// settings (F = SettingsFile).
type stampedSource[F any] struct {
	path   string
	loaded bool
	st     stamp
	file   *F
	diags  []hook.Diagnostic
}

type (
	fileSource     = stampedSource[File]
	settingsSource = stampedSource[SettingsFile]
)

type pluginSource struct {
	dialect                       *hook.Dialect
	root, hooksPath, manifestPath string
	workspace                     bool // a WorkspacePluginDirs entry
	loaded                        bool
	rootProblem                   string // why root is not a usable directory; "" = it is
	hooksSt, manifestSt           stamp
	parsed                        parsedPlugin
}

// NewLoader returns a Loader for opts. It does no I/O.
func NewLoader(opts LoaderOptions) *Loader {
	l := &Loader{}
	if opts.UserConfigPath != "" {
		l.user.path = absPath(opts.UserConfigPath)
		l.userNamed = opts.UserConfigNamed
	}
	l.dialect = opts.Dialect
	if l.dialect == nil {
		l.dialect = hook.Zcode
	}
	if l.dialect.UserSettingsFile != "" && opts.UserSettingsPath != "" {
		l.userSettings.path = absPath(opts.UserSettingsPath)
	}
	if l.dialect.UserSettingsFile != "" && opts.ManagedSettingsPath != "" {
		l.managed.path = absPath(opts.ManagedSettingsPath)
	}
	l.memo = opts.Memo
	l.workspace = WorkspaceOptions{Dialect: l.dialect, Cwd: opts.Cwd, ProjectConfigPath: opts.ProjectConfigPath, RootOn: opts.RootOn, Memo: opts.Memo}
	seen := make(map[string]bool)
	addPlugins := func(dirs []string, workspace bool) {
		for _, d := range dirs {
			if d == "" {
				continue
			}
			root := absPath(d)
			if seen[root] {
				continue
			}
			seen[root] = true
			l.plugins = append(l.plugins, &pluginSource{
				dialect:      l.dialect.PluginRules(),
				root:         root,
				workspace:    workspace,
				hooksPath:    filepath.Join(root, filepath.FromSlash(PluginHooksFile)),
				manifestPath: filepath.Join(root, filepath.FromSlash(PluginManifestFile)),
			})
		}
	}
	addPlugins(opts.PluginDirs, false)
	addPlugins(opts.WorkspacePluginDirs, true)
	if opts.WorkspaceRoot != "" {
		l.wsRoot = absPath(opts.WorkspaceRoot)
	}
	l.wsOrder = opts.WorkspacePluginOrder
	for _, h := range opts.Internal {
		if h.Enabled != nil && !*h.Enabled {
			continue
		}
		if h.Source.Kind == "" {
			h.Source.Kind = hook.SourceInternal
		}
		if h.ID == "" {
			h.ID = hook.ID(h.Source.Kind, h.Source.Name, h.Event, h.MatcherIndex, h.HookIndex)
		}
		lim := hook.Limits{TimeoutMs: h.TimeoutMs, MaxOutputBytes: h.MaxOutputBytes}.Or(hook.Limits{})
		h.TimeoutMs, h.MaxOutputBytes = lim.TimeoutMs, lim.MaxOutputBytes
		l.internal = append(l.internal, h)
	}
	return l
}

func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return filepath.Clean(p)
}

// Load returns the current Set. It stats every source file (the user
// config; each plugin's hooks/hooks.json and .claude-plugin/plugin.json;
// the workspace candidates) and re-reads only files whose identity
// (internal/fsid: device, inode, size, times, mode) changed; the workspace
// scope is discovered again whenever any source changed, since the user
// config's limits and root switch are its inputs.
// When nothing changed it returns the same *Set as the previous call, so
// callers can key derived data by the pointer or Version. A file rewritten
// in place within one mtime tick at the same size is not noticed until its
// next change (nanosecond mtimes make this rare).
//
// Problems in files become Set.Diagnostics, never a failed load: a broken
// file contributes no hooks and the other sources still load. The error is
// therefore always nil today; it is reserved for a future source that
// cannot degrade.
func (l *Loader) Load() (*Set, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	changed := l.set == nil
	if l.user.path != "" {
		if st := statStamp(l.user.path); !l.user.loaded || st != l.user.st {
			l.loadUser(st)
			changed = true
		}
	}
	for _, src := range []*settingsSource{&l.managed, &l.userSettings} {
		if src.path == "" {
			continue
		}
		if st := statStamp(src.path); !src.loaded || st != src.st {
			l.loadSettings(src, st)
			changed = true
		}
	}
	for _, p := range l.plugins {
		hs, ms := statStamp(p.hooksPath), statStamp(p.manifestPath)
		rp := ""
		if !hs.exists && !ms.exists { // a file found in it proves the root a directory
			rp = rootProblem(p.root)
		}
		if !p.loaded || rp != p.rootProblem || hs != p.hooksSt || ms != p.manifestSt {
			p.load(rp, hs, ms)
			changed = true
		}
	}
	if l.workspace.Cwd != "" && !changed && l.ws.Changed() {
		changed = true
	}
	if !changed {
		return l.set, nil
	}
	l.version++
	l.set = l.build()
	if l.workspace.Cwd != "" {
		wo := l.workspace
		wo.UserLimits, wo.RootOn = l.set.UserLimits, wo.RootOn || l.set.RootEnabled
		l.ws = DiscoverWorkspace(wo)
		l.set.Workspace = l.ws
	}
	return l.set, nil
}

// SourcePaths lists the files Load reads outside the workspace scope: the
// user config, the managed and user settings files, and each plugin's
// hooks file and manifest. A watch on them (and on the workspace
// candidates) sees every edit the next Load picks up.
func (l *Loader) SourcePaths() []string {
	var out []string
	for _, p := range []string{l.user.path, l.managed.path, l.userSettings.path} {
		if p != "" {
			out = append(out, p)
		}
	}
	for _, p := range l.plugins {
		out = append(out, p.hooksPath, p.manifestPath)
	}
	return out
}

func (l *Loader) loadUser(st stamp) {
	loadStamped(&l.user, st, l.memo, ParseFile)
	if l.userNamed && !st.exists && st.err == "" {
		l.user.diags = append(l.user.diags, hook.Diagnostic{Code: hook.CodeConfigNotFound, Severity: hook.SeverityWarning, Source: l.user.path,
			Message: "the user config file does not exist; no user hooks load until it does"})
	}
}

func (l *Loader) loadSettings(src *settingsSource, st stamp) {
	managed := src == &l.managed
	loadStamped(src, st, l.memo, func(path string, data []byte, kind hook.SourceKind) (*SettingsFile, []hook.Diagnostic) {
		f, diags := ParseSettingsFile(l.dialect, path, data, kind)
		if managed {
			for i := range f.Hooks {
				f.Hooks[i].Source.Name = ManagedSourceName
			}
		}
		return f, diags
	})
}

// loadStamped re-reads u (stamped st) and parses it as a user file.
func loadStamped[F any](u *stampedSource[F], st stamp, memo *fsid.Memo, parse func(string, []byte, hook.SourceKind) (*F, []hook.Diagnostic)) {
	u.loaded, u.st, u.file, u.diags = true, st, nil, nil
	data, d := readStamped(u.path, st, memo, hook.CodeReadError, hook.SeverityError)
	if d != nil {
		u.diags = []hook.Diagnostic{*d}
		return
	}
	if data == nil {
		return
	}
	u.file, u.diags = parse(u.path, data, hook.SourceUser)
}

// rootProblem says why the plugin root dir cannot hold a plugin (a
// diagnostic message whose source is dir): it does not exist, is not a
// directory, or cannot be examined. "" when it is a directory.
func rootProblem(dir string) string {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "the plugin directory does not exist"
	case err != nil:
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return "the plugin directory cannot be examined: " + err.Error()
	case !fi.IsDir():
		return "the plugin directory is " + fsid.Kind(fi.Mode()) + ", not a directory"
	}
	return ""
}

func (p *pluginSource) load(rp string, hs, ms stamp) {
	p.loaded, p.rootProblem, p.hooksSt, p.manifestSt = true, rp, hs, ms
	p.parsed = parsedPlugin{}
	if rp != "" {
		p.parsed.diags = []hook.Diagnostic{{Code: hook.CodePluginDirNotFound, Severity: hook.SeverityWarning, Source: p.root,
			Message: rp + "; its hooks do not load"}}
		return
	}
	data, d := readStamped(p.hooksPath, hs, nil, hook.CodeReadError, hook.SeverityError)
	if d != nil {
		p.parsed.diags = []hook.Diagnostic{*d}
		return
	}
	manifest, md := readStamped(p.manifestPath, ms, nil, hook.CodePluginManifestInvalid, hook.SeverityWarning)
	path := p.hooksPath
	if data == nil && p.dialect.OwnPluginRules {
		path, data = manifestHooks(p.root, p.manifestPath, manifest)
	}
	if data == nil {
		return
	}
	p.parsed = parsePlugin(p.dialect, p.root, path, data, p.manifestPath, manifest)
	if md != nil {
		p.parsed.diags = append([]hook.Diagnostic{*md}, p.parsed.diags...)
	}
}

// readStamped reads path whose stat result is st — or takes memo's bytes
// of path when they were read from the file state st describes. It returns
// (nil, nil) for a missing file and a diagnostic with code/severity when
// the file cannot be used.
func readStamped(path string, st stamp, memo *fsid.Memo, code, severity string) ([]byte, *hook.Diagnostic) {
	fail := func(msg string) ([]byte, *hook.Diagnostic) {
		return nil, &hook.Diagnostic{Code: code, Severity: severity, Message: msg, Source: path}
	}
	switch {
	case st.err != "":
		return fail("cannot read: " + st.err)
	case !st.exists:
		return nil, nil
	case !st.id.Mode.IsRegular():
		return fail((&fsid.NotRegularError{Path: path, Mode: st.id.Mode}).Error())
	case st.id.Size > hook.MaxConfigFileBytes:
		return fail(fmt.Sprintf("file is %d bytes, larger than the %d-byte limit", st.id.Size, hook.MaxConfigFileBytes))
	}
	if data, ok := memo.Get(path, st.id); ok {
		return data, nil
	}
	data, err := fsid.ReadFile(path, hook.MaxConfigFileBytes) // a FIFO must not block the load
	switch {
	case errors.Is(err, fs.ErrNotExist): // removed since the stat; the next Load notices
		return nil, nil
	case err != nil:
		return fail("cannot read: " + err.Error())
	}
	return data, nil
}

// build assembles a Set from the cached parse results. Caller holds l.mu.
func (l *Loader) build() *Set {
	s := &Set{Version: l.version, UserLimits: hook.Limits{}.Or(hook.Limits{})}
	s.Diagnostics = append(s.Diagnostics, l.user.diags...)
	s.Dialect = l.dialect
	if l.dialect.UserSettingsFile != "" {
		// The user scope is the dialect's settings file: the hookside user
		// config gives storage.dir only.
		s.RootEnabled = true
		if uf := l.user.file; uf != nil {
			s.StorageDir = uf.StorageDir
		}
		for _, src := range []*settingsSource{&l.managed, &l.userSettings} {
			s.Diagnostics = append(s.Diagnostics, src.diags...)
			if sf := src.file; sf != nil {
				hooks := enabledOnly(sf.Hooks)
				s.Hooks = append(s.Hooks, hooks...)
				s.userCount += len(hooks)
				s.Inactive = append(s.Inactive, inactive(sf.Hooks, ReasonDisabled)...)
				s.Rejected = append(s.Rejected, sf.Rejected...)
			}
		}
	} else if uf := l.user.file; uf != nil {
		s.Rejected = append(s.Rejected, uf.Rejected...)
		s.Inactive = append(s.Inactive, inactive(uf.Hooks, ReasonDisabled)...)
		s.UserLimits = uf.Limits.Or(hook.Limits{})
		s.StorageDir = uf.StorageDir
		s.RootEnabled = uf.Enabled != nil && *uf.Enabled
		hooks := enabledOnly(uf.Hooks)
		switch {
		case uf.Enabled == nil:
			// Off by default (spec §"配置格式与默认值"); kept aside only
			// for WithRootEnabled.
			s.held = hooks
			s.Inactive = append(s.Inactive, inactiveAll(hooks, ReasonRootSwitchOff)...)
			if len(hooks) > 0 {
				s.Diagnostics = append(s.Diagnostics, hook.Diagnostic{
					Code:     hook.CodeHooksDisabled,
					Severity: hook.SeverityInfo,
					Message:  fmt.Sprintf("%d hook(s) are declared but do not run: hooks.enabled is not set to true (user hooks are off by default)", len(hooks)),
					Source:   uf.Path,
				})
			}
		case *uf.Enabled:
			s.Hooks = append(s.Hooks, hooks...)
			s.userCount = len(hooks)
		default:
			s.Inactive = append(s.Inactive, inactiveAll(hooks, ReasonFileDisabled)...)
		}
	}
	for _, p := range l.plugins {
		s.Diagnostics = append(s.Diagnostics, p.parsed.diags...)
		resolved := resolveHooks(p.parsed.hooks, p.parsed.own, s.UserLimits)
		s.Rejected = append(s.Rejected, p.parsed.rejects...)
		if p.workspace {
			for _, h := range resolved {
				s.WorkspacePlugins = append(s.WorkspacePlugins, l.asWorkspace(h))
			}
			continue
		}
		s.Hooks = append(s.Hooks, enabledOnly(resolved)...)
		s.Inactive = append(s.Inactive, inactive(resolved, ReasonDisabled)...)
	}
	s.Hooks = append(s.Hooks, l.internal...)
	s.index()
	return s
}

// asWorkspace relabels a workspace plugin's hook as a workspace
// declaration, as a zcode workspace file's plugins.dirs entry is: kind
// SourceWorkspace (its ID says so too), the declaring file relative to the
// workspace root, and the loader's workspace plugin discovery order. The
// plugin's name, root and data directory stay.
func (l *Loader) asWorkspace(h hook.Hook) hook.Hook {
	h.Source.Kind = hook.SourceWorkspace
	h.Source.RelativePath = filepath.ToSlash(h.Source.Path)
	if rel, err := filepath.Rel(l.wsRoot, h.Source.Path); err == nil && l.wsRoot != "" {
		h.Source.RelativePath = filepath.ToSlash(rel)
	}
	h.Source.DiscoveryOrder = l.wsOrder
	h.ID = hook.ID(hook.SourceWorkspace, h.Source.Path, h.Event, h.MatcherIndex, h.HookIndex)
	return h
}

// inactive returns the hooks whose own enabled is false, with reason.
func inactive(hooks []hook.Hook, reason string) []InactiveHook {
	var out []InactiveHook
	for _, h := range hooks {
		if h.Enabled != nil && !*h.Enabled {
			out = append(out, InactiveHook{Hook: h, Reason: reason})
		}
	}
	return out
}

// inactiveAll pairs every hook with reason.
func inactiveAll(hooks []hook.Hook, reason string) []InactiveHook {
	out := make([]InactiveHook, len(hooks))
	for i, h := range hooks {
		out[i] = InactiveHook{Hook: h, Reason: reason}
	}
	return out
}

// enabledOnly returns the hooks whose own enabled is not false.
func enabledOnly(hooks []hook.Hook) []hook.Hook {
	out := make([]hook.Hook, 0, len(hooks))
	for _, h := range hooks {
		if h.Enabled == nil || *h.Enabled {
			out = append(out, h)
		}
	}
	return out
}

// readRegular reads a small regular file (at most hook.MaxConfigFileBytes)
// without ever blocking on a FIFO or device: internal/fsid's bounded reader.
func readRegular(path string) ([]byte, error) {
	return fsid.ReadFile(path, hook.MaxConfigFileBytes)
}
