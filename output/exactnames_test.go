package output

import (
	"encoding/json"
	"testing"

	"github.com/hookside/hookside/internal/hook"
)

// TestMemberNamesAreExact: what a hook prints and what a host answers is
// read by exact member names (docs/protocol.md §1), as Claude Code's
// JSON.parse reads it: {"Async":true} is no async marker, {"OK":true} is
// no verdict, "IsError" is not isError, "Decision" is not decision.
func TestMemberNamesAreExact(t *testing.T) {
	if ClaudeAsyncMarker([]byte(`{"Async":true,"asyncTimeout":5000}` + "\n")) {
		t.Error(`{"Async":true} taken as the async marker`)
	}
	if !ClaudeAsyncMarker([]byte(`{"async":true,"Async":false}` + "\n")) {
		t.Error(`{"async":true} not taken as the async marker`)
	}
	a := ParseClaudeDelegated(hook.Stop, DelegatedResult{Type: hook.TypePrompt, Body: json.RawMessage(`{"OK":true}`)})
	if a.Outcome != OutcomeFailed || a.HookError == "" {
		t.Errorf(`{"OK":true} read as a verdict: %+v`, a)
	}
	a = ParseClaudeDelegated(hook.Stop, DelegatedResult{Type: hook.TypePrompt, Body: json.RawMessage(`{"ok":false,"Reason":"x"}`)})
	if a.Outcome != OutcomeFailed || a.Block {
		t.Errorf(`"Reason" read as reason: %+v`, a)
	}
	a = ParseClaudeDelegated(hook.SessionStart, DelegatedResult{Type: hook.TypeMCPTool,
		Body: json.RawMessage(`{"content":[{"type":"text","text":"ctx"}],"IsError":true}`)})
	if a.Outcome != OutcomeSucceeded || len(a.AdditionalContext) != 1 {
		t.Errorf(`"IsError" read as isError: %+v`, a)
	}
	a = ParseClaudeDelegated(hook.SessionStart, DelegatedResult{Type: hook.TypeMCPTool,
		Body: json.RawMessage(`{"Content":[{"type":"text","text":"ctx"}]}`)})
	if len(a.AdditionalContext) != 0 {
		t.Errorf(`"Content" read as content: %+v`, a)
	}
	if p := Parse(hook.PreToolUse, res(0, `{"Decision":"block","Reason":"no"}`, "")); p.Block || p.Decision != "" {
		t.Errorf(`{"Decision":"block"} blocked: %+v`, p)
	}
	if m := merge1(hook.PreToolUse, "Bash", res(0, `{"Decision":"block","HookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}`, "")); m.Blocked || m.PermissionDecision != nil {
		t.Errorf("other-case Claude output members read: %+v", m)
	}
}
