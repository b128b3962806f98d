package config

import (
	"slices"
	"strings"
	"testing"

	"github.com/hookside/hookside/internal/hook"
)

func TestDelegatedHandlers(t *testing.T) {
	d := hook.Claude.WithHostTypes(hook.DelegatedTypes)
	src := `{"hooks":{
	  "PreToolUse":[{"matcher":"Bash","hooks":[
	    {"type":"prompt","prompt":"Safe? $ARGUMENTS","model":"m1","continueOnBlock":true},
	    {"type":"agent","prompt":"Verify","timeout":90,"continueOnBlock":true},
	    {"type":"mcp_tool","server":"s","tool":"t","input":{"p":"${tool_input.command}","n":[1,2]}},
	    {"type":"mcp_tool","server":"s","tool":"t2"},
	    {"type":"prompt","prompt":"   "},
	    {"type":"mcp_tool","tool":"t"},
	    {"type":"mcp_tool","server":"s","tool":"t","input":"x"}]}],
	  "SessionStart":[{"hooks":[{"type":"prompt","prompt":"hi"},{"type":"http","url":"http://127.0.0.1:1/x"},{"type":"mcp_tool","server":"s","tool":"t"}]}],
	  "Stop":[{"hooks":[{"type":"prompt","prompt":"done?"}]}]}}`
	f, diags := ParseSettingsFile(d, "/s.json", []byte(src), hook.SourceUser)
	types := make([]string, 0, len(f.Hooks))
	for _, h := range f.Hooks {
		types = append(types, h.Event+":"+string(h.Type))
	}
	want := []string{"PreToolUse:prompt", "PreToolUse:agent", "PreToolUse:mcp_tool", "PreToolUse:mcp_tool", "SessionStart:mcp_tool", "Stop:prompt"}
	if !slices.Equal(types, want) {
		t.Fatalf("hooks %v, want %v; diags %v", types, want, diags)
	}
	p, a, m := f.Hooks[0], f.Hooks[1], f.Hooks[2]
	if p.Delegated.Prompt != "Safe? $ARGUMENTS" || p.Delegated.Model != "m1" || !p.Delegated.ContinueOnBlock || p.TimeoutMs != 30000 {
		t.Errorf("prompt %+v %+v", p, p.Delegated)
	}
	if a.Delegated.ContinueOnBlock || a.TimeoutMs != 90000 {
		t.Errorf("agent %+v %+v", a, a.Delegated)
	}
	if f.Hooks[5].TimeoutMs != 30000 || f.Hooks[4].TimeoutMs != 600000 {
		t.Errorf("default timeouts %d %d", f.Hooks[5].TimeoutMs, f.Hooks[4].TimeoutMs)
	}
	if string(m.Delegated.Input) != `{"p":"${tool_input.command}","n":[1,2]}` || m.Command != `{"type":"mcp_tool","server":"s","tool":"t","input":{"p":"${tool_input.command}","n":[1,2]}}` {
		t.Errorf("mcp_tool input %s, command %s", m.Delegated.Input, m.Command)
	}
	c := codes(diags)
	for _, code := range []string{hook.CodeInvalidHook, hook.CodeClaudeTypeNotOnEvent, hook.CodeIgnoredField} {
		if !slices.Contains(c, code) {
			t.Errorf("no %s in %v", code, c)
		}
	}
	if n := strings.Count(strings.Join(c, ","), hook.CodeClaudeTypeNotOnEvent); n != 2 {
		t.Errorf("%d claude_type_not_on_event, want 2 (prompt and http on SessionStart): %v", n, diags)
	}

	// Without the host: skipped with claude_delegated_type.
	f, diags = ParseSettingsFile(hook.Claude, "/s.json", []byte(src), hook.SourceUser)
	if len(f.Hooks) != 0 || !slices.Contains(codes(diags), hook.CodeClaudeDelegatedType) {
		t.Errorf("without the host: %d hooks, %v", len(f.Hooks), codes(diags))
	}
}

// TestClaudeUnknownHandlerType: a handler type no dialect knows is an
// unknown type naming the claude profile's types (and the one it
// misspells), not a delegated type the host did not declare; a missing
// type names them too. A delegated type stays claude_delegated_type.
func TestClaudeUnknownHandlerType(t *testing.T) {
	for typ, want := range map[string]string{
		`"type":"comand",`:  `Stop[0][0]: unknown type "comand" (want "command" or "http"; did you mean "command"?); declaration dropped`,
		`"type":"Command",`: `Stop[0][0]: unknown type "Command" (want "command" or "http"; did you mean "command"?); declaration dropped`,
		`"type":"bogus",`:   `Stop[0][0]: unknown type "bogus" (want "command" or "http"); declaration dropped`,
		``:                  `Stop[0][0]: missing type (want "command" or "http"); declaration dropped`,
	} {
		src := `{"hooks":{"Stop":[{"hooks":[{` + typ + `"command":"true"}]}]}}`
		f, diags := ParseSettingsFile(hook.Claude, "/s.json", []byte(src), hook.SourceUser)
		if len(f.Hooks) != 0 || len(diags) != 1 || diags[0].Code != hook.CodeInvalidHook || diags[0].Message != want {
			t.Errorf("%s: %d hooks, diagnostics %+v; want one %s: %s", typ, len(f.Hooks), diags, hook.CodeInvalidHook, want)
		}
	}
	src := `{"hooks":{"Stop":[{"hooks":[{"type":"prompt","prompt":"done?"}]}]}}`
	if _, diags := ParseSettingsFile(hook.Claude, "/s.json", []byte(src), hook.SourceUser); len(diags) != 1 || diags[0].Code != hook.CodeClaudeDelegatedType {
		t.Errorf("prompt without the host: %+v, want %s", diags, hook.CodeClaudeDelegatedType)
	}
}
