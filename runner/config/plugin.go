package config

import (
	"os"
	"path/filepath"

	"github.com/hookside/hookside/internal/hook"
)

// Plugin file locations relative to a plugin root (Claude Code layout, spec
// §"与 Claude Code 的兼容程度": hook-sources.ts:8).
const (
	PluginHooksFile    = "hooks/hooks.json"
	PluginManifestFile = ".claude-plugin/plugin.json"
	// PluginDataDir is the plugin's data directory, relative to its root.
	// hookside keeps it inside the plugin (<root>/.data) so a plugin is one
	// self-contained directory; this package never creates it.
	PluginDataDir = ".data"
)

// ParsePluginFile parses a plugin's hooks/hooks.json (read from path; data
// is its content), the Claude Code shape:
//
//	{"description": string,
//	 "hooks": {"<Event>": [{"matcher": string,
//	   "hooks": [{"type": "command", "command": string, "args": [string],
//	     "timeout": <seconds>, "async": bool, "statusMessage": string}]}]}}
//
// timeout is in seconds (fractions allowed) and becomes TimeoutMs (rounded
// to whole milliseconds). A command hook with "args" is exec form, as in
// Claude Code: command is the executable, args its arguments, run without a
// shell (Hook.Type becomes TypeProcess, so the declaration digest covers the
// args; async keeps its meaning). Also accepted, as in hookside files: "shell",
// "maxOutputBytes", "enabled" on a hook and "parallel" on a group. Events
// other than the seven are skipped with a CodePluginUnsupportedEvent
// warning, hook types other than "command" with CodePluginUnsupportedType;
// malformed JSON gives CodeParseError and no hooks, malformed declarations
// CodeInvalidHook. It never panics.
//
// Every hook gets Source{Kind: SourcePlugin, Path: path, Name, PluginRoot:
// pluginRoot, PluginData: <pluginRoot>/.data}. Name is the "name" of
// <pluginRoot>/.claude-plugin/plugin.json when that file exists and has a
// non-empty string name (ParsePluginFile reads it from disk; a malformed one
// gives a CodePluginManifestInvalid warning), else filepath.Base(pluginRoot).
//
// Limits resolve as hook value, else the defaults; the Loader additionally
// applies the user config's hooks.timeoutMs / maxOutputBytes before the
// defaults.
func ParsePluginFile(pluginRoot, path string, data []byte) ([]hook.Hook, []hook.Diagnostic) {
	mpath := filepath.Join(pluginRoot, PluginManifestFile)
	manifest, err := readRegular(mpath)
	var mdiag []hook.Diagnostic
	if err != nil {
		manifest = nil
		if !os.IsNotExist(err) {
			mdiag = append(mdiag, hook.Diagnostic{Code: hook.CodePluginManifestInvalid, Severity: hook.SeverityWarning,
				Message: "cannot read plugin manifest: " + err.Error(), Source: mpath})
		}
	}
	pp := parsePlugin(hook.Plugin, pluginRoot, path, data, mpath, manifest)
	return resolveHooks(pp.hooks, pp.own, hook.Limits{}.Or(hook.Limits{})), append(mdiag, pp.diags...)
}

// parsedPlugin keeps each hook's own limits so the Loader can re-resolve
// against the user config without re-reading the plugin.
type parsedPlugin struct {
	hooks   []hook.Hook
	own     []hook.Limits
	diags   []hook.Diagnostic
	rejects []Rejected
}

// pluginName returns the manifest's "name" or the root's base name.
func pluginName(root, mpath string, manifest []byte) (string, []hook.Diagnostic) {
	name := filepath.Base(root)
	if manifest == nil {
		return name, nil
	}
	mp := &parser{path: mpath, data: manifest}
	t, ok := mp.tree()
	if !ok {
		for i := range mp.diags {
			mp.diags[i].Code, mp.diags[i].Severity = hook.CodePluginManifestInvalid, hook.SeverityWarning
		}
		return name, mp.diags
	}
	if n := t.get("name"); n.present() {
		if n.kind == jString && n.str != "" {
			return n.str, nil
		}
		mp.report(hook.CodePluginManifestInvalid, hook.SeverityWarning, n.off, "plugin name must be a non-empty string; using %q", name)
	}
	return name, mp.diags
}

// parsePlugin parses hooks.json data in dialect d (hook.Plugin, or the
// session dialect's PluginRules) with the manifest content already read
// (nil when absent).
func parsePlugin(d *hook.Dialect, root, path string, data []byte, mpath string, manifest []byte) parsedPlugin {
	name, diags := pluginName(root, mpath, manifest)
	p := &parser{path: path, data: data, diags: diags, src: hook.Source{
		Dialect:    d,
		Kind:       hook.SourcePlugin,
		Path:       path,
		Name:       name,
		PluginRoot: root,
		PluginData: filepath.Join(root, PluginDataDir),
	}}
	p.claudeShaped()
	return parsedPlugin{hooks: p.hooks, own: p.own, diags: p.diags, rejects: p.rejects}
}
