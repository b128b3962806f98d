package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/hookside/hookside/output"
)

// TestHooksRunShowsOutput: `hooks run` prints the stdout and stderr of a
// failed and a blocked run (redacted), not of a successful one; --json
// carries stdout/stderr per run, redacted and capped like the previews.
func TestHooksRunShowsOutput(t *testing.T) {
	e := newCLIEnv(t)
	e.userConfig(t, map[string]any{"PreToolUse": []any{map[string]any{"hooks": []any{
		map[string]any{"type": "command", "command": "echo fine-out; echo fine-err >&2"},
		map[string]any{"type": "command", "command": "echo oops-out; echo 'boom: token=abcdef123456' >&2; exit 3"},
		map[string]any{"type": "command", "command": "echo denied-here >&2; exit 2"},
	}}}})
	in := `{"toolName":"Bash","toolInput":{"command":"ls"}}`
	code, out, errs := e.hookside(t, in, "hooks", "run", "--event", "PreToolUse", "--input", "-")
	if code != 2 {
		t.Fatalf("exit %d, want 2 (blocked)\n%s%s", code, out, errs)
	}
	for _, want := range []string{"oops-out", "boom: token=[REDACTED]", "denied-here"} {
		if !strings.Contains(out, want) {
			t.Errorf("text output lacks %q:\n%s", want, out)
		}
	}
	for _, bad := range []string{"fine-out", "fine-err", "abcdef123456"} {
		if strings.Contains(out, bad) {
			t.Errorf("text output holds %q:\n%s", bad, out)
		}
	}

	code, out, errs = e.hookside(t, in, "hooks", "run", "--event", "PreToolUse", "--input", "-", "--json")
	if code != 2 {
		t.Fatalf("--json exit %d\n%s%s", code, out, errs)
	}
	var m struct {
		Runs []struct {
			Outcome, Stdout, Stderr string
		}
	}
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err, out)
	}
	if len(m.Runs) != 3 {
		t.Fatalf("runs %+v", m.Runs)
	}
	if m.Runs[0].Stdout != "fine-out\n" || m.Runs[0].Stderr != "fine-err\n" {
		t.Errorf("run 0 %+v", m.Runs[0])
	}
	if m.Runs[1].Outcome != "failed" || m.Runs[1].Stderr != "boom: token=[REDACTED]\n" {
		t.Errorf("run 1 %+v", m.Runs[1])
	}
	if m.Runs[2].Outcome != "blocked" || m.Runs[2].Stderr != "denied-here\n" {
		t.Errorf("run 2 %+v", m.Runs[2])
	}
}

// TestHooksRunCapsOutput: a long stderr is cut to output.PreviewChars
// characters with "…" in --json and in the text output.
func TestHooksRunCapsOutput(t *testing.T) {
	e := newCLIEnv(t)
	e.userConfig(t, oneHook("Stop", map[string]any{"type": "command", "command": "head -c 5000 /dev/zero | tr '\\0' x >&2; exit 1"}))
	_, out, errs := e.hookside(t, "", "hooks", "run", "--event", "Stop", "--json")
	var m struct{ Runs []struct{ Stderr string } }
	if err := json.Unmarshal([]byte(out), &m); err != nil || len(m.Runs) != 1 {
		t.Fatal(err, out, errs)
	}
	if want := strings.Repeat("x", 2000) + "…"; m.Runs[0].Stderr != want {
		t.Errorf("stderr %d chars, want 2000 + …", len([]rune(m.Runs[0].Stderr)))
	}
	_, out, _ = e.hookside(t, "", "hooks", "run", "--event", "Stop")
	if !strings.Contains(out, strings.Repeat("x", 2000)+"…") || strings.Contains(out, strings.Repeat("x", 2001)) {
		t.Errorf("text output not capped at 2000 characters:\n%.300s", out)
	}
}

