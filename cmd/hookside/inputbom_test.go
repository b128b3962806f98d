package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunInputWithBOM: a --input file that starts with a UTF-8 byte order
// mark (as Windows editors write it) is read as the object after it, by
// hooks run (the hook gets the input without the mark) and by hooks
// explain --profile claude; the positions of a later problem are those of
// the file as an editor shows it: the mark takes no column.
func TestRunInputWithBOM(t *testing.T) {
	e := newCLIEnv(t)
	got := filepath.Join(e.root, "got.json")
	e.userConfig(t, oneHook("PreToolUse", map[string]any{"type": "command", "command": "cat > '" + got + "'"}))
	in := filepath.Join(e.root, "bom.json")
	writeFiles(t, map[string]string{in: "\ufeff{\"toolName\":\"Bash\",\"toolInput\":{\"command\":\"ls\"}}\n"})
	code, out, errs := e.hookside(t, "", "hooks", "run", "--event", "PreToolUse", "--input", in)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	b, err := os.ReadFile(got)
	if err != nil {
		t.Fatal("the hook did not run: ", err)
	}
	if !strings.Contains(string(b), `"command":"ls"`) || strings.Contains(string(b), "\ufeff") {
		t.Errorf("the hook's input %q: want the file's object without the mark", b)
	}
	code, out, errs = e.hookside(t, "\ufeff{\"tool_name\":\"Bash\"}", "hooks", "explain", "--profile", "claude", "--event", "PreToolUse", "--input", "-")
	if code != 0 || strings.Contains(errs, "invalid") {
		t.Errorf("explain --profile claude: exit %d\n%s%s", code, out, errs)
	}
	for stdin, want := range map[string]string{
		"\ufeff{\"toolName\":\"Bash\",\"toolName\":\"Write\"}": `<stdin>:1:20: duplicate member "toolName"`,
		"\ufeff{\"a.b\":1,\"a.b\":2}":                          `<stdin>:1:10: duplicate member "['a.b']"`,
		"\ufeff{\n  \"x\": ,\n}":                               "<stdin>:2:8: invalid JSON: invalid character ','",
		"\ufeff[1]":                                            "<stdin>:1:1: the input must be a JSON object: got a JSON array",
		"\ufeff\ufeff{}":                                       "<stdin>:1:1: invalid JSON: a byte order mark (U+FEFF), which JSON does not carry",
		"\ufeff{\"a\":\"\xff\"}":                               "<stdin>:1:7: the input is not valid UTF-8: byte 0xff at offset 9",
	} {
		code, _, errs := e.hookside(t, stdin, "hooks", "run", "--event", "PreToolUse", "--input", "-")
		if code != 1 || !strings.Contains(errs, want) {
			t.Errorf("stdin %q: exit %d, stderr %q, want exit 1 and %q", stdin, code, errs, want)
		}
	}
	code, _, errs = e.hookside(t, "\ufeff{\"tool_name\":\"Bash\",\"tool_name\":\"Write\"}", "hooks", "explain", "--profile", "claude", "--event", "PreToolUse", "--input", "-")
	if want := `<stdin>:1:21: duplicate member "tool_name"`; code != 1 || !strings.Contains(errs, want) {
		t.Errorf("explain: exit %d, stderr %q, want exit 1 and %q", code, errs, want)
	}
}
