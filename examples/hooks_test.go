// Package examples holds the example hooks, configurations and the demo
// host. This test runs every example hook with the stdin hookside would give
// it and checks its answer, so the examples the documentation points to
// keep working.
package examples

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// need skips the test when a program the example uses is not installed.
func need(t *testing.T, progs ...string) {
	t.Helper()
	for _, p := range progs {
		if _, err := exec.LookPath(p); err != nil {
			t.Skipf("%s is not on PATH: the example needs it", p)
		}
	}
}

// runHook runs argv with stdin (one JSON line) in dir and returns stdout,
// stderr and the exit code.
func runHook(t *testing.T, dir string, env []string, stdin map[string]any, argv ...string) (string, string, int) {
	t.Helper()
	in, err := json.Marshal(stdin)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdin = bytes.NewReader(append(in, '\n'))
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%v: %v", argv, err)
	}
	return out.String(), errb.String(), code
}

// decision returns hookSpecificOutput.permissionDecision of a JSON answer.
func decision(t *testing.T, out string) string {
	t.Helper()
	if strings.TrimSpace(out) == "" {
		return ""
	}
	var a struct {
		HookSpecificOutput struct {
			PermissionDecision string `json:"permissionDecision"`
			AdditionalContext  string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal([]byte(out), &a); err != nil {
		t.Fatalf("answer is not JSON: %q", out)
	}
	return a.HookSpecificOutput.PermissionDecision
}

func hooksDir(t *testing.T) string {
	d, err := filepath.Abs("hooks")
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestPreToolUseBashGuard(t *testing.T) {
	need(t, "bash", "jq")
	h := filepath.Join(hooksDir(t), "bash_guard.sh")
	for cmd, want := range map[string]string{"rm -rf build/": "deny", "git push origin main": "ask", "ls -la": "allow"} {
		out, _, code := runHook(t, t.TempDir(), nil, map[string]any{"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": map[string]any{"command": cmd}}, h)
		if code != 0 || decision(t, out) != want {
			t.Errorf("%q: exit %d, answer %s; want %s", cmd, code, out, want)
		}
	}
}

func TestPermissionRequest(t *testing.T) {
	need(t, "bash", "jq")
	h := filepath.Join(hooksDir(t), "permission_request.sh")
	cases := []struct {
		tool, cmd, want string
	}{{"Read", "", "allow"}, {"Bash", "sudo rm -rf /", "deny"}, {"Bash", "make", ""}, {"Write", "", ""}}
	for _, c := range cases {
		out, _, code := runHook(t, t.TempDir(), nil, map[string]any{"tool_name": c.tool, "tool_input": map[string]any{"command": c.cmd}}, h)
		if code != 0 || decision(t, out) != c.want {
			t.Errorf("%s %q: exit %d, answer %q; want %q", c.tool, c.cmd, code, out, c.want)
		}
	}
}

func TestPostToolUseFailureHint(t *testing.T) {
	need(t, "python3")
	h := filepath.Join(hooksDir(t), "tool_failure_hint.py")
	out, _, code := runHook(t, t.TempDir(), nil, map[string]any{"tool_name": "Bash", "error": "sh: mk: command not found", "is_interrupt": false}, "python3", h)
	if code != 0 || !strings.Contains(out, "on PATH") || !strings.Contains(out, "PostToolUseFailure") {
		t.Errorf("exit %d, answer %q", code, out)
	}
	out, _, code = runHook(t, t.TempDir(), nil, map[string]any{"tool_name": "Bash", "error": "interrupted", "is_interrupt": true}, "python3", h)
	if code != 0 || out != "" {
		t.Errorf("interrupted: exit %d, answer %q; want nothing", code, out)
	}
}

func TestSessionStartContext(t *testing.T) {
	need(t, "python3")
	ws := t.TempDir()
	os.WriteFile(filepath.Join(ws, "NOTES.md"), []byte("Run make test.\n"), 0o644)
	out, _, code := runHook(t, ws, nil, map[string]any{"cwd": ws, "session_id": "s1", "source": "startup"}, "python3", filepath.Join(hooksDir(t), "session_context.py"))
	if code != 0 || !strings.Contains(out, "Run make test.") {
		t.Errorf("exit %d, answer %q", code, out)
	}
}

func TestUserPromptSubmitGuard(t *testing.T) {
	need(t, "bash", "jq")
	h := filepath.Join(hooksDir(t), "prompt_guard.sh")
	_, stderr, code := runHook(t, t.TempDir(), nil, map[string]any{"prompt": "use api_key=abc123"}, h)
	if code != 2 || !strings.Contains(stderr, "credential") {
		t.Errorf("credential: exit %d, stderr %q; want exit 2", code, stderr)
	}
	out, _, code := runHook(t, t.TempDir(), nil, map[string]any{"prompt": "fix the test"}, h)
	if code != 0 || !strings.Contains(out, "Reminder") {
		t.Errorf("plain prompt: exit %d, stdout %q", code, out)
	}
}

func TestPostToolUseContext(t *testing.T) {
	need(t, "node")
	out, _, code := runHook(t, t.TempDir(), nil, map[string]any{"tool_name": "Edit", "tool_input": map[string]any{"file_path": "parser.go"}}, "node", filepath.Join(hooksDir(t), "post_edit_context.mjs"))
	if code != 0 || !strings.Contains(out, "parser.go") {
		t.Errorf("exit %d, answer %q", code, out)
	}
}

func TestStopUntilTested(t *testing.T) {
	need(t, "bash", "jq")
	ws := t.TempDir()
	h := filepath.Join(hooksDir(t), "stop_until_tested.sh")
	env := []string{"CLAUDE_PROJECT_DIR=" + ws}
	out, _, code := runHook(t, ws, env, map[string]any{"stop_hook_active": false}, h)
	if code != 0 || !strings.Contains(out, `"decision":"block"`) {
		t.Errorf("first stop: exit %d, answer %q; want a block", code, out)
	}
	out, _, code = runHook(t, ws, env, map[string]any{"stop_hook_active": true}, h)
	if code != 0 || out != "" {
		t.Errorf("second stop: exit %d, answer %q; want nothing", code, out)
	}
}

func TestWorkspaceProtectGenerated(t *testing.T) {
	need(t, "python3")
	ws, _ := filepath.Abs("workspace")
	var cfg struct {
		Hooks struct {
			Events map[string][]struct {
				Hooks []struct {
					Command string   `json:"command"`
					Args    []string `json:"args"`
				} `json:"hooks"`
			} `json:"events"`
		} `json:"hooks"`
	}
	b, err := os.ReadFile(filepath.Join(ws, "zcode.json"))
	if err != nil || json.Unmarshal(b, &cfg) != nil {
		t.Fatalf("examples/workspace/zcode.json: %v", err)
	}
	h := cfg.Hooks.Events["PreToolUse"][0].Hooks[0]
	argv := append([]string{h.Command}, h.Args...)
	out, _, code := runHook(t, ws, nil, map[string]any{"tool_name": "Edit", "tool_input": map[string]any{"file_path": "generated/api.go"}}, argv...)
	if code != 0 || decision(t, out) != "deny" {
		t.Errorf("generated/: exit %d, answer %q; want deny", code, out)
	}
	out, _, code = runHook(t, ws, nil, map[string]any{"tool_name": "Edit", "tool_input": map[string]any{"file_path": "src/api.go"}}, argv...)
	if code != 0 || out != "" {
		t.Errorf("src/: exit %d, answer %q; want nothing", code, out)
	}
}