// TestHooksRunModeAndEnv: --mode reaches stdin as mode and permission_mode,
// --env KEY=VAL (repeatable) the hook's environment.
func TestHooksRunModeAndEnv(t *testing.T) {
	e := newCLIEnv(t)
	e.userConfig(t, oneHook("Stop", map[string]any{"type": "command",
		"command": `cat >&2; printf '\n%s|%s' "$A_ONE" "$B_TWO" >&2; exit 1`}))
	code, out, errs := e.hookside(t, "", "hooks", "run", "--event", "Stop", "--json",
		"--mode", "plan", "--env", "A_ONE=1=x", "--env", "B_TWO=two words")
	if code != 0 {
		t.Fatalf("exit %d %s %s", code, out, errs)
	}
	var m struct{ Runs []struct{ Stderr string } }
	if err := json.Unmarshal([]byte(out), &m); err != nil || len(m.Runs) != 1 {
		t.Fatal(err, out)
	}
	cut := strings.LastIndexByte(m.Runs[0].Stderr, '\n')
	stdin, envs := m.Runs[0].Stderr[:cut], m.Runs[0].Stderr[cut+1:]
	var fields map[string]any
	if err := json.Unmarshal([]byte(stdin), &fields); err != nil {
		t.Fatal(err, stdin)
	}
	if fields["mode"] != "plan" || fields["permission_mode"] != "plan" {
		t.Errorf("stdin mode %v permission_mode %v", fields["mode"], fields["permission_mode"])
	}
	if envs != "1=x|two words" {
		t.Errorf("env %q", envs)
	}
	if code, _, errs := e.hookside(t, "", "hooks", "run", "--event", "Stop", "--env", "NOEQUALS"); code != exitError || !strings.Contains(errs, "KEY=VAL") {
		t.Errorf("--env NOEQUALS: exit %d %s", code, errs)
	}
}

// TestProcessHookMissingScript: a process hook whose script argument or
// executable does not exist gets a config-time diagnostic at its command
// (file:line:col, process_hook_not_found) and a failed run — never the
// interpreter's exit 2, which would block every tool call.
func TestProcessHookMissingScript(t *testing.T) {
	e := newCLIEnv(t)
	e.userConfig(t, map[string]any{"PreToolUse": []any{map[string]any{"hooks": []any{
		map[string]any{"type": "process", "command": "sh", "args": []string{"missing.sh"}},
		map[string]any{"type": "process", "command": "sh", "args": []string{e.userHome + "/hooks/gone.sh"}},
		map[string]any{"type": "process", "command": "no-such-hookside-executable"},
		map[string]any{"type": "process", "command": e.ws + "/bin/absent"},
	}}}})
	in := `{"toolName":"Bash","toolInput":{"command":"ls"}}`
	code, out, errs := e.hookside(t, in, "hooks", "run", "--event", "PreToolUse", "--input", "-", "--json")
	if code != 0 {
		t.Fatalf("exit %d, want 0 (not blocked)\n%s%s", code, out, errs)
	}
	if n := strings.Count(errs, "[process_hook_not_found]"); n != 4 {
		t.Errorf("%d process_hook_not_found diagnostics, want 4:\n%s", n, errs)
	}
	if !strings.Contains(errs, "config.json:1:") {
		t.Errorf("diagnostics lack file:line:col:\n%s", errs)
	}
	var m struct {
		Blocked bool
		Runs    []struct {
			Outcome, Error string
			ExitCode       *int
		}
	}
	if err := json.Unmarshal([]byte(out), &m); err != nil || len(m.Runs) != 4 {
		t.Fatal(err, out)
	}
	wants := []string{"script " + e.ws + "/missing.sh does not exist", "gone.sh does not exist", `"no-such-hookside-executable" is not in PATH`, "absent does not exist"}
	for i, r := range m.Runs {
		if r.Outcome != "failed" || r.ExitCode != nil || !strings.Contains(r.Error, wants[i]) {
			t.Errorf("run %d: %+v, want failed with %q", i, r, wants[i])
		}
	}
	if m.Blocked {
		t.Error("blocked")
	}
	_, _, errs = e.hookside(t, "", "hooks", "list")
	if n := strings.Count(errs, "[process_hook_not_found]"); n != 4 {
		t.Errorf("hooks list: %d diagnostics, want 4:\n%s", n, errs)
	}
}

// guardEnv is a CLI env whose PreToolUse runs the command hook guard in
// the user config and, for --profile claude, in the Claude home ch's
// settings.json (matcher "*"); in is a Bash PreToolUse input file.
func guardEnv(t *testing.T, guard string) (e cliEnv, ch, in string) {
	t.Helper()
	e = newCLIEnv(t)
	e.userConfig(t, oneHook("PreToolUse", map[string]any{"type": "command", "command": guard}))
	ch = filepath.Join(e.root, "claudehome")
	in = filepath.Join(e.root, "in.json")
	writeFiles(t, map[string]string{
		filepath.Join(ch, "settings.json"): `{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":` + strconv.Quote(guard) + `}]}]}}`,
		in:                                 `{"tool_name":"Bash","tool_input":{"command":"ls"}}`,
	})
	return e, ch, in
}

