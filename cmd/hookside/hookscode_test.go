package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestProcessHookCodeArgumentNotAScript: the argument of -c (-ec, -e,
// --eval …) is code, not a script path: `bash -c "bash ./guard.sh"`,
// `sh -c "exec sh check.sh"` and `env sh -ec ". hooks/x.sh"` start and
// their guard's exit 2 blocks; `hooks explain` agrees with the run, and
// notes a process hook the run would fail before starting (one check).
func TestProcessHookCodeArgumentNotAScript(t *testing.T) {
	e := newCLIEnv(t)
	if err := os.MkdirAll(filepath.Join(e.ws, "hooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	guard := []byte("cat >/dev/null\necho guarded >&2\nexit 2\n")
	for _, p := range []string{"guard.sh", "check.sh", "hooks/x.sh"} {
		if err := os.WriteFile(filepath.Join(e.ws, p), guard, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e.userConfig(t, map[string]any{"PreToolUse": []any{map[string]any{"hooks": []any{
		map[string]any{"type": "process", "command": "sh", "args": []string{"-c", "sh ./guard.sh"}},
		map[string]any{"type": "process", "command": "sh", "args": []string{"-c", "exec sh check.sh", "x.sh"}},
		map[string]any{"type": "process", "command": "env", "args": []string{"sh", "-ec", ". hooks/x.sh"}},
	}}}})
	in := `{"toolName":"Bash","toolInput":{"command":"ls"}}`
	code, out, errs := e.hookside(t, in, "hooks", "run", "--event", "PreToolUse", "--input", "-", "--json")
	if code != 2 || strings.Contains(errs, "process_hook_not_found") {
		t.Fatalf("exit %d, want 2 (blocked), no process_hook_not_found\n%s%s", code, out, errs)
	}
	var m struct {
		Runs []struct{ Outcome, Error string }
	}
	if err := json.Unmarshal([]byte(out), &m); err != nil || len(m.Runs) != 3 {
		t.Fatal(err, out)
	}
	for i, r := range m.Runs {
		if r.Outcome != "blocked" {
			t.Errorf("run %d: %+v, want blocked", i, r)
		}
	}
	_, out, _ = e.hookside(t, "", "hooks", "explain", "--event", "PreToolUse", "--tool", "Bash")
	if strings.Contains(out, "fails without starting") || strings.Count(out, "run #") != 3 {
		t.Errorf("explain disagrees with the run:\n%s", out)
	}

	e.userConfig(t, map[string]any{"PreToolUse": []any{map[string]any{"hooks": []any{
		map[string]any{"type": "process", "command": "sh", "args": []string{"missing.sh"}},
	}}}})
	_, out, _ = e.hookside(t, "", "hooks", "explain", "--event", "PreToolUse", "--tool", "Bash")
	if !strings.Contains(out, "note: fails without starting: script "+e.ws+"/missing.sh does not exist") {
		t.Errorf("explain does not say the run fails:\n%s", out)
	}
}
