package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestJSONOutputIsNotHTMLEscaped: every --json output goes through
// writeJSON, so a value holding <, & and > (a command, a hook's stderr and
// block reason) is written as itself, never as \u003c \u0026 \u003e, and the
// output is still JSON: hooks list, hooks explain, hooks run on the zcode
// and the claude profile, and version.
func TestJSONOutputIsNotHTMLEscaped(t *testing.T) {
	e := newCLIEnv(t)
	const cmd = `echo 'a<&>b' >&2; exit 2`
	e.userConfig(t, oneHook("PreToolUse", map[string]any{"type": "command", "command": cmd}))
	ch := filepath.Join(e.root, "claudehome")
	writeFiles(t, map[string]string{
		filepath.Join(ch, "settings.json"): `{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"echo 'a<&>b' >&2; exit 2"}]}]}}`,
	})
	in := `{"tool_name":"Bash","tool_input":{"command":"ls"}}`
	for _, c := range []struct {
		name  string
		stdin string
		args  []string
		code  int
		want  string
	}{
		{"hooks list", "", []string{"hooks", "list", "--json"}, 0, `"command": "` + cmd + `"`},
		{"hooks explain", "", []string{"hooks", "explain", "--event", "PreToolUse", "--json"}, 0, `"command": "` + cmd + `"`},
		{"hooks run", in, []string{"hooks", "run", "--event", "PreToolUse", "--input", "-", "--json"}, 2, `"blockReason": "a<&>b"`},
		{"hooks run claude", in, []string{"hooks", "run", "--profile", "claude", "--claude-home", ch, "--event", "PreToolUse", "--input", "-", "--json"}, 2, `a<&>b`},
		{"version", "", []string{"version", "--json"}, 0, `"protocolVersion": "`},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out, errs := e.hookside(t, c.stdin, c.args...)
			if code != c.code {
				t.Fatalf("exit %d, want %d\n%s%s", code, c.code, out, errs)
			}
			if !json.Valid([]byte(out)) {
				t.Fatalf("not JSON:\n%s", out)
			}
			if !strings.Contains(out, c.want) || strings.Contains(out, `\u003c`) || strings.Contains(out, `\u0026`) || strings.Contains(out, `\u003e`) {
				t.Fatalf("output lacks %s or HTML-escapes it:\n%s", c.want, out)
			}
		})
	}
}

// TestOneJSONWriter: no command file builds its own JSON encoder; --json
// output has the one code path, writeJSON.
func TestOneJSONWriter(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) == 0 {
		t.Fatal("no sources", err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") || f == "termtext.go" {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(src), "json.NewEncoder(") {
			t.Errorf("%s builds a json.Encoder; write --json output with writeJSON", f)
		}
	}
}
