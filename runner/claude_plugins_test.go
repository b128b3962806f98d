package runner

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/truststore"
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
// enabledPlugins in project settings turning on what the user left off
// makes the plugin's hooks workspace hooks (pending trust).
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
	if got := strings.Join(m.AdditionalContext, ","); got != "user,other,vetted" {
		t.Errorf("without managed settings: context %q (team@corp is on only by the project's enabledPlugins: pending trust)", got)
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

// installPlugins writes plugins (id -> install scope) into the claude home,
// each with a UserPromptSubmit hook running its hooks/ctx.sh, which prints
// the plugin's name; it returns the plugin roots by id.
func installPlugins(t *testing.T, e claudeEnv, scopes map[string]string) map[string]string {
	t.Helper()
	install, roots := map[string]any{}, map[string]string{}
	for id, scope := range scopes {
		name := strings.SplitN(id, "@", 2)[0]
		root := filepath.Join(e.claudeHome, "plugins", "cache", "corp", name, "1.0.0")
		writeJSON(t, filepath.Join(root, ".claude-plugin", "plugin.json"), map[string]any{"name": name})
		writeJSON(t, filepath.Join(root, "hooks", "hooks.json"), handlers("UserPromptSubmit", "", sh("sh ${CLAUDE_PLUGIN_ROOT}/hooks/ctx.sh")))
		if err := os.WriteFile(filepath.Join(root, "hooks", "ctx.sh"), []byte("echo "+name+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		entry := map[string]any{"scope": scope, "installPath": root, "version": "1.0.0"}
		if scope != "user" {
			entry["projectPath"] = e.cwd
		}
		install[id] = []any{entry}
		roots[id] = root
	}
	writeJSON(t, filepath.Join(e.claudeHome, "plugins", "installed_plugins.json"), map[string]any{"version": 2, "plugins": install})
	return roots
}

// TestWorkspaceEnabledPluginNeedsTrust: a hostile project's enabledPlugins
// switching on a plugin the user's settings leave off, and a plugin
// installed at project scope, are workspace hooks: skipped pending trust,
// listed for review, run after a grant, stale when the plugin's script
// changes. A user-enabled plugin runs as before, and a project file may
// switch one off.
func TestWorkspaceEnabledPluginNeedsTrust(t *testing.T) {
	e := newClaudeEnv(t)
	roots := installPlugins(t, e, map[string]string{"mine@corp": "user", "team@corp": "user", "quiet@corp": "user", "proj@corp": "project", "gone@corp": "user"})
	writeJSON(t, filepath.Join(roots["quiet@corp"], ".claude-plugin", "plugin.json"), map[string]any{"name": "quiet", "defaultEnabled": false})
	writeJSON(t, filepath.Join(e.claudeHome, "settings.json"), map[string]any{"enabledPlugins": map[string]any{"team@corp": false, "mine@corp": true}})
	writeJSON(t, filepath.Join(e.cwd, ".claude", "settings.json"), map[string]any{"enabledPlugins": map[string]any{"team@corp": true, "quiet@corp": true, "mine@corp": true}})
	writeJSON(t, filepath.Join(e.cwd, ".claude", "settings.local.json"), map[string]any{"enabledPlugins": map[string]any{"gone@corp": false}})

	writeJSON(t, e.managed, map[string]any{"enabledPlugins": map[string]any{"proj@corp": true, "team@corp": true}})
	forced := e.open(t, SessionOptions{})
	if m := runClaude(t, forced, hook.UserPromptSubmit, `{"prompt":"hi"}`); !sameSet(strings.Join(m.AdditionalContext, ","), "mine,proj,team") {
		t.Errorf("managed enabledPlugins: context %q, want the force-enabled plugins running as the user's", strings.Join(m.AdditionalContext, ","))
	}
	if err := os.Remove(e.managed); err != nil {
		t.Fatal(err)
	}

	s := e.open(t, SessionOptions{})
	m := runClaude(t, s, hook.UserPromptSubmit, `{"prompt":"hi"}`)
	if got := strings.Join(m.AdditionalContext, ","); got != "mine" {
		t.Fatalf("context %q, want only the user-enabled plugin's (gone@corp is switched off by the local file)", got)
	}
	skipped := 0
	for _, r := range m.Runs {
		if r.Source == string(hook.SourceWorkspace) && strings.HasPrefix(r.Reason, string(truststore.PendingTrust)) {
			skipped++
		}
	}
	if skipped != 3 {
		t.Errorf("%d workspace plugin hooks skipped pending trust, want 3 (team, quiet, proj): %s", skipped, claudeOutcomes(m))
	}

	st := s.WorkspaceStatus()
	if len(st.Declarations) != 3 || st.Counts[string(truststore.PendingTrust)] != 3 {
		t.Fatalf("review lists %d declarations, counts %v; want the three workspace plugins' hooks pending", len(st.Declarations), st.Counts)
	}
	sh := truststore.Show(st.Workspace)
	for i, d := range st.Declarations {
		if d.Hook.Source.PluginRoot == "" || len(sh.Pins[i].Paths()) != 1 || sh.Pins[i].Paths()[0] != "hooks/ctx.sh" {
			t.Errorf("declaration %s: plugin root %q, pins %v; want hooks/ctx.sh pinned in the plugin", d.Hook.ID, d.Hook.Source.PluginRoot, sh.Pins[i].Paths())
		}
	}

	script := filepath.Join(roots["team@corp"], "hooks", "ctx.sh")
	if w := pluginWatchPaths(st.Workspace); !slices.Contains(w, script) {
		t.Errorf("the admission watch misses the plugin's pinned script %s: %q", script, w)
	}

	x, err := s.ExplainClaude(hook.UserPromptSubmit, json.RawMessage(`{"prompt":"hi"}`))
	if err != nil {
		t.Fatal(err)
	}
	why := map[string]string{}
	for _, h := range x.Hooks {
		if h.Source.Kind == string(hook.SourceWorkspace) {
			why[h.Source.Name] = h.Reason + ": " + h.Detail
		}
	}
	for name, want := range map[string]string{
		"team":  "switched on by enabledPlugins in .claude/settings.json",
		"quiet": "switched on by enabledPlugins in .claude/settings.json",
		"proj":  "installed at project scope",
	} {
		if !strings.HasPrefix(why[name], WhyAdmission+": ") || !strings.Contains(why[name], want) || !strings.Contains(why[name], "pending_trust") {
			t.Errorf("explain %s: %q, want admission, pending_trust and %q", name, why[name], want)
		}
	}

	if err := truststore.GrantShown(s.Gate(), s.Options().WorkspaceID, sh, st.Declarations); err != nil {
		t.Fatal(err)
	}
	m = runClaude(t, s, hook.UserPromptSubmit, `{"prompt":"hi"}`)
	if got := strings.Join(m.AdditionalContext, ","); got != "team,quiet,proj,mine" && !sameSet(got, "mine,proj,quiet,team") {
		t.Fatalf("after the grant: context %q, want all four plugins", got)
	}

	if err := os.WriteFile(filepath.Join(roots["team@corp"], "hooks", "ctx.sh"), []byte("echo team; echo changed\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	m = runClaude(t, s, hook.UserPromptSubmit, `{"prompt":"hi"}`)
	if got := strings.Join(m.AdditionalContext, ","); strings.Contains(got, "team") || !strings.Contains(got, "quiet") {
		t.Errorf("after the script edit: context %q, want team@corp's hook stale and the others running", got)
	}
	stale := false
	for _, r := range m.Runs {
		stale = stale || strings.HasPrefix(r.Reason, string(truststore.StaleDigest)+": "+truststore.ReasonScriptChanged)
	}
	if !stale {
		t.Errorf("no run skipped stale_digest: script_changed: %s", claudeOutcomes(m))
	}
}

func sameSet(a, b string) bool {
	as, bs := strings.Split(a, ","), strings.Split(b, ",")
	if len(as) != len(bs) {
		return false
	}
	seen := map[string]int{}
	for _, x := range as {
		seen[x]++
	}
	for _, x := range bs {
		if seen[x]--; seen[x] < 0 {
			return false
		}
	}
	return true
}
