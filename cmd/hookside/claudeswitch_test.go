package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// claudeGuardEnv is a workspace whose .claude/settings.local.json holds
// local, with a Claude home whose user settings declare a PreToolUse Bash
// guard that denies; it returns the env, the flags placing a claude
// session there, the local file and the PreToolUse input file.
func claudeGuardEnv(t *testing.T, local string) (cliEnv, []string, string, string) {
	t.Helper()
	e := newCLIEnv(t)
	ch := filepath.Join(e.root, "claudehome")
	in := filepath.Join(e.root, "in.json")
	lp := filepath.Join(e.ws, ".claude", "settings.local.json")
	writeFiles(t, map[string]string{
		filepath.Join(ch, "settings.json"): `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"echo guarded >&2; exit 2"}]}]}}`,
		lp:                                 local,
		in:                                 `{"tool_name":"Bash","tool_input":{"command":"rm -rf x"}}`,
	})
	return e, []string{"--profile", "claude", "--claude-home", ch, "--cwd", e.ws}, lp, in
}

// listDiagnostics runs `hooks list --json` with args and returns the codes
// and sources of its diagnostics ("code source" each).
func listDiagnostics(t *testing.T, e cliEnv, args ...string) []string {
	t.Helper()
	code, out, errs := e.hookside(t, "", append([]string{"hooks", "list", "--json"}, args...)...)
	var l struct {
		Diagnostics []struct{ Code, Source string } `json:"diagnostics"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &l) != nil {
		t.Fatalf("hooks list --json: exit %d\n%s%s", code, out, errs)
	}
	var got []string
	for _, d := range l.Diagnostics {
		got = append(got, d.Code+" "+d.Source)
	}
	return got
}

// TestClaudeWorkspaceHooksOffKeepsGuard: with --workspace-hooks=false the
// project's settings files are not read for switches: the user's guard
// runs (exit 2, blocked) although settings.local.json says
// disableAllHooks, and no command reports that file.
func TestClaudeWorkspaceHooksOffKeepsGuard(t *testing.T) {
	e, flags, local, in := claudeGuardEnv(t, `{"disableAllHooks": true}`)
	off := append([]string{"--workspace-hooks=false"}, flags...)
	code, out, errs := e.hookside(t, "", append([]string{"hooks", "run", "--event", "PreToolUse", "--input", in}, off...)...)
	if code != 2 || strings.Contains(errs, local) {
		t.Errorf("hooks run --workspace-hooks=false: exit %d (want 2, the guard denies)\n%s%s", code, out, errs)
	}
	if got := listDiagnostics(t, e, off...); len(got) != 0 {
		t.Errorf("hooks list --workspace-hooks=false --json diagnostics %q", got)
	}
	_, out, errs = e.hookside(t, "", append([]string{"hooks", "explain", "--event", "PreToolUse", "--tool", "Bash"}, off...)...)
	if !strings.Contains(out, "1 of 1 configured hook(s) would run") || strings.Contains(errs, local) {
		t.Errorf("hooks explain --workspace-hooks=false:\n%s%s", out, errs)
	}
}
