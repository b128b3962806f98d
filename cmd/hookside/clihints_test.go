package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunReviewHintRepeatsFlags: the review command `hooks run` prints for
// skipped workspace hooks repeats --home, --profile, --project-config and
// --policy; pasted as printed it reviews the same store and declarations
// (the extra project file's included), and its grant line grants them.
func TestRunReviewHintRepeatsFlags(t *testing.T) {
	e, extra := trustCLIEnv(t)
	code, _, errs := e.hookside(t, "", "hooks", "run", "--event", "Stop", "--home", e.home, "--profile", "zcode",
		"--project-config", extra, "--policy", "user_decides")
	if code != 0 {
		t.Fatalf("hooks run: exit %d %s", code, errs)
	}
	var hint string
	for _, line := range strings.Split(errs, "\n") {
		if h, ok := strings.CutPrefix(line, "Review them with: "); ok {
			hint = h
		}
	}
	for _, want := range []string{"--home " + e.home, "--profile zcode", "--project-config " + extra, "--policy user_decides", "--workspace " + e.ws} {
		if !strings.Contains(hint, want) {
			t.Errorf("review hint %q lacks %q", hint, want)
		}
	}
	args := strings.Fields(hint)
	if len(args) < 4 || args[0] != "hookside" {
		t.Fatalf("review hint %q (stderr %s)", hint, errs)
	}
	code, out, errs := e.hookside(t, "", args[1:]...)
	if code != 0 || !strings.Contains(out, "echo extra") {
		t.Fatalf("pasted review: exit %d, the extra project file's declaration missing:\n%s%s", code, out, errs)
	}
	var grant string
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "--all --bundle-digest") {
			grant = strings.TrimSpace(line)
		}
	}
	if code, out, errs := e.hookside(t, "", strings.Fields(grant)[1:]...); code != 0 || strings.Count(out, "trusted ") != 3 {
		t.Fatalf("pasted grant %q: exit %d %s %s", grant, code, out, errs)
	}
	if _, _, errs := e.hookside(t, "", "hooks", "run", "--event", "Stop", "--home", e.home, "--project-config", extra); strings.Contains(errs, "Workspace Hooks skipped") {
		t.Errorf("after the grant, hooks run still skips:\n%s", errs)
	}
}

// TestBlockedWithoutReason: a block with no reason says so instead of
// printing "blocked: " and nothing.
func TestBlockedWithoutReason(t *testing.T) {
	e := newCLIEnv(t)
	in := `{"toolName":"Bash","toolInput":{"command":"ls"}}`
	e.userConfig(t, oneHook("PreToolUse", map[string]any{"type": "command", "command": "exit 2"}))
	code, out, _ := e.hookside(t, in, "hooks", "run", "--event", "PreToolUse", "--input", "-")
	if code != 2 || !strings.Contains(out, "blocked (no reason given") || strings.Contains(out, "blocked: ") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	e.userConfig(t, oneHook("PreToolUse", map[string]any{"type": "command", "command": "echo not-here >&2; exit 2"}))
	if code, out, _ := e.hookside(t, in, "hooks", "run", "--event", "PreToolUse", "--input", "-"); code != 2 || !strings.Contains(out, "blocked: not-here\n") {
		t.Errorf("with a reason: exit %d:\n%s", code, out)
	}
}

// TestListSaysRootSwitchOff: `hooks list` with hooks configured under a
// root switch that is off says so, with the file and how to switch it on;
// with nothing configured it says that.
func TestListSaysRootSwitchOff(t *testing.T) {
	e := newCLIEnv(t)
	cfg := filepath.Join(e.home, "config.json")
	if code, out, _ := e.hookside(t, "", "hooks", "list"); code != 0 || strings.TrimSpace(out) != "no hooks configured" {
		t.Errorf("nothing configured: exit %d %q", code, out)
	}
	writeFiles(t, map[string]string{cfg: `{"hooks":{"events":{"Stop":[{"hooks":[{"type":"command","command":"true"},{"type":"command","command":"echo 2"}]}]}}}`})
	code, out, _ := e.hookside(t, "", "hooks", "list")
	for _, want := range []string{"no hooks run", "2 configured hook(s) are off: the root switch is off", `add "hooks": {"enabled": true} to ` + cfg, "--hooks-enabled", "HOOKSIDE_HOOKS_ENABLED=1"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("root switch off: exit %d, lacks %q:\n%s", code, want, out)
		}
	}
	if _, out, _ := e.hookside(t, "", "hooks", "list", "--event", "PreToolUse"); strings.TrimSpace(out) != "no hooks configured" {
		t.Errorf("--event PreToolUse (no hook there): %q", out)
	}
	if _, out, _ := e.hookside(t, "", "hooks", "list", "--hooks-enabled"); strings.Contains(out, "root switch") || !strings.Contains(out, "echo 2") {
		t.Errorf("--hooks-enabled:\n%s", out)
	}
}

