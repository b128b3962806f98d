package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// claudePendingEnv is a workspace whose .claude/settings.json declares a
// PreToolUse Bash guard nobody trusted yet, with a separate Claude home;
// it returns the env, the Claude home and the PreToolUse input file.
func claudePendingEnv(t *testing.T) (cliEnv, string, string) {
	t.Helper()
	e := newCLIEnv(t)
	ch := filepath.Join(e.root, "claudehome")
	in := filepath.Join(e.root, "in.json")
	writeFiles(t, map[string]string{
		filepath.Join(e.ws, ".claude", "settings.json"): `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"exit 2"}]}]}}`,
		filepath.Join(ch, ".keep"):                      "",
		in:                                              `{"tool_name":"Bash","tool_input":{"command":"ls"}}`,
	})
	return e, ch, in
}

// TestClaudeRunTrustNotice: on the claude profile a PreToolUse whose
// workspace guard waits for trust carries trustNotice in `hooks run --json`
// (review command naming --profile claude), and the text run ends with the
// "Workspace Hooks skipped" trailer and a review command repeating
// --profile and --claude-home, as on the zcode profile.
func TestClaudeRunTrustNotice(t *testing.T) {
	e, ch, in := claudePendingEnv(t)
	code, out, errs := e.hookside(t, "", "hooks", "run", "--profile", "claude", "--claude-home", ch, "--event", "PreToolUse", "--input", in, "--json")
	if code != 0 {
		t.Fatalf("hooks run --json: exit %d %s", code, errs)
	}
	var m struct {
		TrustNotice *struct {
			Message       string `json:"message"`
			ReviewCommand string `json:"reviewCommand"`
			Hooks         []struct {
				TrustState string `json:"trustState"`
				Digest     string `json:"digest"`
			} `json:"hooks"`
		} `json:"trustNotice"`
	}
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if m.TrustNotice == nil || len(m.TrustNotice.Hooks) != 1 || m.TrustNotice.Hooks[0].TrustState != "pending_trust" ||
		!strings.Contains(m.TrustNotice.ReviewCommand, "--profile claude") {
		t.Fatalf("trustNotice missing or wrong: %s", out)
	}
	code, _, errs = e.hookside(t, "", "hooks", "run", "--profile", "claude", "--claude-home", ch, "--event", "PreToolUse", "--input", in)
	if code != 0 || !strings.Contains(errs, "Workspace Hooks skipped: 1 waiting for trust") || !strings.Contains(errs, m.TrustNotice.Hooks[0].Digest) {
		t.Fatalf("text run: exit %d, no trailer:\n%s", code, errs)
	}
	var hint string
	for _, line := range strings.Split(errs, "\n") {
		if h, ok := strings.CutPrefix(line, "Review them with: "); ok {
			hint = h
		}
	}
	for _, want := range []string{"--profile claude", "--claude-home " + ch, "--workspace " + e.ws} {
		if !strings.Contains(hint, want) {
			t.Errorf("review hint %q lacks %q", hint, want)
		}
	}
}

// TestPendingTrustDiagnosticHint: the config_project_hooks_pending_trust
// diagnostic's review command repeats the flags in use; run as printed it
// lists the pending declaration instead of finding none.
func TestPendingTrustDiagnosticHint(t *testing.T) {
	e, ch, in := claudePendingEnv(t)
	_, _, errs := e.hookside(t, "", "hooks", "run", "--profile", "claude", "--claude-home", ch, "--event", "PreToolUse", "--input", in)
	var cmd string
	for _, line := range strings.Split(errs, "\n") {
		if !strings.HasSuffix(line, "[config_project_hooks_pending_trust]") {
			continue
		}
		_, rest, _ := strings.Cut(line, "review them (")
		cmd, _, _ = strings.Cut(rest, ", or ")
	}
	for _, want := range []string{"--profile claude", "--claude-home " + ch} {
		if !strings.Contains(cmd, want) {
			t.Errorf("diagnostic hint %q lacks %q (stderr %s)", cmd, want, errs)
		}
	}
	args := strings.Fields(cmd)
	if len(args) < 4 || args[0] != "hookside" {
		t.Fatalf("diagnostic hint %q", cmd)
	}
	code, out, errs := e.hookside(t, "", args[1:]...)
	if code != 0 || !strings.Contains(out, "pending_trust") || strings.Contains(out+errs, "no workspace hook declarations") {
		t.Fatalf("pasted %q: exit %d\n%s%s", cmd, code, out, errs)
	}
}

