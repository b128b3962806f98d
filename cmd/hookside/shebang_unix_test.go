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
