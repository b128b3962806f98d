package runner

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookside/hookside/internal/hook"
)

// stopProbe is a Stop/SubagentStop command hook that appends the
// stop_hook_active it read on stdin (true, false or absent) to log, one per
// line. It is Claude Code's documented loop guard: exit 0 when
// stop_hook_active is true, else ask to continue (exit 2) — unless the file
// always exists, then it asks to continue every time.
func stopProbe(log, always string) map[string]any {
	return sh(`in=$(cat); case "$in" in *'"stop_hook_active":true'*) a=true;; *'"stop_hook_active":false'*) a=false;; *) a=absent;; esac; ` +
		`echo "$a" >> '` + log + `'; if [ "$a" = true ] && [ ! -e '` + always + `' ]; then exit 0; fi; echo again >&2; exit 2`)
}

// seen returns the values the probe logged since the last call.
func seen(t *testing.T, log string) []string {
	t.Helper()
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(log); err != nil {
		t.Fatal(err)
	}
	return strings.Fields(string(b))
}

// TestClaudeStopHookActive: a claude-profile Stop or SubagentStop hook
// reads stop_hook_active on stdin, true when the agent's previous Stop was
// continued by a hook (the count behind stop.consecutive), false after a
// Stop that did not continue or a UserPromptSubmit; the host's boolean wins;
// another type is an input error.
func TestClaudeStopHookActive(t *testing.T) {
	e := newClaudeEnv(t)
	log, always := filepath.Join(e.dir, "seen.log"), filepath.Join(e.dir, "always")
	writeJSON(t, filepath.Join(e.claudeHome, "settings.json"), map[string]any{"hooks": map[string]any{
		"Stop":         []any{map[string]any{"hooks": []any{stopProbe(log, always)}}},
		"SubagentStop": []any{map[string]any{"hooks": []any{stopProbe(log, always)}}},
	}})
	s := e.open(t, SessionOptions{})
	step := func(event, input string, wantSeen string, wantContinue bool, wantConsecutive int) {
		t.Helper()
		m := runClaude(t, s, event, input)
		if got := strings.Join(seen(t, log), ","); got != wantSeen {
			t.Fatalf("%s %s: the hook read stop_hook_active %s, want %s", event, input, got, wantSeen)
		}
		if m.Stop == nil || m.Stop.ContinueTurn != wantContinue || m.Stop.Consecutive != wantConsecutive {
			// consecutive: the blocks granted including this one when it
			// continues, else those granted before it.
			t.Fatalf("%s %s: stop %+v, want continueTurn %v consecutive %d", event, input, m.Stop, wantContinue, wantConsecutive)
		}
	}

	// The loop guard works: the first Stop continues, the second sees
	// true and lets the turn end, and that resets it.
	step(hook.Stop, `{}`, "false", true, 1)
	step(hook.Stop, `{}`, "true", false, 1)
	step(hook.Stop, `{"stop_hook_active":null}`, "false", true, 1)
	step(hook.Stop, `{}`, "true", false, 1)

	// A hook that ignores it: true on every continued Stop until a
	// prompt is submitted.
	if err := os.WriteFile(always, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	step(hook.Stop, `{}`, "false", true, 1)
	step(hook.Stop, `{}`, "true", true, 2)
	step(hook.Stop, `{}`, "true", true, 3)
	if m := runClaude(t, s, hook.UserPromptSubmit, `{"prompt":"next"}`); m.Stop != nil {
		t.Fatalf("UserPromptSubmit has no stop: %+v", m.Stop)
	}
	step(hook.Stop, `{}`, "false", true, 1)

	// The host's value is the hook's, whatever the count says; the count
	// goes on as before.
	step(hook.Stop, `{"stop_hook_active":false}`, "false", true, 2)
	if err := os.Remove(always); err != nil {
		t.Fatal(err)
	}
	step(hook.Stop, `{"stop_hook_active":true}`, "true", false, 2)
	step(hook.Stop, `{"stop_hook_active":true}`, "true", false, 0)

	// SubagentStop counts per agent_id, apart from the main agent.
	step(hook.SubagentStop, `{"agent_id":"a1"}`, "false", true, 1)
	step(hook.SubagentStop, `{"agent_id":"a2"}`, "false", true, 1)
	step(hook.Stop, `{}`, "false", true, 1)
	step(hook.SubagentStop, `{"agent_id":"a1"}`, "true", false, 1)
	step(hook.SubagentStop, `{"agent_id":"a1"}`, "false", true, 1)

	for _, bad := range []string{`"yes"`, `1`, `{}`} {
		_, err := s.RunClaude(context.Background(), RunRequest{Event: hook.Stop, Input: json.RawMessage(`{"stop_hook_active":` + bad + `}`)}, nil)
		var ie *InputError
		if !errors.As(err, &ie) || ie.Field != "stop_hook_active" || !strings.HasPrefix(ie.Reason, "must be true or false, not ") {
			t.Fatalf("stop_hook_active %s: %v", bad, err)
		}
	}
	if _, err := os.Stat(log); !os.IsNotExist(err) {
		t.Fatalf("a refused input ran the hook (%v)", err)
	}
	// Other events pass it through as given, unchecked.
	if _, err := s.RunClaude(context.Background(), RunRequest{Event: hook.Notification, Input: json.RawMessage(`{"stop_hook_active":"yes"}`)}, nil); err != nil {
		t.Fatalf("Notification: %v", err)
	}
}