// TestTrustStatusRootSwitchOffWording: a declaration kept off only by the
// root switch (no user config) is "off (root switch off: …)" with offReason
// root_switch_off, never "disabled"; one with its own enabled: false keeps
// "disabled" and offReason disabled.
func TestTrustStatusRootSwitchOffWording(t *testing.T) {
	e := newCLIEnv(t)
	writeFiles(t, map[string]string{
		filepath.Join(e.ws, "zcode.json"): `{"hooks":{"events":{"Stop":[{"hooks":[{"type":"command","command":"true"},{"type":"command","command":"echo off","enabled":false}]}]}}}`,
	})
	_, out, errs := e.hookside(t, "", "hooks", "trust", "status", "--home", e.home)
	if !strings.Contains(out, "pending_trust (not_trusted), off (root switch off:") || strings.Count(out, "disabled (enabled: false in its file)") != 1 {
		t.Errorf("status:\n%s%s", out, errs)
	}
	st := e.trustStatusJSON(t)
	if len(st.Declarations) != 2 || st.Declarations[0].Enabled || st.Declarations[0].OffReason != "root_switch_off" ||
		st.Declarations[1].OffReason != "disabled" {
		t.Errorf("status --json: %+v", st.Declarations)
	}
}

// TestExplainDroppedHookShowsGroupMatcher: a declaration dropped while
// parsing (a prompt handler the host did not declare) is explained with its
// group's matcher, not matcher=*.
func TestExplainDroppedHookShowsGroupMatcher(t *testing.T) {
	e := newCLIEnv(t)
	ch := filepath.Join(e.root, "claudehome")
	writeFiles(t, map[string]string{
		filepath.Join(ch, "settings.json"): `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"prompt","prompt":"check it"}]}]}}`,
	})
	code, out, errs := e.hookside(t, "", "hooks", "explain", "--profile", "claude", "--claude-home", ch, "--event", "PreToolUse", "--tool", "Bash")
	if code != 0 || !strings.Contains(out, "matcher=Bash") || strings.Contains(out, "matcher=*") {
		t.Fatalf("explain: exit %d\n%s%s", code, out, errs)
	}
}

// TestClaudeDisableAllHooksWrongType: a workspace settings file's
// disableAllHooks with the wrong type gets a claude_setting_type error at
// file:line:col of the key.
func TestClaudeDisableAllHooksWrongType(t *testing.T) {
	e, ch, in := claudePendingEnv(t)
	writeFiles(t, map[string]string{filepath.Join(e.ws, ".claude", "settings.json"): "{\n  \"disableAllHooks\": \"no\"\n}\n"})
	_, _, errs := e.hookside(t, "", "hooks", "run", "--profile", "claude", "--claude-home", ch, "--event", "PreToolUse", "--input", in)
	want := filepath.Join(e.ws, ".claude", "settings.json") + ":2:3: error: disableAllHooks must be bool"
	if !strings.Contains(errs, want) || !strings.Contains(errs, "[claude_setting_type]") {
		t.Fatalf("want %q in:\n%s", want, errs)
	}
}

// TestRunInputNotObjectPlainMessage: an array given to --input is refused
// in plain words, without a Go type name.
func TestRunInputNotObjectPlainMessage(t *testing.T) {
	e := newCLIEnv(t)
	in := filepath.Join(e.root, "arr.json")
	writeFiles(t, map[string]string{in: "[1]"})
	code, _, errs := e.hookside(t, "", "hooks", "run", "--event", "Stop", "--input", in)
	if code == 0 || !strings.Contains(errs, "the input must be a JSON object: got a JSON array") || strings.Contains(errs, "map[") {
		t.Fatalf("exit %d: %s", code, errs)
	}
}
