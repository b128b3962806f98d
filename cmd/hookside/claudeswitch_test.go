package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookside/hookside/truststore"
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

// TestClaudeListExplainReportSwitches: `hooks list` and `hooks explain`
// under --profile claude report a workspace file's disableAllHooks
// (claude_hooks_disabled_by_workspace, naming the file) and a wrongly typed
// switch (claude_setting_type at file:line:col), as session/open and
// `hooks run` do; explain names the file that keeps the guard off.
func TestClaudeListExplainReportSwitches(t *testing.T) {
	e, flags, local, _ := claudeGuardEnv(t, `{"disableAllHooks": true}`)
	want := "claude_hooks_disabled_by_workspace " + local
	if got := listDiagnostics(t, e, flags...); !strings.Contains(strings.Join(got, "\n"), want) {
		t.Errorf("hooks list --json diagnostics %q lack %q", got, want)
	}
	_, _, errs := e.hookside(t, "", append([]string{"hooks", "list"}, flags...)...)
	if !strings.Contains(errs, local+": warning:") || !strings.Contains(errs, "[claude_hooks_disabled_by_workspace]") {
		t.Errorf("hooks list stderr:\n%s", errs)
	}
	_, out, errs := e.hookside(t, "", append([]string{"hooks", "explain", "--event", "PreToolUse", "--tool", "Bash"}, flags...)...)
	if !strings.Contains(errs, "[claude_hooks_disabled_by_workspace]") ||
		!strings.Contains(out, "why not: hooks_disabled — disableAllHooks is true in "+local+", a workspace settings file") {
		t.Errorf("hooks explain:\n%s%s", out, errs)
	}

	writeFiles(t, map[string]string{local: `{"disableAllHooks": "yes"}`})
	want = "claude_setting_type " + local + ":1:2"
	if got := listDiagnostics(t, e, flags...); !strings.Contains(strings.Join(got, "\n"), want) {
		t.Errorf("hooks list --json diagnostics %q lack %q", got, want)
	}
	for _, cmd := range [][]string{{"hooks", "list"}, {"hooks", "explain", "--event", "PreToolUse", "--tool", "Bash"}} {
		_, _, errs := e.hookside(t, "", append(cmd, flags...)...)
		if !strings.Contains(errs, local+":1:2: error: disableAllHooks must be bool") {
			t.Errorf("%s stderr lacks the claude_setting_type error:\n%s", strings.Join(cmd, " "), errs)
		}
	}
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

// TestClaudeListMarksSwitchedOff: `hooks list` marks each listed hook a
// settings switch keeps from running (off=hooks_disabled, the switch and
// its file), as it marks trust states, and --json gives offReason and
// offDetail (as `hooks explain` words it); without the switch, or with
// --workspace-hooks=false (the workspace file is not read), nothing is
// marked. A user settings file's own disableAllHooks, which no warning
// reports, is marked too.
func TestClaudeListMarksSwitchedOff(t *testing.T) {
	e, flags, local, _ := claudeGuardEnv(t, `{"disableAllHooks": true}`)
	user := filepath.Join(flags[3], "settings.json") // flags[3]: the Claude home
	list := func(extra ...string) (string, []listedHook) {
		t.Helper()
		args := append(append([]string{"hooks", "list"}, flags...), extra...)
		code, out, errs := e.hookside(t, "", args...)
		if code != 0 {
			t.Fatalf("hooks list: exit %d\n%s%s", code, out, errs)
		}
		code, js, errs := e.hookside(t, "", append(args, "--json")...)
		var l struct {
			Hooks []listedHook `json:"hooks"`
		}
		if code != 0 || json.Unmarshal([]byte(js), &l) != nil || len(l.Hooks) != 1 {
			t.Fatalf("hooks list --json: exit %d\n%s%s", code, js, errs)
		}
		return out, l.Hooks
	}
	out, hooks := list()
	if want := "  off=hooks_disabled (disableAllHooks: true in " + local + ")\n"; !strings.Contains(out, "echo guarded >&2; exit 2"+want) {
		t.Errorf("hooks list does not mark the switched-off guard with %q:\n%s", want, out)
	}
	if h := hooks[0]; h.OffReason != "hooks_disabled" || !strings.Contains(h.OffDetail, "disableAllHooks is true in "+local+", a workspace settings file") {
		t.Errorf("hooks list --json: offReason %q, offDetail %q", h.OffReason, h.OffDetail)
	}

	if out, hooks := list("--workspace-hooks=false"); strings.Contains(out, "off=") || hooks[0].OffReason != "" || hooks[0].OffDetail != "" {
		t.Errorf("--workspace-hooks=false: the guard runs, yet it is marked:\n%s%+v", out, hooks[0])
	}

	writeFiles(t, map[string]string{local: `{}`})
	if out, hooks := list(); strings.Contains(out, "off=") || hooks[0].OffReason != "" {
		t.Errorf("no switch, yet marked:\n%s%+v", out, hooks[0])
	}

	writeFiles(t, map[string]string{user: `{"disableAllHooks": true, "hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"echo guarded >&2; exit 2"}]}]}}`})
	if out, hooks := list(); !strings.Contains(out, "  off=hooks_disabled (disableAllHooks: true in "+user+")") || hooks[0].OffReason != "hooks_disabled" {
		t.Errorf("the user file's own disableAllHooks is not marked:\n%s%+v", out, hooks[0])
	}
}

// TestClaudeTrustStatusMarksSwitchedOff: `hooks trust status` (and review)
// under --profile claude marks a workspace declaration that
// disableAllHooks keeps from running, with the switch and its file, in
// the text and as offReason hooks_disabled + offDetail in --json; its
// trust state is listed as ever (it can still be granted). Without the
// switch nothing is marked.
func TestClaudeTrustStatusMarksSwitchedOff(t *testing.T) {
	e, flags, local, _ := claudeGuardEnv(t, `{"disableAllHooks": true}`)
	writeFiles(t, map[string]string{filepath.Join(e.ws, ".claude", "settings.json"): `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"echo ws"}]}]}}`})
	status := func() (string, truststore.DeclarationStatus) {
		t.Helper()
		args := append([]string{"hooks", "trust", "status"}, flags...)
		code, out, errs := e.hookside(t, "", args...)
		if code != 0 {
			t.Fatalf("trust status: exit %d\n%s%s", code, out, errs)
		}
		code, js, errs := e.hookside(t, "", append(args, "--json")...)
		var st struct {
			Declarations []truststore.DeclarationStatus `json:"declarations"`
		}
		if code != 0 || json.Unmarshal([]byte(js), &st) != nil || len(st.Declarations) != 1 {
			t.Fatalf("trust status --json: exit %d\n%s%s", code, js, errs)
		}
		return out, st.Declarations[0]
	}
	out, d := status()
	want := "pending_trust (not_trusted), off (disableAllHooks is true in " + local + ", a workspace settings file"
	if !strings.Contains(out, want) || d.OffReason != "hooks_disabled" || !strings.Contains(d.OffDetail, "disableAllHooks is true in "+local) ||
		!d.Enabled || d.TrustState != truststore.PendingTrust {
		t.Errorf("switched off: text lacks %q:\n%s\njson %+v", want, out, d)
	}
	writeFiles(t, map[string]string{local: `{}`})
	if out, d := status(); strings.Contains(out, "off (") || d.OffReason != "" || d.OffDetail != "" {
		t.Errorf("no switch, yet marked:\n%s%+v", out, d)
	}
}