// TestTrustTakesCwd: `hooks trust` takes --cwd as the other hooks commands
// do; --workspace stays; two different ones are a usage error.
func TestTrustTakesCwd(t *testing.T) {
	e, _ := trustCLIEnv(t)
	other := t.TempDir()
	code, out, errs := e.hookside(t, "", "hooks", "trust", "status", "--json", "--home", e.home, "--cwd", e.ws)
	var st trustStatus
	if err := json.Unmarshal([]byte(out), &st); code != 0 || err != nil || len(st.Declarations) != 2 || st.WorkspaceID != "local:"+e.ws && !strings.HasSuffix(st.WorkspaceID, e.ws) {
		t.Fatalf("status --cwd: exit %d %+v %s", code, st, errs)
	}
	if code, _, errs := e.hookside(t, "", "hooks", "trust", "grant", "--home", e.home, "--cwd", other, "--digest", "1"); code != exitError || !strings.Contains(errs, "no declaration number 1") {
		t.Errorf("grant --cwd of an empty directory: exit %d %s", code, errs)
	}
	if code, _, errs := e.hookside(t, "", "hooks", "trust", "status", "--cwd", e.ws, "--workspace", other); code != exitUsage || !strings.Contains(errs, "is not inside the workspace") {
		t.Errorf("--cwd outside a different --workspace: exit %d %s", code, errs)
	}
	if code, _, errs := e.hookside(t, "", "hooks", "trust", "status", "--cwd", e.ws, "--workspace", e.ws, "--home", e.home); code != 0 {
		t.Errorf("--cwd and --workspace the same: exit %d %s", code, errs)
	}
}

// TestReviewRePromptsOnBadAnswer: the terminal review names a bad answer
// and asks again instead of ending; the end of input after a bad answer
// ends it with exit 2 and nothing granted.
func TestReviewRePromptsOnBadAnswer(t *testing.T) {
	e := newTrustEnv(t)
	d := e.status(t).Declarations[0].Digest
	oldTTY, oldIn := stdinIsTTY, stdinReader
	defer func() { stdinIsTTY, stdinReader = oldTTY, oldIn }()
	stdinIsTTY = func() bool { return true }

	stdinReader = strings.NewReader("9\n")
	code, out, errs := e.cli("review")
	if code != exitUsage || !strings.Contains(errs, "nothing granted") || strings.Contains(out, "trusted ") {
		t.Fatalf("bad answer then end of input: exit %d\n%s%s", code, out, errs)
	}
	if e.status(t).Counts["trusted_persistent"] != 0 {
		t.Fatal("something was granted")
	}
	stdinReader = strings.NewReader("9\nx-y\n1\n")
	code, out, errs = e.cli("review")
	if code != 0 || !strings.Contains(out, "trusted "+d) {
		t.Fatalf("bad, bad, good: exit %d\n%s%s", code, out, errs)
	}
	if n := strings.Count(errs, "try again"); n != 2 {
		t.Errorf("%d re-prompts, want 2:\n%s", n, errs)
	}
	if n := strings.Count(out, "Trust which?"); n != 3 {
		t.Errorf("asked %d times, want 3:\n%s", n, out)
	}
}

