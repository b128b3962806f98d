package runner

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hookside/hookside/internal/fsid"
	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/internal/jsonexact"
	"github.com/hookside/hookside/runner/config"
)

// Claude Code's installed-plugin layout under its home
// (https://code.claude.com/docs/en/plugin-marketplaces#plugin-sources,
// #pre-populate-plugins-for-containers): plugins/installed_plugins.json
// records each installed plugin id ("name@marketplace") with its install
// entries ({scope: "user"|"project"|"local", installPath, version,
// projectPath?}; format version 2, or one entry object per id in version
// 1), and installPath is the copy in plugins/cache/<marketplace>/<plugin>/<version>/.
const claudeInstalledPlugins = "plugins/installed_plugins.json"

// Plugin diagnostic codes of the claude profile.
const (
	// CodeClaudePluginMissing: an installed plugin's installPath does not
	// exist (severity warning); its hooks do not load.
	CodeClaudePluginMissing = "claude_plugin_missing"
	// CodeClaudePluginNotInstalled: enabledPlugins turns on a plugin that
	// is not installed (severity info), as Claude Code reports it.
	CodeClaudePluginNotInstalled = "claude_plugin_not_installed"
	// CodeClaudePluginDisabled: an installed plugin is off (enabledPlugins
	// false, or defaultEnabled false with no setting); severity info.
	CodeClaudePluginDisabled = "claude_plugin_disabled"
	// CodeClaudeInstalledInvalid: installed_plugins.json cannot be read or
	// parsed (severity warning); no installed plugin loads.
	CodeClaudeInstalledInvalid = "claude_installed_plugins_invalid"
)

// claudePlugin is one plugin of a claude session: its id (the
// enabledPlugins / pluginConfigs key: "name@marketplace", or
// "name@inline" for pluginDirs), its option values (pluginConfigs
// options, else the manifest's userConfig defaults, as strings), and
// whether managed settings force-enable it.
type claudePlugin struct {
	ID, Root      string
	Options       map[string]string
	ManagedForced bool
	// Workspace is why the plugin's hooks are workspace hooks ("" = user
	// level): only the workspace scope switches it on, so the trust gate
	// admits them (see resolveClaudePlugins).
	Workspace string
}

// claudeSettings are the plugin keys of one settings file.
type claudeSettings struct {
	EnabledPlugins map[string]json.RawMessage `json:"enabledPlugins"`
	PluginConfigs  map[string]struct {
		Options map[string]json.RawMessage `json:"options"`
	} `json:"pluginConfigs"`
}

func readClaudeSettings(path string, memo *fsid.Memo) claudeSettings {
	var s claudeSettings
	if path == "" {
		return s
	}
	if data, err := memo.ReadFile(path, hook.MaxConfigFileBytes); err == nil {
		_ = jsonexact.Unmarshal(data, &s) // parse errors are the loader's to report
	}
	return s
}

// claudeSettingsFiles returns the managed, user, project and local
// settings files of a claude session whose switches and enabledPlugins
// apply ("" = none). Without workspace hooks (WorkspaceOptions.Feature
// off: a host with no trust review) the project and local files are "":
// a repository's settings never change which of the user's hooks and
// plugins run there (PROTOCOL.md §2 session/open.workspaceHooks).
func claudeSettingsFiles(opts SessionOptions, d *hook.Dialect) (managed, user, project, local string) {
	if opts.UserDir != "" {
		user = filepath.Join(opts.UserDir, d.UserSettingsFile)
	}
	managed = opts.ManagedSettingsPath
	if managed == "" {
		managed = d.ManagedSettingsPath
	}
	if len(d.WorkspaceFiles) == 2 && opts.Workspace.Feature {
		project = filepath.Join(opts.Cwd, filepath.FromSlash(d.WorkspaceFiles[0]))
		local = filepath.Join(opts.Cwd, filepath.FromSlash(d.WorkspaceFiles[1]))
	}
	return managed, user, project, local
}

