package rpc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/internal/randid"
	"github.com/hookside/hookside/runner"
	"github.com/sourcegraph/jsonrpc2"
)

// The claude profile's prompt, agent and mcp_tool handlers need a model or
// an MCP client, which the host has (docs/protocol.md "Delegated hook
// handlers"). A host that lists a type in initialize
// capabilities.delegatedHookTypes gets one server→client request per
// handler run; hookside parses the result as the handler's answer
// (output.ParseClaudeDelegated). When the run is cancelled or the
// handler's timeout passes first, hookside sends $/cancelRequest {id} and
// stops waiting.
const (
	// MethodHookPrompt: {sessionId, runId, hookId, event, prompt, model?,
	// timeoutMs, hookInput} → {ok, reason?, impossible?}.
	MethodHookPrompt = "host/hook/prompt"
	// MethodHookAgent: the same params and result as MethodHookPrompt; the
	// host runs a subagent with tool access.
	MethodHookAgent = "host/hook/agent"
	// MethodHookMCPTool: {sessionId, runId, hookId, event, server, tool,
	// arguments, timeoutMs, hookInput} → an MCP CallToolResult {content,
	// isError?}.
	MethodHookMCPTool = "host/hook/mcpTool"
)

type hookPromptParams struct {
	SessionID string          `json:"sessionId"`
	RunID     string          `json:"runId"`
	HookID    string          `json:"hookId"`
	Event     string          `json:"event"`
	Prompt    string          `json:"prompt"`
	Model     string          `json:"model,omitempty"`
	TimeoutMs int             `json:"timeoutMs"`
	HookInput json.RawMessage `json:"hookInput"`
}

type hookMCPToolParams struct {
	SessionID string          `json:"sessionId"`
	RunID     string          `json:"runId"`
	HookID    string          `json:"hookId"`
	Event     string          `json:"event"`
	Server    string          `json:"server"`
	Tool      string          `json:"tool"`
	Arguments json.RawMessage `json:"arguments"`
	TimeoutMs int             `json:"timeoutMs"`
	HookInput json.RawMessage `json:"hookInput"`
}

// delegatedTypes returns the handler types the host declared it runs.
func (s *Server) delegatedTypes() []hook.HookType {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.init == nil {
		return nil
	}
	out := make([]hook.HookType, 0, len(s.init.Capabilities.DelegatedHookTypes))
	for _, t := range s.init.Capabilities.DelegatedHookTypes {
		out = append(out, hook.HookType(t))
	}
	return out
}

// delegate is the runner.DelegateFunc of this connection's sessions.
func (s *Server) delegate(ctx context.Context, c runner.DelegatedCall) (json.RawMessage, error) {
	var method string
	var params any
	switch c.Type {
	case hook.TypePrompt, hook.TypeAgent:
		method = MethodHookPrompt
		if c.Type == hook.TypeAgent {
			method = MethodHookAgent
		}
		params = hookPromptParams{SessionID: c.SessionID, RunID: c.RunID, HookID: c.HookID, Event: c.Event,
			Prompt: c.Prompt, Model: c.Model, TimeoutMs: c.TimeoutMs, HookInput: c.Input}
	case hook.TypeMCPTool:
		method = MethodHookMCPTool
		params = hookMCPToolParams{SessionID: c.SessionID, RunID: c.RunID, HookID: c.HookID, Event: c.Event,
			Server: c.Server, Tool: c.Tool, Arguments: c.Arguments, TimeoutMs: c.TimeoutMs, HookInput: c.Input}
	default:
		return nil, fmt.Errorf("handler type %q is not delegated", c.Type)
	}
	id := jsonrpc2.ID{Str: randid.New("hook-"), IsString: true}
	w, err := s.conn.DispatchCall(ctx, method, params, jsonrpc2.PickID(id))
	if err != nil {
		return nil, hostCallError(ctx, err)
	}
	var raw json.RawMessage
	if err := w.Wait(ctx, &raw); err != nil {
		if ctx.Err() != nil {
			// The host may still be working on it: tell it to stop.
			_ = s.conn.Notify(context.Background(), "$/cancelRequest", map[string]any{"id": id})
		}
		return nil, hostCallError(ctx, err)
	}
	return raw, nil
}

// hostCallError describes a failed host request: ctx.Err() when the
// context ended, the host's JSON-RPC error, or a closed connection.
func hostCallError(ctx context.Context, err error) error {
	var je *jsonrpc2.Error
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case errors.As(err, &je):
		return fmt.Errorf("host error %d: %s", je.Code, je.Message)
	case errors.Is(err, jsonrpc2.ErrClosed):
		return errors.New("host connection closed")
	}
	return err
}
