package runner

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/hookside/hookside/output"
)

// TestWindowsCmdShellHookThroughSession: a user `command` hook with
// shell "cmd" runs through the real spawner with its raw command line:
// cmd.exe prints a block decision whose quotes and & reach it as written,
// and a second hook's exit status comes back. It runs a real cmd.exe
// (under Wine in make test-windows).
func TestWindowsCmdShellHookThroughSession(t *testing.T) {
	if os.Getenv("ComSpec") == "" {
		t.Skip("no %ComSpec%: no cmd.exe on this Windows")
	}
	home := t.TempDir()
	hooks := []map[string]any{
		{"type": "command", "shell": "cmd", "command": `echo {"decision":"block","reason":"no \"rm\" & never"}& exit /b 0`},
		{"type": "command", "shell": "cmd", "command": `echo "%ZCODE_PROJECT_DIR%" 1>&2& exit /b 7`},
	}
	cfg, err := json.Marshal(map[string]any{"hooks": map[string]any{"enabled": true, "events": map[string]any{
		"PreToolUse": []any{map[string]any{"hooks": hooks}}}}})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(home, "config.json")
	if err := os.WriteFile(path, cfg, 0o600); err != nil {
		t.Fatal(err)
	}
	s, diags := NewSession(SessionOptions{ID: "s1", Cwd: t.TempDir(), UserConfigPath: path})
	defer s.Close()
	if len(diags) != 0 {
		t.Fatalf("diagnostics: %+v", diags)
	}
	m, err := s.Run(context.Background(), RunRequest{Event: "PreToolUse", TurnID: "t1",
		Input: json.RawMessage(`{"toolName":"Bash","toolInput":{"command":"rm -rf /"}}`)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !m.Blocked || m.BlockReason == nil || *m.BlockReason != `no "rm" & never` {
		t.Fatalf("not blocked with the hook's reason: %+v", m)
	}
	if len(m.Runs) != 2 {
		t.Fatalf("runs %+v", m.Runs)
	}
	if r := m.Runs[1]; r.ExitCode == nil || *r.ExitCode != 7 || r.Outcome != output.OutcomeFailed {
		t.Fatalf("second hook: %+v", r)
	}
}
