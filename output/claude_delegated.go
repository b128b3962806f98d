package output

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/internal/jsonexact"
)

// DelegatedResult is what the host answered for one prompt, agent or
// mcp_tool handler it ran for hookside: the result object (Body), or why
// there is none.
type DelegatedResult struct {
	Type hook.HookType
	// ContinueOnBlock is the prompt handler's continueOnBlock.
	ContinueOnBlock bool
	// Body is the host's JSON result: {"ok", "reason"?, "impossible"?} for
	// prompt and agent, an MCP CallToolResult {"content": [...],
	// "isError"?} for mcp_tool.
	Body json.RawMessage
	// Err is the host's error (a JSON-RPC error answer, a closed
	// connection); TimedOut reports that the handler's timeout ended the
	// request first.
	Err      string
	TimedOut bool
}

// Verdict is a prompt or agent handler's answer
// (https://code.claude.com/docs/en/hooks#response-schema): OK allows;
// OK false blocks with Reason (required then); Impossible (prompt, Stop
// and SubagentStop only) lets the turn end anyway.
type Verdict struct {
	OK         *bool  `json:"ok"`
	Reason     string `json:"reason,omitempty"`
	Impossible bool   `json:"impossible,omitempty"`
}

// MCPToolResult is an MCP tools/call result as the host passes it on:
// its text content items are the hook's output; IsError makes the hook a
// non-blocking error.
type MCPToolResult struct {
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	IsError bool `json:"isError,omitempty"`
}

// ParseClaudeDelegated interprets the host's answer for a delegated
// handler on event:
//
//   - timeout: timed_out, no decision; host error or a malformed result:
//     a non-blocking error (failed);
//   - mcp_tool: isError is a non-blocking error with the tool's text;
//     otherwise the text items, joined by newlines, are read exactly as a
//     command hook's stdout on exit 0
//     (https://code.claude.com/docs/en/hooks#mcp-tool-hook-fields);
//   - prompt, agent: ok true allows (succeeded, nothing said); ok false
//     has the event's effect from the reference's response schema
//     (https://code.claude.com/docs/en/hooks#response-schema):
//     Stop/SubagentStop continue with the reason (unless a prompt says
//     impossible); PreToolUse denies and, without continueOnBlock, ends
//     the turn; PostToolUse and TeammateIdle end the turn, or with
//     continueOnBlock give the reason to Claude; PostToolBatch,
//     UserPromptSubmit, UserPromptExpansion, PostToolUseFailure,
//     TaskCreated and TaskCompleted block with the reason as an exit 2
//     would; PermissionRequest and PermissionDenied ignore it. An agent
//     handler is read as a prompt handler with continueOnBlock.
func ParseClaudeDelegated(event string, r DelegatedResult) ClaudeAnswer {
	var a ClaudeAnswer
	label := string(r.Type) + " hook"
	fail := func(msg string) ClaudeAnswer {
		a.Outcome, a.Error = OutcomeFailed, validString(msg)
		a.HookError = label + " failed: " + a.Error
		return a
	}
	switch {
	case r.TimedOut:
		a.Outcome, a.Error = OutcomeTimedOut, "timed out"
		a.HookError = label + " timed out; no decision"
		return a
	case r.Err != "":
		return fail(r.Err)
	}
	body := bytes.TrimSpace(r.Body)
	if r.Type == hook.TypeMCPTool {
		var res MCPToolResult
		if len(body) == 0 || body[0] != '{' || jsonexact.Unmarshal(body, &res) != nil {
			return fail("the host's result is not an MCP tool result object")
		}
		var texts []string
		for _, c := range res.Content {
			if c.Type == "text" {
				texts = append(texts, c.Text)
			}
		}
		text := strings.Join(texts, "\n")
		if res.IsError {
			return fail("the tool returned an error: " + firstLine(strings.TrimSpace(text)))
		}
		a = ParseClaude(event, ProcessResult{ExitCode: 0, Stdout: []byte(text)})
		a.ExitCode = nil
		if a.HookError != "" {
			a.Outcome, a.Error = OutcomeFailed, a.HookError
		}
		return a
	}
	var v Verdict
	if len(body) == 0 || body[0] != '{' || jsonexact.Unmarshal(body, &v) != nil || v.OK == nil {
		return fail(`the host's result is not {"ok": boolean, "reason"?: string}`)
	}
	if *v.OK {
		a.Outcome = OutcomeSucceeded
		return a
	}
	reason := validString(strings.TrimSpace(v.Reason))
	if reason == "" {
		return fail(`"reason" is required when "ok" is false`)
	}
	cob := r.ContinueOnBlock || r.Type == hook.TypeAgent
	switch event {
	case hook.PermissionRequest, hook.PermissionDenied:
		a.Outcome = OutcomeSucceeded
		a.warn(`"ok": false has no effect on ` + event)
		return a
	case hook.Stop, hook.SubagentStop:
		if v.Impossible && r.Type == hook.TypePrompt {
			a.Outcome = OutcomeSucceeded
			return a
		}
	case hook.PreToolUse:
		out := map[string]any{"hookSpecificOutput": map[string]any{
			"hookEventName": hook.PreToolUse, "permissionDecision": "deny", "permissionDecisionReason": reason}}
		if !cob {
			out["continue"], out["stopReason"] = false, reason
		}
		b, _ := json.Marshal(out)
		a = ParseClaude(event, ProcessResult{ExitCode: 0, Stdout: b})
		a.ExitCode, a.Outcome, a.BlockReason = nil, OutcomeBlocked, reason
		return a
	case hook.PostToolUse, hook.TeammateIdle:
		if !cob {
			b, _ := json.Marshal(map[string]any{"continue": false, "stopReason": reason})
			a = ParseClaude(event, ProcessResult{ExitCode: 0, Stdout: b})
			a.ExitCode, a.Outcome, a.BlockReason = nil, OutcomeBlocked, reason
			return a
		}
	}
	// The effect of an exit code 2 with the reason as stderr.
	a = ParseClaude(event, ProcessResult{ExitCode: 2, Stderr: []byte(reason)})
	a.ExitCode = nil
	return a
}
