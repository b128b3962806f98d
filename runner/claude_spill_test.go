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

// TestClaudeAsyncOutputCap: a background hook whose stdout or stderr
// reaches its output cap (maxOutputBytes) gets the same output_truncated
// notice as a foreground one, in the hookErrors of its asyncResults entry
// — started async or by the runtime async marker — next to what its JSON
// line says; a result with only the notice is delivered too.
func TestClaudeAsyncOutputCap(t *testing.T) {
	e := newClaudeEnv(t)
	const ctxLine = `echo '{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"ctx"}}'; `
	hooks := []any{
		map[string]any{"type": "command", "async": true, "maxOutputBytes": 1000,
			"command": ctxLine + `head -c 5000 /dev/zero | tr '\0' a`},
		map[string]any{"type": "command", "async": true, "maxOutputBytes": 1000,
			"command": `head -c 5000 /dev/zero | tr '\0' e >&2`},
		map[string]any{"type": "command", "maxOutputBytes": 1000,
			"command": `echo '{"async": true}'; sleep 0.2; ` + ctxLine + `head -c 5000 /dev/zero | tr '\0' a`},
	}
	writeJSON(t, filepath.Join(e.claudeHome, "settings.json"), map[string]any{"hooks": map[string]any{
		"UserPromptSubmit": []any{map[string]any{"hooks": hooks}}}})
	s := e.open(t, SessionOptions{})
	if m := runClaude(t, s, hook.UserPromptSubmit, `{"prompt":"p"}`); claudeOutcomes(m) != "started_async started_async started_async" {
		t.Fatalf("first reply: %s", claudeOutcomes(m))
	}
	s.async.Wait()
	m := runClaude(t, s, hook.UserPromptSubmit, `{"prompt":"next"}`)
	const cut = " reached the output cap of 1000 bytes (maxOutputBytes); the rest was discarded"
	want := map[string]struct{ ctx, notice string }{
		"[0]": {"ctx", "output_truncated: stdout" + cut},
		"[1]": {"", "output_truncated: stderr" + cut},
		"[2]": {"ctx", "output_truncated: stdout" + cut},
	}
	got := map[string]bool{}
	for _, r := range m.AsyncResults {
		i := r.HookID[strings.LastIndex(r.HookID, "["):]
		w, ok := want[i]
		if !ok || got[i] || strings.Join(r.AdditionalContext, ",") != w.ctx || len(r.HookErrors) != 1 || r.HookErrors[0] != w.notice {
			t.Errorf("async result of hook %s: context %q, hookErrors %q; want %q and [%q]", r.HookID, r.AdditionalContext, r.HookErrors, w.ctx, w.notice)
		}
		got[i] = true
	}
	if len(got) != len(want) {
		t.Errorf("async results of %v, want one of each of the 3 hooks: %+v", got, m.AsyncResults)
	}
}
