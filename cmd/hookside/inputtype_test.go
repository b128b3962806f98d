package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunInputTypeErrorPlace: an --input member of the wrong type is
// refused (exit 1) at its place in the file, as a syntax error is — the
// value's line and column, a byte order mark taking none — by hooks run
// on the zcode and claude profiles and by hooks explain --profile claude;
// a tool name that is there but not a non-empty string says what it is
// ("got a number"), one that is missing says "required" (no place: it is
// nowhere). --json carries the same message.
func TestRunInputTypeErrorPlace(t *testing.T) {
	e := newCLIEnv(t)
	t2 := filepath.Join(e.root, "t2.json")
	writeFiles(t, map[string]string{t2: "{\n \"toolName\":\"Bash\",\n \"toolInput\":\"rm\"\n}"})
	cases := []struct {
		stdin string
		args  []string
		want  string
	}{
		{"", []string{"hooks", "run", "--event", "PreToolUse", "--input", t2},
			"hookside hooks run: " + t2 + ":3:14: input.toolInput must be an object, not a string\n"},
		{`{"toolName":42}`, []string{"hooks", "run", "--event", "PreToolUse", "--input", "-"},
			"hookside hooks run: <stdin>:1:13: input.toolName must be a non-empty string, got a number\n"},
		{`{"toolName":""}`, []string{"hooks", "run", "--event", "PostToolUse", "--input", "-"},
			"hookside hooks run: <stdin>:1:13: input.toolName must be a non-empty string, got an empty string\n"},
		{`{"toolName":null}`, []string{"hooks", "run", "--event", "PreToolUse", "--input", "-"},
			"hookside hooks run: <stdin>:1:13: input.toolName is required on PreToolUse and must be a non-empty string\n"},
		{`{}`, []string{"hooks", "run", "--event", "PreToolUse", "--input", "-"},
			"hookside hooks run: input.toolName is required on PreToolUse and must be a non-empty string\n"},
		{"\ufeff{\"prompt\":\"x\",\n\"attachments\":[{\"name\":\"a\"},{\"name\":\"b\",\"size\":1.5}]}", []string{"hooks", "run", "--event", "UserPromptSubmit", "--input", "-"},
			"hookside hooks run: <stdin>:2:48: input.attachments[1].size must be an integer\n"},
		{"{\n  \"tool_name\": 42\n}", []string{"hooks", "run", "--profile", "claude", "--event", "PreToolUse", "--input", "-"},
			"hookside hooks run: <stdin>:2:16: input.tool_name must be a non-empty string, got a number\n"},
		{`{"tool_name":"Bash","cwd":"rel"}`, []string{"hooks", "run", "--profile", "claude", "--event", "PreToolUse", "--input", "-"},
			"hookside hooks run: <stdin>:1:27: input.cwd must be an absolute path, not \"rel\"\n"},
		{`{"tool_name":{"a":1}}`, []string{"hooks", "explain", "--profile", "claude", "--event", "PreToolUse", "--input", "-"},
			"hookside hooks explain: <stdin>:1:14: input.tool_name must be a non-empty string, got an object\n"},
	}
	for _, c := range cases {
		code, out, errs := e.hookside(t, c.stdin, c.args...)
		if code != 1 || errs != c.want || out != "" {
			t.Errorf("%q %v: exit %d, stdout %q, stderr %q; want exit 1, stderr %q", c.stdin, c.args, code, out, errs, c.want)
		}
		code, out, _ = e.hookside(t, c.stdin, append(c.args, "--json")...)
		var m struct{ Error struct{ Message string } }
		msg := strings.TrimSpace(strings.TrimPrefix(c.want, "hookside "+c.args[0]+" "+c.args[1]+": "))
		if code != 1 || json.Unmarshal([]byte(out), &m) != nil || m.Error.Message != msg {
			t.Errorf("%q %v --json: exit %d, stdout %q; want error.message %q", c.stdin, c.args, code, out, msg)
		}
	}
	// explain without a tool, or with --tool filling tool_name in, is no error.
	for _, args := range [][]string{{"--input", "-"}, {"--input", "-", "--tool", "Bash"}} {
		code, out, errs := e.hookside(t, `{"tool_input":{}}`, append([]string{"hooks", "explain", "--profile", "claude", "--event", "PreToolUse"}, args...)...)
		if code != 0 {
			t.Errorf("explain %v: exit %d\n%s%s", args, code, out, errs)
		}
	}
}
