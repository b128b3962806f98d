package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookside/hookside/internal/hook"
)

// TestClaudeOutputCap: a claude-profile command hook's stdout is kept up to
// hook.ClaudeMaxOutputBytes, so a 2 MB JSON deny denies (hookside's
// 32768-byte default cut it and the tool ran); plain stdout longer than
// the cap is cut, marked so, and reported in hookErrors naming the cap; a
// hook's own maxOutputBytes still applies.
func TestClaudeOutputCap(t *testing.T) {
	e := newClaudeEnv(t)
	deny := `python3 -c 'import json;print(json.dumps({"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"x"*2000000}}))'`
	small := map[string]any{"type": "command", "command": "head -c 5000 /dev/zero | tr '\\0' a", "maxOutputBytes": 1000}
	writeJSON(t, filepath.Join(e.claudeHome, "settings.json"), map[string]any{"hooks": map[string]any{
		"PreToolUse":       []any{map[string]any{"hooks": []any{sh(deny)}}},
		"UserPromptSubmit": []any{map[string]any{"hooks": []any{small}}},
	}})
	s := e.open(t, SessionOptions{})
	m := runClaude(t, s, hook.PreToolUse, `{"tool_name":"Bash","tool_input":{"command":"ls"}}`)
	if m.PermissionDecision == nil || *m.PermissionDecision != "deny" || len(*m.PermissionDecisionReason) != 2000000 || len(m.HookErrors) != 0 {
		t.Fatalf("2 MB deny: decision %v, hookErrors %q, runs %s", m.PermissionDecision, m.HookErrors, claudeOutcomes(m))
	}
	m = runClaude(t, s, hook.UserPromptSubmit, `{"prompt":"p"}`)
	want := "output_truncated: stdout reached the output cap of 1000 bytes (maxOutputBytes); the rest was discarded"
	if len(m.HookErrors) != 1 || m.HookErrors[0] != want {
		t.Errorf("hookErrors %q, want %q", m.HookErrors, want)
	}
	if len(m.AdditionalContext) != 1 || !strings.HasSuffix(m.AdditionalContext[0], "\n[hookside: output cut at the 1000-byte output cap; the rest was discarded]") {
		t.Errorf("context %q", m.AdditionalContext)
	}
	hs, _ := s.Hooks()
	for _, h := range hs {
		if h.Event == hook.PreToolUse && h.MaxOutputBytes != hook.ClaudeMaxOutputBytes {
			t.Errorf("PreToolUse hook's cap %d, want %d", h.MaxOutputBytes, hook.ClaudeMaxOutputBytes)
		}
	}
}

// TestClaudeSpillKeptInHome: an output over output.ClaudeOutputLimit is
// saved whole in <home>/hook-output/ (it outlives the session: the path in
// the answer stays readable after Close), the notice gives its real
// length; saved outputs older than HookOutputMaxAge are swept.
func TestClaudeSpillKeptInHome(t *testing.T) {
	e := newClaudeEnv(t)
	writeJSON(t, filepath.Join(e.claudeHome, "settings.json"), handlers("UserPromptSubmit", "", sh("head -c 50000 /dev/zero | tr '\\0' a")))
	s := e.open(t, SessionOptions{})
	m := runClaude(t, s, hook.UserPromptSubmit, `{"prompt":"p"}`)
	s.Close()
	if len(m.AdditionalContext) != 1 {
		t.Fatalf("context %q", m.AdditionalContext)
	}
	c := m.AdditionalContext[0]
	dir := filepath.Join(e.home, HookOutputDir) + string(filepath.Separator)
	if !strings.HasPrefix(c, "Hook output too large (50000 characters); the full text is in "+dir) {
		t.Fatalf("notice %.200q", c)
	}
	path := strings.SplitN(strings.TrimPrefix(c, "Hook output too large (50000 characters); the full text is in "), "\n", 2)[0]
	b, err := os.ReadFile(path)
	if err != nil || len(b) != 50000 {
		t.Fatalf("saved file after Close: %d bytes, %v", len(b), err)
	}
	old := time.Now().Add(-HookOutputMaxAge - time.Hour)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
	sweepHookOutputs(filepath.Dir(path), time.Now().Add(-HookOutputMaxAge))
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("a saved output older than HookOutputMaxAge was kept: %v", err)
	}
}