// TestExplainExitStatus: `hooks explain` exits 0 whenever it explains
// (hooks that would not run, diagnostics) and 1 on a usage error or a
// session it cannot open — as `hooks run`, whose 2 means blocked.
func TestExplainExitStatus(t *testing.T) {
	e := newCLIEnv(t)
	writeFiles(t, map[string]string{filepath.Join(e.home, "config.json"): `{"hooks":{"events":{"Stop":[{"hooks":[{"type":"command","command":"true"}]}]}}}`})
	if code, out, errs := e.hookside(t, "", "hooks", "explain", "--event", "Stop"); code != 0 || !strings.Contains(out, "root_switch_off") {
		t.Errorf("explain with the root switch off: exit %d %s %s", code, out, errs)
	}
	writeFiles(t, map[string]string{filepath.Join(e.home, "config.json"): `{"hooks": {`})
	if code, _, errs := e.hookside(t, "", "hooks", "explain", "--event", "Stop"); code != 0 || !strings.Contains(errs, "config_parse_error") {
		t.Errorf("explain of a broken config: exit %d %s", code, errs)
	}
	for _, args := range [][]string{
		{"--event", "Bogus"}, {"--event", "Stop", "--no-such-flag"}, {"--event", "Stop", "stray"},
		{"--event", "Stop", "--cwd", filepath.Join(e.root, "missing")}, {"--event", "Stop", "--profile", "nope"},
	} {
		for _, sub := range []string{"explain", "run"} {
			if code, _, errs := e.hookside(t, "", append([]string{"hooks", sub}, args...)...); code != exitError {
				t.Errorf("hooks %s %v: exit %d, want 1 (%s)", sub, args, code, strings.TrimSpace(errs))
			}
		}
	}
	if _, err := os.Stat(filepath.Join(e.root, "missing")); err == nil {
		t.Error("a missing --cwd was created")
	}
}

// TestRunSaysRootSwitchOff: `hooks run` that ran nothing because the root
// switch is off says so on stderr, with how to switch it on, as `hooks
// list` does.
func TestRunSaysRootSwitchOff(t *testing.T) {
	e := newCLIEnv(t)
	cfg := filepath.Join(e.home, "config.json")
	writeFiles(t, map[string]string{cfg: `{"hooks":{"events":{"Stop":[{"hooks":[{"type":"command","command":"true"}]}]}}}`})
	code, out, errs := e.hookside(t, "", "hooks", "run", "--event", "Stop", "--turn-id", "t1")
	if code != 0 || !strings.Contains(out, "0 hook(s) ran") {
		t.Fatalf("exit %d %q %s", code, out, errs)
	}
	for _, want := range []string{"1 configured hook(s) are off: the root switch is off", "--hooks-enabled"} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}
	if _, _, errs := e.hookside(t, "", "hooks", "run", "--event", "Stop", "--turn-id", "t1", "--hooks-enabled"); strings.Contains(errs, "root switch") {
		t.Errorf("--hooks-enabled still says the switch is off:\n%s", errs)
	}
}

// TestRunErrTextSaysInterrupted: a run stopped by SIGINT/SIGTERM (its
// context canceled) is reported as interrupted, not as Go's text.
func TestRunErrTextSaysInterrupted(t *testing.T) {
	err := fmt.Errorf("run Stop: %w", context.Canceled)
	if got := runErrText(err); strings.Contains(got, "context canceled") || !strings.Contains(got, "interrupted by a signal") {
		t.Errorf("runErrText(%v) = %q", err, got)
	}
	if got := runErrText(errors.New("bad input")); got != "bad input" {
		t.Errorf("other errors change: %q", got)
	}
}

// TestTrustDigestSyntaxIsUsage: a --digest that is none of the accepted
// forms is a usage error (exit 2); a well-formed number naming nothing is
// an error (exit 1).
func TestTrustDigestSyntaxIsUsage(t *testing.T) {
	e, _ := trustCLIEnv(t)
	if code, _, errs := e.hookside(t, "", "hooks", "trust", "grant", "--home", e.home, "--cwd", e.ws, "--digest", "zz"); code != exitUsage || !strings.Contains(errs, "want a list number") {
		t.Errorf("--digest zz: exit %d %s", code, errs)
	}
	if code, _, errs := e.hookside(t, "", "hooks", "trust", "grant", "--home", e.home, "--cwd", e.ws, "--digest", "99"); code != exitError || !strings.Contains(errs, "no declaration number 99") {
		t.Errorf("--digest 99: exit %d %s", code, errs)
	}
}