// resolveClaudePlugins decides which plugins a claude session loads
// (https://code.claude.com/docs/en/settings-reference#enabledplugins,
// plugins-reference#default-enablement, #user-configuration):
//
//   - the installed plugins of <UserDir>/plugins/installed_plugins.json
//     whose entry applies here (scope user, or project/local with
//     projectPath the session cwd; local before project before user);
//   - each is on or off by enabledPlugins after precedence (managed, then
//     local, then project, then user settings), else by its manifest's
//     defaultEnabled (default true);
//   - then opts.PluginDirs (as `--plugin-dir`, id "<name>@inline"), which
//     replace an installed plugin of the same name;
//   - option values come from pluginConfigs[id].options of the managed and
//     user settings only (managed wins), else the manifest's userConfig
//     defaults.
//
// A plugin that is on only because of the workspace scope — a project- or
// local-scope install entry, or enabledPlugins true in the project or
// local settings where the managed and user settings (and defaultEnabled)
// leave it off — is a workspace plugin: the repository picked it, so its
// hooks are workspace hooks behind the trust gate (hookside's rule, not
// Claude Code's; lifecycle-hooks-and-workspace-trust §"工作区钩子为什么要信任").
// A workspace file switching a plugin off always counts.
//
// It returns the user-level plugin roots and the workspace plugin roots,
// each in load order, the plugins by root, and diagnostics. Settings are
// read once, when the session opens, through memo (fsid.Memo: the loader
// and the switches take the same readings).
func resolveClaudePlugins(opts SessionOptions, d *hook.Dialect, memo *fsid.Memo) (roots, wsRoots []string, info map[string]*claudePlugin, diags []hook.Diagnostic) {
	mp, up, pp, lp := claudeSettingsFiles(opts, d)
	managed, user, project, local := readClaudeSettings(mp, memo), readClaudeSettings(up, memo), readClaudeSettings(pp, memo), readClaudeSettings(lp, memo)
	// lookup is enabledPlugins[id] of the first of ss that sets it.
	lookup := func(id string, ss ...claudeSettings) (on, set bool, at int) {
		for i, s := range ss {
			if v, ok := s.EnabledPlugins[id]; ok {
				var b bool
				if jsonexact.Unmarshal(v, &b) == nil {
					return b, true, i
				}
			}
		}
		return false, false, -1
	}
	enabled := func(id string) (on, set, forced bool) {
		on, set, at := lookup(id, managed, local, project, user)
		return on, set, at == 0 && on
	}
	// workspaceWhy says why an enabled plugin is a workspace plugin ("" =
	// managed settings force it on, or the user settings or its default
	// turn it on at user scope).
	workspaceWhy := func(id string, e installEntry, def bool) string {
		if _, _, forced := enabled(id); forced || len(d.WorkspaceFiles) != 2 {
			return ""
		}
		if e.Scope == "project" || e.Scope == "local" {
			return fmt.Sprintf("installed at %s scope for this project", e.Scope)
		}
		if on, set, _ := lookup(id, managed, user); on || (!set && def) {
			return ""
		}
		file := d.WorkspaceFiles[0]
		if _, _, at := lookup(id, local, project); at == 0 {
			file = d.WorkspaceFiles[1]
		}
		return fmt.Sprintf("switched on by enabledPlugins in %s, which the user and managed settings do not do", file)
	}
	options := func(id, root string) map[string]string {
		out := manifestDefaults(root)
		for _, s := range []claudeSettings{user, managed} { // later wins
			for k, v := range s.PluginConfigs[id].Options {
				if str, ok := optionString(v); ok {
					out[k] = str
				}
			}
		}
		return out
	}
	info = map[string]*claudePlugin{}
	byName := map[string]string{} // plugin name -> root, installed ones
	if opts.UserDir != "" {
		ip := filepath.Join(opts.UserDir, filepath.FromSlash(claudeInstalledPlugins))
		installed, err := readInstalled(ip)
		if err != nil {
			diags = append(diags, hook.Diagnostic{Code: CodeClaudeInstalledInvalid, Severity: hook.SeverityWarning, Source: ip,
				Message: "installed plugins cannot be read: " + err.Error() + "; no installed plugin loads"})
		}
		ids := make([]string, 0, len(installed))
		for id := range installed {
			ids = append(ids, id)
		}
		sort.Strings(ids)
		for _, id := range ids {
			e, ok := applicableEntry(installed[id], opts.Cwd)
			if !ok {
				continue
			}
			root := e.InstallPath
			if !filepath.IsAbs(root) {
				root = filepath.Join(opts.UserDir, "plugins", root)
			}
			root = absDir(root)
			if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
				diags = append(diags, hook.Diagnostic{Code: CodeClaudePluginMissing, Severity: hook.SeverityWarning, Source: ip,
					Message: fmt.Sprintf("plugin %s is installed at %s, which is not a directory; its hooks do not load", id, root)})
				continue
			}
			on, set, forced := enabled(id)
			def := manifestDefaultEnabled(root)
			if !set {
				on = def
			}
			if !on {
				diags = append(diags, hook.Diagnostic{Code: CodeClaudePluginDisabled, Severity: hook.SeverityInfo, Source: ip,
					Message: fmt.Sprintf("plugin %s is disabled (enabledPlugins or its defaultEnabled); its hooks do not run", id)})
				continue
			}
			p := &claudePlugin{ID: id, Root: root, Options: options(id, root), ManagedForced: forced, Workspace: workspaceWhy(id, e, def)}
			if p.Workspace != "" {
				wsRoots = append(wsRoots, root)
			} else {
				roots = append(roots, root)
			}
			info[root] = p
			byName[strings.SplitN(id, "@", 2)[0]] = root
		}
		for _, s := range []claudeSettings{managed, local, project, user} {
			for id := range s.EnabledPlugins {
				if on, _, _ := enabled(id); on && !hasID(info, id) && installed[id] == nil {
					diags = append(diags, hook.Diagnostic{Code: CodeClaudePluginNotInstalled, Severity: hook.SeverityInfo,
						Message: fmt.Sprintf("enabledPlugins turns on %s, which is not installed", id)})
				}
			}
		}
	}
	for _, dir := range opts.PluginDirs {
		if dir == "" {
			continue
		}
		dir = absDir(dir)
		name := pluginManifestName(dir)
		if old, ok := byName[name]; ok && !info[old].ManagedForced {
			roots, wsRoots = deleteRoot(roots, old), deleteRoot(wsRoots, old)
			delete(info, old)
		}
		id := name
		if !strings.Contains(id, "@") {
			id += "@inline"
		}
		roots = append(roots, dir)
		info[dir] = &claudePlugin{ID: id, Root: dir, Options: options(id, dir)}
	}
	return roots, wsRoots, info, dedupeDiags(diags)
}

