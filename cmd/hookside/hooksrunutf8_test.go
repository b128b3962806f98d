package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunInputNotUTF8: a --input holding a byte that is not UTF-8 (RFC
// 8259 §8.1) is refused with its file:line:col, the byte and its offset,
// exit 1, and no hook runs (a hook reading its stdin strictly would fail
// on it, and a failed guard lets the tool run).
func TestRunInputNotUTF8(t *testing.T) {
	e := newCLIEnv(t)
	in := filepath.Join(e.root, "bad.json")
	writeFiles(t, map[string]string{in: "{\"tool_name\": \"Bash\",\n \"tool_input\": {\"command\": \"rm -rf / \xff\"}}"})
	code, _, errs := e.hookside(t, "", "hooks", "run", "--event", "PreToolUse", "--input", in)
	if want := in + ":2:38: the input is not valid UTF-8: byte 0xff at offset 59"; code != 1 || !strings.Contains(errs, want) {
		t.Errorf("exit %d, stderr %q, want exit 1 and %q", code, errs, want)
	}
	code, out, errs := e.hookside(t, "{\"a\": \"\xed\xa0\x80\"}", "hooks", "run", "--event", "PreToolUse", "--input", "-", "--json")
	if want := `<stdin>:1:8: the input is not valid UTF-8: byte 0xed at offset 7`; code != 1 || !strings.Contains(out, want) || !strings.Contains(out, `"error"`) {
		t.Errorf("--json: exit %d, stdout %q, stderr %q, want exit 1 and %q", code, out, errs, want)
	}
	if code, _, errs := e.hookside(t, `{"tool_name": "Bash", "tool_input": {"command": "echo é ✓"}}`, "hooks", "run", "--event", "PreToolUse", "--input", "-"); code != 0 {
		t.Errorf("valid UTF-8: exit %d, stderr %q", code, errs)
	}
}

// TestRunInputTooLarge: an --input over the 64 MiB frame limit (here a
// sparse file; /dev/zero alike) is refused once the limit is passed, not
// read to the end, exit 1, and no hook runs.
func TestRunInputTooLarge(t *testing.T) {
	e := newCLIEnv(t)
	in := filepath.Join(e.root, "huge.json")
	writeFiles(t, map[string]string{in: ""})
	if err := os.Truncate(in, maxInputBytes+1); err != nil {
		t.Fatal(err)
	}
	code, _, errs := e.hookside(t, "", "hooks", "run", "--event", "PreToolUse", "--input", in)
	if want := "read input: --input " + in + ": larger than 64 MiB"; code != 1 || !strings.Contains(errs, want) {
		t.Errorf("exit %d, stderr %q, want exit 1 and %q", code, errs, want)
	}
}
