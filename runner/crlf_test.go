package runner

import (
	osexec "os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookside/hookside/internal/hook"
)

// TestScriptCRLFDiagnostics: at load, a hook whose script has Windows
// (CRLF) line endings gets a script_crlf_line_endings warning at its
// command: `bash SCRIPT` / `sh SCRIPT` (command or process hook) on every
// OS, and a script started through its #! line (a command hook's first
// word, a process hook's executable) where the system does that; a
// python script with CRLF, an LF script and a line that is not one simple
// command get none. Nothing is run.
func TestScriptCRLFDiagnostics(t *testing.T) {
	d := t.TempDir()
	cwd := filepath.Join(d, "proj")
	writeFileAll(t, filepath.Join(cwd, "h", "crlf.sh"), "#!/bin/sh\r\nexit 0\r\n")
	writeFileAll(t, filepath.Join(cwd, "h", "lf.sh"), "#!/bin/sh\nexit 0\n")
	writeFileAll(t, filepath.Join(cwd, "h", "crlf.py"), "import sys\r\nsys.exit(0)\r\n")
	// The #! line in LF, the rest in CRLF: bash reads `exit 0\r`.
	writeFileAll(t, filepath.Join(cwd, "h", "body.sh"), "#!/bin/bash\necho checking\r\nexit 0\r\n")
	writeFileAll(t, filepath.Join(cwd, "h", "envbody.sh"), "#!/usr/bin/env bash\nexit 0\r\n")
	writeFileAll(t, filepath.Join(cwd, "h", "body.py"), "#!/usr/bin/env python3\nimport sys\r\nsys.exit(0)\r\n")
	warned := map[string]string{ // command (process hooks: "process " + command) → message start
		"bash h/crlf.sh":         "PreToolUse: bash script h/crlf.sh (resolved against the session directory: " + filepath.Join(cwd, "h", "crlf.sh") + `) has Windows (CRLF) line endings: bash reads the carriage return (\r) ending each line`,
		"sh -e ./h/crlf.sh arg":  "PreToolUse: sh script ./h/crlf.sh",
		"process sh":             "PreToolUse: sh script h/crlf.sh",
		"./h/crlf.sh":            "PreToolUse: script ./h/crlf.sh (resolved against the session directory: " + filepath.Join(cwd, "h", "crlf.sh") + `) has Windows (CRLF) line endings: its #! line ends in a carriage return (\r), so the system looks for the interpreter "/bin/sh\r", which does not exist`,
		"process ./h/crlf.sh":    `PreToolUse: script ./h/crlf.sh (resolved against the session directory: ` + filepath.Join(cwd, "h", "crlf.sh") + `) has Windows (CRLF) line endings: its #! line ends in a carriage return (\r), so the system looks for the interpreter "/bin/sh\r", and the hook fails on every run without starting`,
		"./h/body.sh":            "PreToolUse: bash script ./h/body.sh (resolved against the session directory: " + filepath.Join(cwd, "h", "body.sh") + `) has Windows (CRLF) line endings: bash reads the carriage return (\r) ending each line`,
		"process ./h/envbody.sh": "PreToolUse: bash script ./h/envbody.sh",
	}
	if !shebangExec { // Windows starts no script through its #! line
		delete(warned, "./h/crlf.sh")
		delete(warned, "process ./h/crlf.sh")
		delete(warned, "./h/body.sh")
		delete(warned, "process ./h/envbody.sh")
	}
	if _, err := osexec.LookPath("sh"); err != nil { // process_hook_not_found instead
		delete(warned, "process sh")
	}
	quiet := []string{"bash h/lf.sh", "./h/lf.sh", "python3 h/crlf.py", "cd h && ./crlf.sh", "bash -c ./h/crlf.sh", "./h/body.py"}
	hs := []any{
		map[string]any{"type": "process", "command": "sh", "args": []string{"h/crlf.sh"}},
		map[string]any{"type": "process", "command": "./h/crlf.sh"},
		map[string]any{"type": "process", "command": "./h/envbody.sh"},
	}
	for _, c := range append([]string{"bash h/crlf.sh", "sh -e ./h/crlf.sh arg", "./h/crlf.sh", "./h/body.sh"}, quiet...) {
		hs = append(hs, map[string]any{"type": "command", "command": c})
	}
	cfg := filepath.Join(d, "config.json")
	writeJSON(t, cfg, map[string]any{"hooks": map[string]any{"enabled": true, "events": map[string]any{
		"PreToolUse": []any{map[string]any{"hooks": hs}},
	}}})
	s, diags := NewSession(SessionOptions{ID: "s1", Cwd: cwd, UserConfigPath: cfg})
	t.Cleanup(s.Close)
	got := map[string]bool{}
	for _, dg := range diags {
		if dg.Code != hook.CodeScriptCRLF {
			continue
		}
		if dg.Severity != hook.SeverityWarning || !strings.HasPrefix(dg.Source, cfg+":1:") {
			t.Errorf("diagnostic %+v: want a warning at %s:1:COL", dg, cfg)
		}
		matched := false
		for c, want := range warned {
			if strings.HasPrefix(dg.Message, want) && strings.HasSuffix(dg.Message, "; convert the file to LF line endings") {
				got[c], matched = true, true
			}
		}
		if !matched {
			t.Errorf("unexpected diagnostic %q", dg.Message)
		}
	}
	for c := range warned {
		if !got[c] {
			t.Errorf("%q: no script_crlf_line_endings diagnostic; diagnostics %v", c, diags)
		}
	}
}
