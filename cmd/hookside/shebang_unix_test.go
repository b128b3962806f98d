//go:build !windows

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestProcessHookBadShebang: a process hook script that exists but cannot
// start because of its "#!" line fails with a run error that says why —
// CRLF line endings, a missing interpreter, one that is not executable —
// instead of "no such file or directory" about the script, which exists.
func TestProcessHookBadShebang(t *testing.T) {
	e := newCLIEnv(t)
	scripts := []struct{ name, body, want string }{
		{"crlf.sh", "#!/bin/sh\r\necho '{}'\r\n", "ends in a carriage return (\\r): the file has Windows (CRLF) line endings"},
		{"typo.py", "#!/usr/bin/pyhton3-hookside-missing\nprint('{}')\n", "the interpreter /usr/bin/pyhton3-hookside-missing named by the #! line of " + filepath.Join(e.ws, "typo.py") + " does not exist"},
		{"dir.sh", "#!" + e.ws + "\necho\n", "the interpreter " + e.ws + " named by the #! line of " + filepath.Join(e.ws, "dir.sh") + " is not an executable file"},
	}
	var hooks []any
	for _, s := range scripts[:3] {
		if err := os.WriteFile(filepath.Join(e.ws, s.name), []byte(s.body), 0o755); err != nil {
			t.Fatal(err)
		}
		hooks = append(hooks, map[string]any{"type": "process", "command": filepath.Join(e.ws, s.name)})
	}
	// A FIFO in a script's place (refused with a permission error) is not
	// opened for its #! line: the run fails at once, it does not hang.
	fifo := filepath.Join(e.ws, "fifo.sh")
	if err := syscall.Mkfifo(fifo, 0o755); err != nil {
		t.Fatal(err)
	}
	hooks = append(hooks, map[string]any{"type": "process", "command": fifo})
	scripts = append(scripts, struct{ name, body, want string }{"fifo.sh", "", "permission denied"})
	e.userConfig(t, map[string]any{"PreToolUse": []any{map[string]any{"hooks": hooks}}})
	in := `{"toolName":"Bash","toolInput":{"command":"ls"}}`
	code, out, errs := e.hookside(t, in, "hooks", "run", "--event", "PreToolUse", "--input", "-", "--json")
	if code != 0 {
		t.Fatalf("exit %d, want 0 (not blocked)\n%s%s", code, out, errs)
	}
	var m struct {
		Runs []struct{ Outcome, Error string }
	}
	if err := json.Unmarshal([]byte(out), &m); err != nil || len(m.Runs) != len(scripts) {
		t.Fatal(err, out)
	}
	for i, r := range m.Runs {
		if r.Outcome != "failed" || !strings.Contains(r.Error, scripts[i].want) {
			t.Errorf("%s: %+v, want failed with %q", scripts[i].name, r, scripts[i].want)
		}
	}
}

// TestCommandHookCRLF: a command hook whose line is a script's path, the
// script having Windows (CRLF) line endings, is warned about at load
// (script_crlf_line_endings at the command's file:line:col), noted by
// `hooks explain`, and its run's exit 127 (sh's "not found") says the
// real cause; a missing #! interpreter is named the same way on the run.
// `sh SCRIPT` with a CRLF script is warned about too; `python3 SCRIPT` is
// not (python reads CRLF lines as LF ones).
func TestCommandHookCRLF(t *testing.T) {
	e := newCLIEnv(t)
	files := map[string]string{
		"crlf.sh":  "#!/bin/sh\r\necho blocked >&2\r\nexit 2\r\n",
		"typo.sh":  "#!/usr/bin/hookside-missing-interp\nexit 2\n",
		"plain.sh": "echo hi\r\nexit 0\r\n",
		"ok.py":    "import sys\r\nsys.exit(0)\r\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(e.ws, name), []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	crlf := filepath.Join(e.ws, "crlf.sh")
	e.userConfig(t, map[string]any{"PreToolUse": []any{map[string]any{"hooks": []any{
		map[string]any{"type": "command", "command": crlf},
		map[string]any{"type": "command", "command": "./typo.sh"},
	}}}})
	cfg := filepath.Join(e.home, "config.json")
	in := `{"toolName":"Bash","toolInput":{"command":"ls"}}`
	code, out, errs := e.hookside(t, in, "hooks", "run", "--event", "PreToolUse", "--input", "-", "--json")
	if code != 0 {
		t.Fatalf("exit %d, want 0 (the guard fails open)\n%s%s", code, out, errs)
	}
	var m struct {
		Runs []struct {
			Outcome, Error string
			ExitCode       *int
		}
	}
	if err := json.Unmarshal([]byte(out), &m); err != nil || len(m.Runs) != 2 {
		t.Fatal(err, out)
	}
	wants := []string{
		"exit code 127: the #! line of " + crlf + ` ends in a carriage return (\r): the file has Windows (CRLF) line endings, so the system looks for the interpreter "/bin/sh\r"`,
		"exit code 127: the interpreter /usr/bin/hookside-missing-interp named by the #! line of " + filepath.Join(e.ws, "typo.sh") + " does not exist",
	}
	for i, r := range m.Runs {
		if r.Outcome != "failed" || r.ExitCode == nil || *r.ExitCode != 127 || !strings.Contains(r.Error, wants[i]) {
			t.Errorf("run %d: %+v, want failed, exit 127, error holding %q", i, r, wants[i])
		}
	}
	warn := cfg + ":1:"
	if n := strings.Count(errs, "[script_crlf_line_endings]"); n != 1 || !strings.Contains(errs, warn) ||
		!strings.Contains(errs, `warning: PreToolUse: script `+crlf+` has Windows (CRLF) line endings: its #! line ends in a carriage return (\r), so the system looks for the interpreter "/bin/sh\r", which does not exist, and the shell reports the script as not found (exit 127): the hook fails open on every run`) {
		t.Errorf("want one script_crlf_line_endings warning at %s…; stderr:\n%s", warn, errs)
	}

	e.userConfig(t, map[string]any{"PreToolUse": []any{map[string]any{"hooks": []any{
		map[string]any{"type": "command", "command": crlf},
		map[string]any{"type": "command", "command": "sh plain.sh"},
		map[string]any{"type": "command", "command": "python3 ok.py"},
		map[string]any{"type": "process", "command": "./crlf.sh"},
	}}}})
	code, out, errs = e.hookside(t, in, "hooks", "explain", "--event", "PreToolUse", "--input", "-", "--json")
	if code != 0 {
		t.Fatalf("explain: exit %d\n%s%s", code, out, errs)
	}
	var x struct {
		Hooks []struct{ Command, Detail string }
	}
	if err := json.Unmarshal([]byte(out), &x); err != nil || len(x.Hooks) != 4 {
		t.Fatal(err, out)
	}
	notes := []string{
		"runs, then fails: script " + crlf + " has Windows (CRLF) line endings",
		"runs, then misreads its script: sh script plain.sh (resolved against the session directory: " + filepath.Join(e.ws, "plain.sh") + `) has Windows (CRLF) line endings: sh reads the carriage return (\r) ending each line as part of the line`,
		"",
		"fails without starting: script ./crlf.sh (resolved against the session directory: " + crlf + ") has Windows (CRLF) line endings",
	}
	for i, h := range x.Hooks {
		if notes[i] == "" && h.Detail != "" || !strings.HasPrefix(h.Detail, notes[i]) {
			t.Errorf("explain %s: detail %q, want %q…", h.Command, h.Detail, notes[i])
		}
	}
}