// TestHooksRunRedactsReasons: the text output of `hooks run` redacts what
// hooks said — the block reason (the decision's, said once) above the
// redacted stderr preview — on the zcode and claude profiles; --json keeps the reasons as
// the host gets them (they are what the model is told) and redacts only
// the stdout and stderr previews, on both profiles.
func TestHooksRunRedactsReasons(t *testing.T) {
	const secrets = "password=hunter22 sk-abcdefghijklmnop1234 ghp_abcdefghijklmnopqrstuvwxyz0123"
	const redacted = "password=[REDACTED] [REDACTED] [REDACTED]"
	guard := "echo out-api_key=xyz12345; echo '" + secrets + "' >&2; exit 2"
	e, ch, in := guardEnv(t, guard)
	for _, profile := range [][]string{{"--profile", "zcode"}, {"--profile", "claude", "--claude-home", ch}} {
		args := append([]string{"hooks", "run", "--event", "PreToolUse", "--input", in}, profile...)
		code, out, errs := e.hookside(t, "", args...)
		if code != 2 {
			t.Fatalf("%v: exit %d, want 2\n%s%s", profile, code, out, errs)
		}
		if strings.Contains(out, "hunter22") || strings.Contains(out, "sk-abcdef") || strings.Contains(out, "ghp_") || strings.Contains(out, "xyz12345") {
			t.Errorf("%v: text output shows a secret:\n%s", profile, out)
		}
		for _, want := range []string{"deny\nblocked: " + redacted + "\n", "exit 2", "stderr:\n        " + redacted, "out-api_key=[REDACTED]"} {
			if !strings.Contains(out, want) {
				t.Errorf("%v: text output lacks %q:\n%s", profile, want, out)
			}
		}

		code, out, errs = e.hookside(t, "", append(args, "--json")...)
		if code != 2 {
			t.Fatalf("%v --json: exit %d\n%s%s", profile, code, out, errs)
		}
		var m struct {
			DecisionReason           string `json:"decisionReason"`
			PermissionDecisionReason string `json:"permissionDecisionReason"`
			BlockReason              string `json:"blockReason"`
			Runs                     []struct {
				Outcome string `json:"outcome"`
				Stdout  string `json:"stdout"`
				Stderr  string `json:"stderr"`
			} `json:"runs"`
		}
		if err := json.Unmarshal([]byte(out), &m); err != nil {
			t.Fatalf("%v: %v\n%s", profile, err, out)
		}
		if m.BlockReason != secrets || m.DecisionReason+m.PermissionDecisionReason != secrets {
			t.Errorf("%v: --json reasons %q / %q, want the hook's own %q", profile, m.DecisionReason+m.PermissionDecisionReason, m.BlockReason, secrets)
		}
		if len(m.Runs) != 1 || m.Runs[0].Outcome != "blocked" || m.Runs[0].Stdout != "out-api_key=[REDACTED]\n" || m.Runs[0].Stderr != redacted+"\n" {
			t.Errorf("%v: --json runs %+v, want one blocked run with redacted stdout and stderr", profile, m.Runs)
		}
	}
}

// TestRunInputJSONErrorPosition: a --input that is not JSON, not an
// object, or names a member twice in one object (hooks/run refuses it),
// is named with the line and column of the problem (of the file,
// or <stdin> for -), and nothing runs. A repeated member is named where
// it repeats (its second occurrence in the object that repeats it), not
// where the name first appears.
func TestRunInputJSONErrorPosition(t *testing.T) {
	e := newCLIEnv(t)
	in := filepath.Join(e.root, "bad.json")
	writeFiles(t, map[string]string{in: "{\n  \"tool_name\": \"Bash\",\n  \"x\": ,\n}"})
	code, _, errs := e.hookside(t, "", "hooks", "run", "--event", "PreToolUse", "--input", in)
	if want := in + ":3:8: invalid JSON: invalid character ','"; code != 1 || !strings.Contains(errs, want) {
		t.Errorf("exit %d, stderr %q, want exit 1 and %q", code, errs, want)
	}
	dup := filepath.Join(e.root, "dup.json")
	writeFiles(t, map[string]string{dup: "{\n  \"tool_name\": \"Bash\",\n  \"tool_input\": {\"command\": \"ls\"},\n  \"tool_name\": \"Write\"\n}\n"})
	code, _, errs = e.hookside(t, "", "hooks", "run", "--event", "PreToolUse", "--input", dup)
	if want := dup + `:4:3: duplicate member "tool_name"`; code != 1 || !strings.Contains(errs, want) {
		t.Errorf("exit %d, stderr %q, want exit 1 and %q", code, errs, want)
	}
	for stdin, want := range map[string]string{
		`{"a": tru}`: "<stdin>:1:10: invalid JSON: invalid character '}' in literal true",
		"\n  [1]":    "<stdin>:2:3: the input must be a JSON object: got a JSON array",
		" null":      "<stdin>:1:2: the input must be a JSON object: got null",
		`{"toolInput":{"command":"ls","command":"rm -r x"}}`: `<stdin>:1:30: duplicate member "toolInput.command": this name appears twice`,
		`{"toolInput":{"a":1,"a":2}}`:                        `<stdin>:1:21: duplicate member "toolInput.a": this name appears twice`,
		`{"x":{"a":1},"a":2,"a":3}`:                          `<stdin>:1:20: duplicate member "a": this name appears twice`,
		`{"a.b":1,"a":{"b":1,"b":2}}`:                        `<stdin>:1:21: duplicate member "a.b": this name appears twice`,
		"{\n  \"a\": 1,\n  \"\\u0061\": 2\n}":                `<stdin>:3:3: duplicate member "a": this name appears twice`,
		`{"a":1,}`:                                           "<stdin>:1:7: invalid JSON: a trailing comma before '}'",
	} {
		code, _, errs := e.hookside(t, stdin, "hooks", "run", "--event", "PreToolUse", "--input", "-")
		if code != 1 || !strings.Contains(errs, want) {
			t.Errorf("stdin %q: exit %d, stderr %q, want exit 1 and %q", stdin, code, errs, want)
		}
	}
}

