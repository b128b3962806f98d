package runner

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"testing"
)

// A tool event's tool name that is missing (or null) is "required"; one
// that is there but not a non-empty string says what it is instead, on
// the zcode profile (toolName or tool_name) and the claude one (tool_name;
// ExplainClaude refuses it as RunClaude does, and explains a call with no
// tool when it is absent).
func TestToolNameReason(t *testing.T) {
	required := "is required on PreToolUse and must be a non-empty string"
	cases := map[string]struct{ field, reason string }{
		`{}`:                 {"toolName", required},
		`{"toolName":null}`:  {"toolName", required},
		`{"toolName":42}`:    {"toolName", "must be a non-empty string, got a number"},
		`{"toolName":""}`:    {"toolName", "must be a non-empty string, got an empty string"},
		`{"tool_name":[1]}`:  {"tool_name", "must be a non-empty string, got an array"},
		`{"toolName":false}`: {"toolName", "must be a non-empty string, got a boolean"},
	}
	d := t.TempDir()
	s, _ := NewSession(SessionOptions{ID: "s1", Cwd: d, UserConfigPath: filepath.Join(d, "none.json")})
	t.Cleanup(s.Close)
	for in, want := range cases {
		_, err := s.Run(context.Background(), RunRequest{Event: "PreToolUse", Input: json.RawMessage(in)}, nil)
		var ie *InputError
		if !errors.As(err, &ie) || ie.Field != want.field || ie.Reason != want.reason {
			t.Errorf("zcode %s: %v, want input.%s %s", in, err, want.field, want.reason)
		}
	}
	e := newClaudeEnv(t)
	c := e.open(t, SessionOptions{})
	for in, want := range map[string]string{
		`{}`:                 required,
		`{"tool_name":7}`:    "must be a non-empty string, got a number",
		`{"tool_name":{}}`:   "must be a non-empty string, got an object",
		`{"tool_name":""}`:   "must be a non-empty string, got an empty string",
		`{"tool_name":null}`: required,
	} {
		_, err := c.RunClaude(context.Background(), RunRequest{Event: "PreToolUse", Input: json.RawMessage(in)}, nil)
		var ie *InputError
		if !errors.As(err, &ie) || ie.Field != "tool_name" || ie.Reason != want {
			t.Errorf("claude run %s: %v, want input.tool_name %s", in, err, want)
		}
		_, err = c.ExplainClaude("PreToolUse", json.RawMessage(in))
		refused := want != required && in != `{"tool_name":""}`
		if refused && (!errors.As(err, &ie) || ie.Field != "tool_name" || ie.Reason != want) {
			t.Errorf("claude explain %s: %v, want input.tool_name %s", in, err, want)
		}
		if !refused && err != nil {
			t.Errorf("claude explain %s: %v, want an explanation", in, err)
		}
	}
}
