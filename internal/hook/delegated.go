package hook

import (
	"encoding/json"
	"slices"
)

// Claude Code's handler types that need a model or an MCP client
// (https://code.claude.com/docs/en/hooks#hook-handler-fields). hookside
// runs them only through a host that declared it can (the session's
// Delegated types); otherwise they are skipped with
// CodeClaudeDelegatedType.
const (
	// TypePrompt sends a prompt to a model for one evaluation; the model
	// answers {"ok", "reason", "impossible"}
	// (https://code.claude.com/docs/en/hooks#prompt-based-hooks).
	TypePrompt HookType = "prompt"
	// TypeAgent runs a subagent with tool access that answers {"ok",
	// "reason"} (https://code.claude.com/docs/en/hooks#agent-based-hooks).
	TypeAgent HookType = "agent"
	// TypeMCPTool calls a tool of a connected MCP server; its text is read
	// like a command hook's stdout
	// (https://code.claude.com/docs/en/hooks#mcp-tool-hook-fields).
	TypeMCPTool HookType = "mcp_tool"
)

// DelegatedTypes are the handler types a host may run for hookside, in the
// reference's order.
var DelegatedTypes = []HookType{TypePrompt, TypeAgent, TypeMCPTool}

// IsDelegated reports whether t is one of DelegatedTypes.
func IsDelegated(t HookType) bool { return slices.Contains(DelegatedTypes, t) }

// DelegatedHandler is the configuration of a prompt, agent or mcp_tool
// handler as written (https://code.claude.com/docs/en/hooks#prompt-and-agent-hook-fields,
// #mcp-tool-hook-fields): Prompt (with its $ARGUMENTS placeholders), Model
// ("" = the host's fast model) and ContinueOnBlock (prompt only) for
// prompt and agent; Server, Tool and Input (a JSON object whose string
// values may hold ${path} placeholders; nil = none) for mcp_tool.
type DelegatedHandler struct {
	Prompt          string          `json:"prompt,omitempty"`
	Model           string          `json:"model,omitempty"`
	ContinueOnBlock bool            `json:"continueOnBlock,omitempty"`
	Server          string          `json:"server,omitempty"`
	Tool            string          `json:"tool,omitempty"`
	Input           json.RawMessage `json:"input,omitempty"`
}

// ClaudeModelEvents are the events on which prompt and agent handlers run
// (https://code.claude.com/docs/en/hooks#prompt-based-hooks); on the
// others Claude Code does not run them.
var ClaudeModelEvents = []string{
	PermissionDenied, PermissionRequest, PostToolBatch, PostToolUse,
	PostToolUseFailure, PreToolUse, Stop, SubagentStop, TaskCompleted,
	TaskCreated, TeammateIdle, UserPromptExpansion, UserPromptSubmit,
}

// ClaudeCommandOnlyEvents are the events that take command and mcp_tool
// handlers only (no http, prompt or agent).
var ClaudeCommandOnlyEvents = []string{SessionStart, Setup}

// ClaudeTypeRunsOn reports whether Claude Code runs a handler of type t on
// event: prompt and agent on ClaudeModelEvents only; http on every event
// but SessionStart and Setup; command and mcp_tool everywhere.
func ClaudeTypeRunsOn(t HookType, event string) bool {
	switch t {
	case TypePrompt, TypeAgent:
		return slices.Contains(ClaudeModelEvents, event)
	case TypeHTTP:
		return !slices.Contains(ClaudeCommandOnlyEvents, event)
	}
	return true
}

// TimeoutForType returns the dialect's default timeout in milliseconds for
// a handler of type t on event that sets none: TypeTimeoutMs[t] when the
// dialect has one (claude: prompt 30 s, agent 60 s), else TimeoutFor.
func (d *Dialect) TimeoutForType(t HookType, event string) int {
	if ms, ok := d.TypeTimeoutMs[t]; ok {
		return ms
	}
	return d.TimeoutFor(event)
}

// WithHostTypes returns a copy of d whose HandlerTypes also hold the types
// of types that are in d.HostTypes (the ones a host declared it runs); d
// itself when none is added.
func (d *Dialect) WithHostTypes(types []HookType) *Dialect {
	var add []HookType
	for _, t := range types {
		if slices.Contains(d.HostTypes, t) && !d.Runs(t) && !slices.Contains(add, t) {
			add = append(add, t)
		}
	}
	if len(add) == 0 {
		return d
	}
	c := *d
	c.HandlerTypes = append(slices.Clone(d.HandlerTypes), add...)
	return &c
}

// CodeClaudeTypeNotOnEvent: a handler type Claude Code does not run on the
// declared event (prompt or agent outside ClaudeModelEvents, http on
// SessionStart or Setup); severity warning, the declaration is skipped.
const CodeClaudeTypeNotOnEvent = "claude_type_not_on_event"
