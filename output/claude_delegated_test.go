package output

import (
	"encoding/json"
	"testing"

	"github.com/hookside/hookside/internal/hook"
)

// TestParseClaudeDelegatedOKFalsePerEvent checks ok:false against the
// reference's response-schema list, event by event.
func TestParseClaudeDelegatedOKFalsePerEvent(t *testing.T) {
	no := `{"ok":false,"reason":"not yet"}`
	cases := []struct {
		event   string
		typ     hook.HookType
		cob     bool
		body    string
		outcome Outcome
		check   func(a ClaudeAnswer) bool
	}{
		{hook.Stop, hook.TypePrompt, false, no, OutcomeBlocked, func(a ClaudeAnswer) bool { return a.Block && a.BlockReason == "not yet" }},
		{hook.Stop, hook.TypePrompt, false, `{"ok":false,"reason":"x","impossible":true}`, OutcomeSucceeded, func(a ClaudeAnswer) bool { return !a.Block }},
		{hook.SubagentStop, hook.TypeAgent, false, `{"ok":false,"reason":"x","impossible":true}`, OutcomeBlocked, func(a ClaudeAnswer) bool { return a.Block }},
		{hook.PreToolUse, hook.TypePrompt, false, no, OutcomeBlocked, func(a ClaudeAnswer) bool {
			return a.PermissionDecision == "deny" && a.Continue != nil && !*a.Continue && a.StopReason == "not yet"
		}},
		{hook.PreToolUse, hook.TypePrompt, true, no, OutcomeBlocked, func(a ClaudeAnswer) bool {
			return a.PermissionDecision == "deny" && a.Continue == nil
		}},
		{hook.PreToolUse, hook.TypeAgent, false, no, OutcomeBlocked, func(a ClaudeAnswer) bool { return a.PermissionDecision == "deny" && a.Continue == nil }},
		{hook.PostToolUse, hook.TypePrompt, false, no, OutcomeBlocked, func(a ClaudeAnswer) bool { return a.Continue != nil && !*a.Continue && a.Feedback == "" }},
		{hook.PostToolUse, hook.TypePrompt, true, no, OutcomeBlocked, func(a ClaudeAnswer) bool { return a.Feedback == "not yet" && a.Continue == nil }},
		{hook.PostToolUseFailure, hook.TypePrompt, false, no, OutcomeBlocked, func(a ClaudeAnswer) bool { return a.Feedback == "not yet" }},
		{hook.UserPromptSubmit, hook.TypePrompt, false, no, OutcomeBlocked, func(a ClaudeAnswer) bool { return a.Block && a.BlockReason == "not yet" }},
		{hook.PostToolBatch, hook.TypePrompt, false, no, OutcomeBlocked, func(a ClaudeAnswer) bool { return a.Block }},
		{hook.TaskCreated, hook.TypePrompt, false, no, OutcomeBlocked, func(a ClaudeAnswer) bool { return a.Block }},
		{hook.TeammateIdle, hook.TypePrompt, false, no, OutcomeBlocked, func(a ClaudeAnswer) bool { return a.Continue != nil && !*a.Continue }},
		{hook.TeammateIdle, hook.TypePrompt, true, no, OutcomeBlocked, func(a ClaudeAnswer) bool { return a.Block && a.Continue == nil }},
		{hook.PermissionRequest, hook.TypePrompt, false, no, OutcomeSucceeded, func(a ClaudeAnswer) bool { return a.Permission == nil && !a.Block }},
		{hook.PermissionDenied, hook.TypeAgent, false, no, OutcomeSucceeded, func(a ClaudeAnswer) bool { return !a.Retry }},
		{hook.Stop, hook.TypePrompt, false, `{"ok":true}`, OutcomeSucceeded, func(a ClaudeAnswer) bool { return !a.Block }},
		{hook.Stop, hook.TypePrompt, false, `{"ok":false}`, OutcomeFailed, func(a ClaudeAnswer) bool { return !a.Block && a.HookError != "" }},
		{hook.Stop, hook.TypePrompt, false, `{"decision":"block"}`, OutcomeFailed, func(a ClaudeAnswer) bool { return !a.Block && a.HookError != "" }},
		{hook.Stop, hook.TypePrompt, false, `"yes"`, OutcomeFailed, func(a ClaudeAnswer) bool { return a.HookError != "" }},
	}
	for i, c := range cases {
		a := ParseClaudeDelegated(c.event, DelegatedResult{Type: c.typ, ContinueOnBlock: c.cob, Body: json.RawMessage(c.body)})
		if a.Outcome != c.outcome || !c.check(a) {
			t.Errorf("#%d %s %s cob=%v %s: outcome %s, answer %+v", i, c.event, c.typ, c.cob, c.body, a.Outcome, a)
		}
	}
}

func TestParseClaudeDelegatedMCPAndErrors(t *testing.T) {
	a := ParseClaudeDelegated(hook.SessionStart, DelegatedResult{Type: hook.TypeMCPTool,
		Body: json.RawMessage(`{"content":[{"type":"text","text":"branch main"},{"type":"image","data":"x"},{"type":"text","text":"clean"}]}`)})
	if a.Outcome != OutcomeSucceeded || len(a.AdditionalContext) != 1 || a.AdditionalContext[0] != "branch main\nclean" {
		t.Errorf("mcp text as plain stdout: %+v", a)
	}
	a = ParseClaudeDelegated(hook.PreToolUse, DelegatedResult{Type: hook.TypeMCPTool,
		Body: json.RawMessage(`{"content":[{"type":"text","text":"{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"no\"}}"}]}`)})
	if a.PermissionDecision != "deny" || a.PermissionDecisionReason != "no" {
		t.Errorf("mcp JSON output: %+v", a)
	}
	a = ParseClaudeDelegated(hook.PreToolUse, DelegatedResult{Type: hook.TypeMCPTool, Body: json.RawMessage(`{"content":[{"type":"text","text":"boom\nmore"}],"isError":true}`)})
	if a.Outcome != OutcomeFailed || a.HookError != "mcp_tool hook failed: the tool returned an error: boom" {
		t.Errorf("isError: %+v", a)
	}
	a = ParseClaudeDelegated(hook.Stop, DelegatedResult{Type: hook.TypePrompt, TimedOut: true})
	if a.Outcome != OutcomeTimedOut || a.Block {
		t.Errorf("timeout: %+v", a)
	}
	a = ParseClaudeDelegated(hook.Stop, DelegatedResult{Type: hook.TypeAgent, Err: "host error -32000: no model"})
	if a.Outcome != OutcomeFailed || a.HookError != "agent hook failed: host error -32000: no model" {
		t.Errorf("host error: %+v", a)
	}
}