// TestHooksRunWaitsForAsyncHooks: an async hook that `hooks run` starts in
// the background runs to its end before the command exits (closing the
// session would stop it), and the command says it waits.
func TestHooksRunWaitsForAsyncHooks(t *testing.T) {
	e := newCLIEnv(t)
	marker := filepath.Join(t.TempDir(), "later")
	e.userConfig(t, map[string]any{"PreToolUse": []any{map[string]any{"hooks": []any{
		map[string]any{"type": "command", "command": "sleep 0.3; touch '" + marker + "'", "async": true},
	}}}})
	code, out, errs := e.hookside(t, `{"toolName":"Bash"}`, "hooks", "run", "--event", "PreToolUse", "--input", "-")
	if code != 0 || !strings.Contains(out, "started_async") {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	if !strings.Contains(errs, "waiting for the async hooks") {
		t.Errorf("stderr does not say it waits:\n%s", errs)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Fatal("the async hook was stopped before its end: its marker is missing")
	}
}

// TestHooksRunLongBlockReason: a hook that blocks with 300 kB of stderr
// is printed by the text output once, cut to output.PreviewChars
// characters with a note saying so (zcode caps the stderr at 32 KiB
// first); claude-profile --json holds it whole in blockReason and
// permissionDecisionReason and cut in the run's reason.
func TestHooksRunLongBlockReason(t *testing.T) {
	const n = 300_000
	guard := fmt.Sprintf("head -c %d /dev/zero | tr '\\0' x >&2; exit 2", n)
	e, ch, in := guardEnv(t, guard)
	for _, tc := range []struct {
		profile []string
		chars   int // the block reason's length
	}{{[]string{"--profile", "zcode"}, 32 << 10}, {[]string{"--profile", "claude", "--claude-home", ch}, n}} {
		args := append([]string{"hooks", "run", "--event", "PreToolUse", "--input", in}, tc.profile...)
		code, out, errs := e.hookside(t, "", args...)
		if code != 2 || len(out) > 10*output.PreviewChars {
			t.Fatalf("%v: exit %d, %d bytes of text output; want exit 2 and a few previews\n%s", tc.profile, code, len(out), errs)
		}
		if want := fmt.Sprintf("… (%d characters, cut at %d; --json has them all)\n", tc.chars, output.PreviewChars); !strings.Contains(out, "blocked: xxx") || !strings.Contains(out, want) {
			t.Errorf("%v: the blocked line is not cut with %q:\n%.300s", tc.profile, want, out)
		}
	}
	code, out, _ := e.hookside(t, "", "hooks", "run", "--event", "PreToolUse", "--input", in, "--profile", "claude", "--claude-home", ch, "--json")
	var m struct {
		BlockReason              string `json:"blockReason"`
		PermissionDecisionReason string `json:"permissionDecisionReason"`
		Runs                     []struct {
			Reason string `json:"reason"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &m); code != 2 || err != nil {
		t.Fatalf("--json: exit %d, %v", code, err)
	}
	if len(m.BlockReason) != n || m.PermissionDecisionReason != m.BlockReason || len(m.Runs) != 1 || m.Runs[0].Reason != strings.Repeat("x", output.PreviewChars)+"…" {
		t.Errorf("--json: blockReason %d bytes (want %d), permissionDecisionReason the same %v, runs %d; want the run's reason cut at %d", len(m.BlockReason), n, m.PermissionDecisionReason == m.BlockReason, len(m.Runs), output.PreviewChars)
	}
	if len(out) > 2*n+20*output.PreviewChars {
		t.Errorf("--json: %d bytes for a %d-byte reason", len(out), n)
	}
}
