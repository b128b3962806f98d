package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookside/hookside/internal/hook"
)

func TestReadInstalledBothFormats(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "installed_plugins.json")
	for _, c := range []struct{ body, id, path string }{
		{`{"version":2,"plugins":{"a@m":[{"scope":"user","installPath":"/x/a","version":"1"}]}}`, "a@m", "/x/a"},
		{`{"version":1,"plugins":{"b@m":{"version":"1","installPath":"/x/b","isLocal":false}}}`, "b@m", "/x/b"},
	} {
		if err := os.WriteFile(p, []byte(c.body), 0o600); err != nil {
			t.Fatal(err)
		}
		got, err := readInstalled(p)
		if err != nil || len(got[c.id]) != 1 || got[c.id][0].InstallPath != c.path {
			t.Errorf("readInstalled(%s) = %+v, %v", c.body, got, err)
		}
	}
	if got, err := readInstalled(filepath.Join(dir, "none.json")); err != nil || got != nil {
		t.Errorf("missing file: %v %v", got, err)
	}
}

func TestApplicableEntry(t *testing.T) {
	list := []installEntry{
		{Scope: "user", InstallPath: "/u"},
		{Scope: "project", InstallPath: "/p", ProjectPath: "/work/a"},
		{Scope: "local", InstallPath: "/l", ProjectPath: "/work/b"},
	}
	for cwd, want := range map[string]string{"/work/a": "/p", "/work/b": "/l", "/work/c": "/u"} {
		if e, ok := applicableEntry(list, cwd); !ok || e.InstallPath != want {
			t.Errorf("cwd %s: %+v %v, want %s", cwd, e, ok, want)
		}
	}
	if _, ok := applicableEntry(list[1:2], "/work/z"); ok {
		t.Error("a project entry of another project applies")
	}
}

func TestUserConfigArgv(t *testing.T) {
	p := &claudePlugin{ID: "f@m", Options: map[string]string{"url": "https://x/$(id);", "n": "2"}}
	exec := &hook.Hook{Type: hook.TypeProcess, Command: "node"}
	got, err := userConfigArgv(exec, p, []string{"node", "--url=${user_config.url}", "${user_config.n}${user_config.none}"})
	if err != nil || got[1] != "--url=https://x/$(id);" || got[2] != "2" {
		t.Errorf("exec form: %q %v", got, err)
	}
	if _, err := userConfigArgv(&hook.Hook{Type: hook.TypeCommand, Command: "notify ${user_config.url}"}, p, nil); err == nil {
		t.Error("shell form with ${user_config.*} ran")
	}
	env := pluginOptionEnv(p)
	if len(env) != 2 || env[0] != "CLAUDE_PLUGIN_OPTION_N=2" || env[1] != "CLAUDE_PLUGIN_OPTION_URL=https://x/$(id);" {
		t.Errorf("env %q", env)
	}
}

// TestManagedForcedPluginKeepsRunning: allowManagedHooksOnly blocks user and
// plugin hooks, except those of plugins that managed settings force-enable
// (https://code.claude.com/docs/en/settings-reference#allowmanagedhooksonly);
// enabledPlugins in project settings beats the user's false.
func TestManagedForcedPluginKeepsRunning(t *testing.T) {
	e := newClaudeEnv(t)
	install := map[string]any{}
	for _, id := range []string{"vetted@corp", "other@corp", "team@corp"} {
		name := strings.SplitN(id, "@", 2)[0]
		root := filepath.Join(e.claudeHome, "plugins", "cache", "corp", name, "1.0.0")
		writeJSON(t, filepath.Join(root, ".claude-plugin", "plugin.json"), map[string]any{"name": name})
		writeJSON(t, filepath.Join(root, "hooks", "hooks.json"), handlers("SessionStart", "", sh("echo "+name)))
		install[id] = []any{map[string]any{"scope": "user", "installPath": root, "version": "1.0.0"}}
	}
	writeJSON(t, filepath.Join(e.claudeHome, "plugins", "installed_plugins.json"), map[string]any{"version": 2, "plugins": install})
	writeJSON(t, filepath.Join(e.claudeHome, "settings.json"), map[string]any{
		"enabledPlugins": map[string]any{"team@corp": false},
		"hooks":          handlers("SessionStart", "", sh("echo user"))["hooks"]})
	writeJSON(t, filepath.Join(e.cwd, ".claude", "settings.json"), map[string]any{"enabledPlugins": map[string]any{"team@corp": true}})

	s := e.open(t, SessionOptions{})
	m := runClaude(t, s, hook.SessionStart, `{"source":"startup"}`)
	if got := strings.Join(m.AdditionalContext, ","); got != "user,other,team,vetted" {
		t.Errorf("without managed settings: context %q (project enabledPlugins should beat the user's false)", got)
	}

	writeJSON(t, e.managed, map[string]any{"allowManagedHooksOnly": true, "enabledPlugins": map[string]any{"vetted@corp": true}})
	s = e.open(t, SessionOptions{})
	m = runClaude(t, s, hook.SessionStart, `{"source":"startup"}`)
	if got := strings.Join(m.AdditionalContext, ","); got != "vetted" {
		t.Errorf("allowManagedHooksOnly: context %q, want only the force-enabled plugin's", got)
	}
	if got := claudeOutcomes(m); got != "skipped(hooks_disabled) skipped(hooks_disabled) skipped(hooks_disabled) succeeded" {
		t.Errorf("outcomes %s", got)
	}
}
