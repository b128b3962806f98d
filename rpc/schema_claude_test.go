package rpc

import (
	"encoding/json"
	"path/filepath"
	"testing"
)

// claudeTraffic drives a claude-profile session over a real connection and
// checks every frame against the schema: the claude hooks/run result
// (decision fields, envExports, asyncResults, stop), hook/asyncRewake and
// the host/hook/prompt, host/hook/agent and host/hook/mcpTool requests.
func claudeTraffic(t *testing.T, sch *schemaDoc) *wire {
	claudeHome := t.TempDir()
	ws := t.TempDir()
	cmd := func(c string) map[string]any { return map[string]any{"type": "command", "command": c, "timeout": 10} }
	group := func(matcher string, hs ...map[string]any) []any {
		g := map[string]any{"hooks": hs}
		if matcher != "" {
			g["matcher"] = matcher
		}
		return []any{g}
	}
	rewake := cmd(`cat >/dev/null; echo '{"systemMessage":"review done","rewakeSummary":"1 finding"}'; echo 'found one issue' >&2; exit 2`)
	rewake["asyncRewake"], rewake["rewakeMessage"] = true, "Background review:"
	settings, _ := json.Marshal(map[string]any{"hooks": map[string]any{
		"SessionStart": group("", cmd(`cat >/dev/null; echo 'export A=1' >> "$CLAUDE_ENV_FILE"; echo 'branch main'`)),
		"PreToolUse": group("Bash",
			cmd(`cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"check","updatedInput":{"command":"ls -la"}}}'`),
			map[string]any{"type": "prompt", "prompt": "Safe? $ARGUMENTS", "model": "fast"}),
		"PermissionRequest": group("", cmd(`cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedPermissions":[{"type":"addRules","rules":[{"toolName":"Bash"}],"behavior":"allow","destination":"session"}]}}}'`)),
		"PostToolUse":       group("Write", map[string]any{"type": "mcp_tool", "server": "lint", "tool": "check", "input": map[string]any{"path": "${tool_input.file_path}"}}, rewake),
		"Stop":              group("", map[string]any{"type": "agent", "prompt": "Verify the tests pass."}),
	}})
	writeFile(t, filepath.Join(claudeHome, "settings.json"), string(settings), 0o600)
	host := map[string]func(json.RawMessage) any{
		"host/hook/prompt": func(json.RawMessage) any { return map[string]any{"ok": true} },
		"host/hook/agent":  func(json.RawMessage) any { return map[string]any{"ok": false, "reason": "2 tests fail"} },
		"host/hook/mcpTool": func(json.RawMessage) any {
			return map[string]any{"content": []any{map[string]any{"type": "text", "text": `{"decision":"block","reason":"lint: 1 error"}`}}}
		},
	}
	c := startWire(t, sch, t.TempDir(), host)
	c.ok("initialize", map[string]any{"protocolVersion": "1", "clientInfo": map[string]any{"name": "schema-claude", "version": "1"},
		"capabilities": map[string]any{"delegatedHookTypes": []string{"prompt", "agent", "mcp_tool"}}}, nil)
	c.notify("initialized", map[string]any{})
	c.ok("session/open", map[string]any{"sessionId": "c1", "cwd": ws, "profile": "claude", "claudeHomeDir": claudeHome}, nil)
	c.ok("hooks/list", map[string]any{"sessionId": "c1"}, nil)
	var start struct {
		EnvExports []string `json:"envExports"`
	}
	c.ok("hooks/run", map[string]any{"sessionId": "c1", "event": "SessionStart", "input": map[string]any{"source": "startup"}}, &start)
	if len(start.EnvExports) != 1 {
		t.Errorf("SessionStart envExports %v", start.EnvExports)
	}
	var pre struct {
		PermissionDecision string `json:"permissionDecision"`
	}
	c.ok("hooks/run", map[string]any{"sessionId": "c1", "event": "PreToolUse", "input": map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "ls"}}}, &pre)
	if pre.PermissionDecision != "ask" {
		t.Errorf("PreToolUse permissionDecision %q, want ask", pre.PermissionDecision)
	}
	c.ok("hooks/run", map[string]any{"sessionId": "c1", "event": "PermissionRequest", "input": map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "ls"}}}, nil)
	// The asyncRewake hook's result rides on the first reply after it
	// finished: this one or Stop's.
	var post struct {
		Feedback     []string          `json:"feedback"`
		AsyncResults []json.RawMessage `json:"asyncResults"`
	}
	c.ok("hooks/run", map[string]any{"sessionId": "c1", "event": "PostToolUse", "input": map[string]any{"tool_name": "Write", "tool_input": map[string]any{"file_path": "/p/a.ts"}}}, &post)
	if len(post.Feedback) != 1 {
		t.Errorf("PostToolUse feedback %v", post.Feedback)
	}
	c.waitNote("hook/asyncRewake", nil)
	var stop struct {
		Stop struct {
			ContinueTurn bool `json:"continueTurn"`
		} `json:"stop"`
		AsyncResults []struct {
			Wake bool `json:"wake"`
		} `json:"asyncResults"`
	}
	c.ok("hooks/run", map[string]any{"sessionId": "c1", "event": "Stop", "input": map[string]any{"stop_hook_active": false}}, &stop)
	if !stop.Stop.ContinueTurn || len(post.AsyncResults)+len(stop.AsyncResults) != 1 || (len(stop.AsyncResults) == 1 && !stop.AsyncResults[0].Wake) {
		t.Errorf("Stop: %+v", stop)
	}
	c.ok("session/close", map[string]any{"sessionId": "c1"}, nil)
	c.ok("shutdown", nil, nil)
	c.notify("exit", nil)
	<-c.done
	return c
}
