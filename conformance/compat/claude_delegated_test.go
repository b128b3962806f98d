package compat

import (
	"testing"
)

// delegatedCorpus: prompt, agent and mcp_tool handlers run by a scripted
// host over the real binary's pipes (host/hook/prompt, host/hook/agent,
// host/hook/mcpTool), each asserting the effect the reference's response
// schema gives (https://code.claude.com/docs/en/hooks#response-schema,
// #mcp-tool-hook-fields).
func delegatedCorpus() []claudeScenario {
	all := obj("capabilities", obj("delegatedHookTypes", []any{"prompt", "agent", "mcp_tool"}))
	prompt := func(p string, extra ...any) map[string]any {
		h := obj("type", "prompt", "prompt", p)
		for i := 0; i+1 < len(extra); i += 2 {
			h[extra[i].(string)] = extra[i+1]
		}
		return h
	}
	return []claudeScenario{
		{
			name: "delegated_prompt_pretooluse", description: "a prompt handler on PreToolUse runs in the host (host/hook/prompt, $ARGUMENTS replaced by the hook input, model and timeout passed); ok:false denies and ends the turn, ok:true allows (hooks#response-schema).",
			event: "PreToolUse", initialize: all,
			settings: obj("hooks", obj("PreToolUse", claudeGroup("Bash", prompt(`Is this safe? $ARGUMENTS Answer \$1.00 style.`, "model", "claude-haiku", "timeout", 5)))),
			responders: []any{
				obj("method", "host/hook/prompt", "match", obj("prompt", obj("$regex", "rm -rf")), "result", obj("ok", false, "reason", "destructive command")),
				obj("method", "host/hook/prompt", "result", obj("ok", true)),
			},
			runs: []runExpect{
				{obj("tool_name", "Bash", "tool_input", obj("command", "rm -rf /")), obj(
					"blocked", true, "permissionDecision", "deny", "permissionDecisionReason", "destructive command",
					"continue", false, "stopReason", "destructive command", "runs", []any{obj("outcome", "blocked")})},
				{obj("tool_name", "Bash", "tool_input", obj("command", "ls")), obj(
					"blocked", false, "permissionDecision", "$absent", "runs", []any{obj("outcome", "succeeded")})},
			},
			after: []any{obj("expectNotification", obj("method", "host/hook/prompt", "params", obj(
				"sessionId", "s1", "event", "PreToolUse", "model", "claude-haiku", "timeoutMs", 5000,
				"prompt", obj("$regex", `^Is this safe\? \{.*"tool_name":"Bash".*\} Answer \$1\.00 style\.$`),
				"hookInput", obj("hook_event_name", "PreToolUse", "tool_input", obj("command", "rm -rf /"))))),
			},
		},
		{
			name: "delegated_mcp_tool_posttooluse", description: "an mcp_tool handler on PostToolUse: ${path} placeholders in input resolved from the hook input; the tool's text is read as command stdout (decision block → feedback); isError is a non-blocking error (hooks#mcp-tool-hook-fields).",
			event: "PostToolUse", initialize: all,
			settings: obj("hooks", obj("PostToolUse", claudeGroup("Write", obj("type", "mcp_tool", "server", "lint", "tool", "check",
				"input", obj("path", "${tool_input.file_path}", "who", "${session_id}", "n", 3))))),
			responders: []any{
				obj("method", "host/hook/mcpTool", "match", obj("arguments", obj("path", "/p/a.ts")),
					"result", obj("content", []any{obj("type", "text", "text", `{"decision":"block","reason":"lint: 2 errors"}`)})),
				obj("method", "host/hook/mcpTool", "result", obj("content", []any{obj("type", "text", "text", "server not connected")}, "isError", true)),
			},
			runs: []runExpect{
				{obj("tool_name", "Write", "tool_input", obj("file_path", "/p/a.ts")), obj(
					"blocked", false, "feedback", []any{"lint: 2 errors"}, "runs", []any{obj("outcome", "succeeded")})},
				{obj("tool_name", "Write", "tool_input", obj("file_path", "/p/b.ts")), obj(
					"blocked", false, "hookErrors", []any{obj("$regex", "server not connected")}, "runs", []any{obj("outcome", "failed")})},
			},
			after: []any{obj("expectNotification", obj("method", "host/hook/mcpTool", "params", obj(
				"server", "lint", "tool", "check", "timeoutMs", 600000,
				"arguments", obj("path", "/p/a.ts", "who", "s1", "n", 3))))},
		},
		{
			name: "delegated_agent_stop", description: "an agent handler on Stop (host/hook/agent, default timeout 60 s): ok:false continues the turn with the reason, ok:true lets it stop (hooks#agent-based-hooks).",
			event: "Stop", initialize: all,
			settings: obj("hooks", obj("Stop", claudeGroup("", obj("type", "agent", "prompt", "Verify that the tests pass.")))),
			responders: []any{
				obj("method", "host/hook/agent", "times", 1, "result", obj("ok", false, "reason", "2 tests fail")),
				obj("method", "host/hook/agent", "result", obj("ok", true)),
			},
			runs: []runExpect{
				{obj("stop_hook_active", false), obj("stop", obj("continueTurn", true, "continuation", "2 tests fail"))},
				{obj("stop_hook_active", true), obj("stop", obj("continueTurn", false, "continuation", nil))},
			},
			after: []any{obj("expectNotification", obj("method", "host/hook/agent", "params", obj(
				"timeoutMs", 60000, "prompt", obj("$regex", `^Verify that the tests pass\.\n\n\{"`))))},
		},
		{
			name: "delegated_timeout_cancel_and_host_error", description: "a host that does not answer in the handler's timeout: timed_out, no decision, and hookside sends $/cancelRequest for the request; a host error answer is a non-blocking error (hooks#response-schema).",
			event: "UserPromptSubmit", initialize: all,
			settings: obj("hooks", obj("UserPromptSubmit", claudeGroup("", prompt("Check: $ARGUMENTS", "timeout", 1)))),
			responders: []any{
				obj("method", "host/hook/prompt", "match", obj("prompt", obj("$regex", "slow")), "noAnswer", true),
				obj("method", "host/hook/prompt", "error", obj("code", -32000, "message", "model unavailable")),
			},
			runs: []runExpect{
				{obj("prompt", "a slow one"), obj("blocked", false, "hookErrors", []any{obj("$regex", "timed out")},
					"runs", []any{obj("outcome", "timed_out")})},
				{obj("prompt", "fast"), obj("blocked", false, "hookErrors", []any{obj("$regex", "model unavailable")},
					"runs", []any{obj("outcome", "failed")})},
			},
			after: []any{obj("expectNotification", obj("method", "$/cancelRequest", "params", obj("id", "$any")))},
		},
		{
			name: "delegated_without_capability", description: "a host that does not declare delegatedHookTypes: prompt handlers are skipped with claude_delegated_type, and nothing is asked of the host.",
			event:      "PreToolUse",
			settings:   obj("hooks", obj("PreToolUse", claudeGroup("", prompt("Is this safe? $ARGUMENTS")))),
			expectOpen: obj("diagnostics", obj("$contains", []any{obj("code", "claude_delegated_type")})),
			runs: []runExpect{
				{obj("tool_name", "Bash", "tool_input", obj("command", "ls")), obj("blocked", false, "runs", []any{})},
			},
		},
		{
			name: "delegated_type_not_on_event", description: "prompt handlers do not run on SessionStart (hooks#prompt-based-hooks): skipped with claude_type_not_on_event even when the host runs prompts.",
			event: "SessionStart", initialize: all,
			settings:   obj("hooks", obj("SessionStart", claudeGroup("", prompt("Say hi $ARGUMENTS")))),
			expectOpen: obj("diagnostics", obj("$contains", []any{obj("code", "claude_type_not_on_event")})),
			runs:       []runExpect{{obj("source", "startup"), obj("runs", []any{})}},
		},
	}
}

// TestClaudeDelegated runs the delegated-handler scenarios against the real
// binary with a scripted host.
func TestClaudeDelegated(t *testing.T) {
	runClaudeScenarios(t, delegatedCorpus(), true)
}
