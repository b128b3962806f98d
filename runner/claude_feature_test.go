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

// hasCode reports whether diags hold code with source src ("" = any).
func hasCode(diags []hook.Diagnostic, code, src string) bool {
	return slices.ContainsFunc(diags, func(d hook.Diagnostic) bool {
		return d.Code == code && (src == "" || d.Source == src)
	})
}

// explainEntry returns the explanation of the hook whose command is cmd.
func explainEntry(t *testing.T, x Explanation, cmd string) ExplainEntry {
	t.Helper()
	for _, e := range x.Hooks {
		if e.Command == cmd {
			return e
		}
	}
	t.Fatalf("no hook %q in %+v", cmd, x.Hooks)
	return ExplainEntry{}
}

// TestClaudeWorkspaceOffIgnoresProjectSettings: without workspace hooks
// (session/open.workspaceHooks false, the CLI's --workspace-hooks=false)
// the project's .claude/settings.json and settings.local.json change
// nothing about the user's hooks: their disableAllHooks does not switch
// the user's guard off, their enabledPlugins does not switch the user's
// plugin off, and neither their warnings nor their type errors are
// reported — at open, at every run, in Hooks and in ExplainClaude. With
// workspace hooks on, the same files apply.
func TestClaudeWorkspaceOffIgnoresProjectSettings(t *testing.T) {
	e := newClaudeEnv(t)
	installPlugins(t, e, map[string]string{"mine@corp": "user"})
	writeJSON(t, filepath.Join(e.claudeHome, "settings.json"), handlers("PreToolUse", "Bash", sh("echo no >&2; exit 2")))
	writeJSON(t, filepath.Join(e.cwd, ".claude", "settings.json"), map[string]any{"enabledPlugins": map[string]any{"mine@corp": false}})
	local := filepath.Join(e.cwd, ".claude", "settings.local.json")
	writeJSON(t, local, map[string]any{"disableAllHooks": true})
	const bash = `{"tool_name":"Bash","tool_input":{"command":"rm -rf x"}}`
	open := func(feature bool) (*Session, []hook.Diagnostic) {
		t.Helper()
		s, diags := NewSession(SessionOptions{ID: "s1", Cwd: e.cwd, Profile: ProfileClaude,
			UserConfigPath: filepath.Join(e.home, "config.json"), UserDir: e.claudeHome, ManagedSettingsPath: e.managed,
			Workspace: WorkspaceOptions{Feature: feature, Home: e.home, Policy: truststore.PolicyUserDecides}})
		t.Cleanup(s.Close)
		return s, diags
	}

	s, diags := open(false)
	if hasCode(diags, hook.CodeClaudeHooksDisabledByWorkspace, "") {
		t.Errorf("open without workspace hooks reports the project's disableAllHooks: %+v", diags)
	}
	m := runClaude(t, s, hook.PreToolUse, bash)
	if !m.Blocked || m.DisabledNotice != nil {
		t.Errorf("without workspace hooks the user's guard must run: blocked %v, runs %s, notice %+v", m.Blocked, claudeOutcomes(m), m.DisabledNotice)
	}
	m = runClaude(t, s, hook.UserPromptSubmit, `{"prompt":"hi"}`)
	if got := strings.Join(m.AdditionalContext, ","); got != "mine" {
		t.Errorf("the project's enabledPlugins false switched the user's plugin off: context %q runs %s", got, claudeOutcomes(m))
	}
	if _, hd := s.Hooks(); hasCode(hd, hook.CodeClaudeHooksDisabledByWorkspace, "") {
		t.Errorf("Hooks: %+v", hd)
	}
	x, err := s.ExplainClaude(hook.PreToolUse, json.RawMessage(bash))
	if err != nil {
		t.Fatal(err)
	}
	if en := explainEntry(t, x, "echo no >&2; exit 2"); !en.WouldRun {
		t.Errorf("explain: the guard would not run: %+v", en)
	}
	if err := os.WriteFile(local, []byte(`{"disableAllHooks": "yes"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, hd := s.Hooks(); hasCode(hd, CodeClaudeSettingType, "") {
		t.Errorf("Hooks reports a project file it must not read: %+v", hd)
	}
	if _, d := open(false); hasCode(d, CodeClaudeSettingType, "") {
		t.Errorf("open reports a project file it must not read: %+v", d)
	}

	writeJSON(t, local, map[string]any{"disableAllHooks": true})
	s, diags = open(true)
	if !hasCode(diags, hook.CodeClaudeHooksDisabledByWorkspace, local) {
		t.Errorf("with workspace hooks: no %s for %s in %+v", hook.CodeClaudeHooksDisabledByWorkspace, local, diags)
	}
	m = runClaude(t, s, hook.PreToolUse, bash)
	if m.Blocked || m.DisabledNotice == nil || m.DisabledNotice.File != local {
		t.Errorf("with workspace hooks the local disableAllHooks applies: blocked %v, runs %s, notice %+v", m.Blocked, claudeOutcomes(m), m.DisabledNotice)
	}
}

// TestClaudeSwitchDiagnosticsListedAndExplained: Hooks (`hooks list`) and
// ExplainClaude (`hooks explain`) report the settings switches' diagnostics
// as session/open does — claude_hooks_disabled_by_workspace naming the
// workspace file, claude_setting_type at file:line:col — read from the
// files as they are now; the explanation of a hook disableAllHooks or
// allowManagedHooksOnly keeps off names the file that decided, and a
// plugin the managed settings force on would run, as RunClaude runs it.
func TestClaudeSwitchDiagnosticsListedAndExplained(t *testing.T) {
	e := newClaudeEnv(t)
	writeJSON(t, filepath.Join(e.claudeHome, "settings.json"), handlers("PreToolUse", "Bash", sh("exit 2")))
	local := filepath.Join(e.cwd, ".claude", "settings.local.json")
	writeJSON(t, local, map[string]any{"disableAllHooks": true})
	s := e.open(t, SessionOptions{})
	const bash = `{"tool_name":"Bash"}`

	if _, d := s.Hooks(); !hasCode(d, hook.CodeClaudeHooksDisabledByWorkspace, local) {
		t.Errorf("Hooks: no %s for %s in %+v", hook.CodeClaudeHooksDisabledByWorkspace, local, d)
	}
	x, err := s.ExplainClaude(hook.PreToolUse, json.RawMessage(bash))
	if err != nil {
		t.Fatal(err)
	}
	if !hasCode(x.Diagnostics, hook.CodeClaudeHooksDisabledByWorkspace, local) {
		t.Errorf("ExplainClaude: no %s for %s in %+v", hook.CodeClaudeHooksDisabledByWorkspace, local, x.Diagnostics)
	}
	if en := explainEntry(t, x, "exit 2"); en.WouldRun || en.Reason != WhyHooksDisabled || !strings.Contains(en.Detail, local) {
		t.Errorf("explain does not name %s: %+v", local, en)
	}

	if err := os.WriteFile(local, []byte("{\n  \"disableAllHooks\": \"yes\"\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, d := s.Hooks(); !hasCode(d, CodeClaudeSettingType, local+":2:3") || hasCode(d, hook.CodeClaudeHooksDisabledByWorkspace, "") {
		t.Errorf("Hooks after the type error: %+v", d)
	}
	x, _ = s.ExplainClaude(hook.PreToolUse, json.RawMessage(bash))
	if !hasCode(x.Diagnostics, CodeClaudeSettingType, local+":2:3") {
		t.Errorf("ExplainClaude after the type error: %+v", x.Diagnostics)
	}
	if en := explainEntry(t, x, "exit 2"); !en.WouldRun {
		t.Errorf("the ignored file still keeps the hook off: %+v", en)
	}

	// allowManagedHooksOnly with a plugin the managed settings force on.
	if err := os.Remove(local); err != nil {
		t.Fatal(err)
	}
	installPlugins(t, e, map[string]string{"vetted@corp": "user"})
	writeJSON(t, filepath.Join(e.claudeHome, "settings.json"), handlers("UserPromptSubmit", "", sh("echo user")))
	writeJSON(t, e.managed, map[string]any{"allowManagedHooksOnly": true, "enabledPlugins": map[string]any{"vetted@corp": true}})
	s = e.open(t, SessionOptions{})
	m := runClaude(t, s, hook.UserPromptSubmit, `{"prompt":"hi"}`)
	x, _ = s.ExplainClaude(hook.UserPromptSubmit, json.RawMessage(`{"prompt":"hi"}`))
	if en := explainEntry(t, x, "echo user"); en.WouldRun || !strings.Contains(en.Detail, "allowManagedHooksOnly is true in the managed settings "+e.managed) {
		t.Errorf("user hook under allowManagedHooksOnly: %+v", en)
	}
	if en := explainEntry(t, x, "sh ${CLAUDE_PLUGIN_ROOT}/hooks/ctx.sh"); !en.WouldRun || strings.Join(m.AdditionalContext, ",") != "vetted" {
		t.Errorf("force-enabled plugin: explained %+v, ran %q", en, m.AdditionalContext)
	}
}