type installEntry struct {
	Scope       string `json:"scope"`
	InstallPath string `json:"installPath"`
	Version     string `json:"version"`
	ProjectPath string `json:"projectPath"`
}

// readInstalled reads installed_plugins.json: {"version": 2, "plugins":
// {id: [entry…]}} or version 1's {id: entry}. A missing file is no
// plugins and no error.
func readInstalled(path string) (map[string][]installEntry, error) {
	data, err := fsid.ReadFile(path, hook.MaxConfigFileBytes)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var f struct {
		Plugins map[string]json.RawMessage `json:"plugins"`
	}
	if err := jsonexact.Unmarshal(data, &f); err != nil {
		return nil, err
	}
	out := make(map[string][]installEntry, len(f.Plugins))
	for id, raw := range f.Plugins {
		var list []installEntry
		if jsonexact.Unmarshal(raw, &list) != nil {
			var one installEntry
			if jsonexact.Unmarshal(raw, &one) != nil {
				continue
			}
			list = []installEntry{one}
		}
		out[id] = list
	}
	return out, nil
}

// applicableEntry picks the install entry that applies in project cwd:
// local, then project (both only when projectPath is cwd), then user.
func applicableEntry(list []installEntry, cwd string) (installEntry, bool) {
	rank := func(e installEntry) int {
		switch e.Scope {
		case "local", "project":
			if e.ProjectPath == "" || !sameDir(e.ProjectPath, cwd) {
				return -1
			}
			if e.Scope == "local" {
				return 3
			}
			return 2
		case "user", "":
			return 1
		}
		return -1
	}
	best, bestRank := installEntry{}, 0
	for _, e := range list {
		if r := rank(e); r > bestRank && e.InstallPath != "" {
			best, bestRank = e, r
		}
	}
	return best, bestRank > 0
}

// pluginManifest is the part of .claude-plugin/plugin.json this file reads.
type pluginManifest struct {
	Name           string `json:"name"`
	DefaultEnabled *bool  `json:"defaultEnabled"`
	UserConfig     map[string]struct {
		Default json.RawMessage `json:"default"`
	} `json:"userConfig"`
}

func readManifest(root string) pluginManifest {
	var m pluginManifest
	if data, err := fsid.ReadFile(filepath.Join(root, filepath.FromSlash(config.PluginManifestFile)), hook.MaxConfigFileBytes); err == nil {
		_ = jsonexact.Unmarshal(data, &m)
	}
	return m
}

func pluginManifestName(root string) string {
	if m := readManifest(root); m.Name != "" {
		return m.Name
	}
	return filepath.Base(root)
}

func manifestDefaultEnabled(root string) bool {
	m := readManifest(root)
	return m.DefaultEnabled == nil || *m.DefaultEnabled
}

func manifestDefaults(root string) map[string]string {
	out := map[string]string{}
	for k, o := range readManifest(root).UserConfig {
		if s, ok := optionString(o.Default); ok {
			out[k] = s
		}
	}
	return out
}

// optionString renders an option value the way it reaches a hook: a
// string as is, a number or boolean as its JSON text, an array of strings
// as its JSON. null and absent values give false.
func optionString(v json.RawMessage) (string, bool) {
	if len(v) == 0 || string(v) == "null" {
		return "", false
	}
	var s string
	if jsonexact.Unmarshal(v, &s) == nil {
		return s, true
	}
	var x any
	if jsonexact.Unmarshal(v, &x) != nil {
		return "", false
	}
	b, _ := json.Marshal(x)
	return string(b), true
}

// absDir is dir made absolute and clean, as the loader keys plugin roots.
func absDir(dir string) string {
	if a, err := filepath.Abs(dir); err == nil {
		return a
	}
	return filepath.Clean(dir)
}

func hasID(info map[string]*claudePlugin, id string) bool {
	for _, p := range info {
		if p.ID == id {
			return true
		}
	}
	return false
}

func deleteRoot(roots []string, root string) []string {
	out := roots[:0]
	for _, r := range roots {
		if r != root {
			out = append(out, r)
		}
	}
	return out
}

func dedupeDiags(ds []hook.Diagnostic) []hook.Diagnostic {
	seen := map[string]bool{}
	out := ds[:0]
	for _, d := range ds {
		if k := d.Code + "\x00" + d.Message; !seen[k] {
			seen[k] = true
			out = append(out, d)
		}
	}
	return out
}
