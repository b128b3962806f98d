package pin

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookside/hookside/internal/hook"
)

// TestWindowsSyntax is the table of command lines the scanner cannot read
// on Windows (the rule runs on every OS; PinScriptsIn applies it on
// Windows only): each is refused with a reason, never pinned.
func TestWindowsSyntax(t *testing.T) {
	sh := func(cmd, shell string) hook.Hook {
		h := cmdHook(cmd)
		if shell != "" {
			h.Shell = hook.ShellProgram(shell)
		}
		return h
	}
	proc := func(cmd string, args ...string) hook.Hook {
		h := cmdHook(cmd)
		h.Type, h.Args = hook.TypeProcess, args
		return h
	}
	tests := []struct {
		name string
		h    hook.Hook
		want string // "" = readable; else a part of the reason
	}{
		{"posix_default", sh("bash ./hooks/x.sh", ""), ""},
		{"git_bash_exe", sh("./hooks/x.sh", "bash.exe"), ""},
		{"drive_path_forward_slashes", sh("bash C:/work/hooks/x.sh", ""), ""},
		{"host_port_arg", proc("node", "hooks/x.js", "localhost:8080"), ""},
		{"cmd", sh("hooks\\x.cmd", "cmd"), "cmd.exe syntax"},
		{"cmd_exe_path", sh("echo hi", "C:/Windows/System32/cmd.exe"), "cmd.exe syntax"},
		{"powershell", sh("./hooks/x.ps1", "powershell"), "PowerShell"},
		{"pwsh_with_args", sh("./hooks/x.ps1", "pwsh -NoProfile -Command"), "PowerShell"},
		{"fish", sh("./hooks/x.fish", "fish"), "not a POSIX shell"},
		{"backslash_command", sh(`bash hooks\x.sh`, ""), "backslash"},
		{"backslash_process_arg_is_literal", proc("node", `C:\w\hooks\x.js`), ""},
		{"backslash_escape", sh(`bash hooks/my\ script.sh`, ""), "backslash"},
		{"short_name", sh("bash C:/PROGRA~1/hooks/x.sh", ""), "8.3 short name"},
		{"short_name_file", proc("node", "hooks/GUARD~1.JS"), "8.3 short name"},
		{"ads", sh("bash hooks/x.sh:stream", ""), "alternate data stream"},
		{"ads_after_drive", proc("node", "C:/w/x.js:evil"), "alternate data stream"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := windowsSyntax(tc.h)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if !errors.Is(err, ErrUnreadableSyntax) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want ErrUnreadableSyntax naming %q", err, tc.want)
			}
		})
	}
}

// On Windows PinScripts fails closed for a PowerShell line, with no pins;
// elsewhere the same line is pinned.
func TestPinScriptsFailsClosedOnWindows(t *testing.T) {
	root := t.TempDir()
	if !checkWindowsSyntax {
		writeFile(t, filepath.Join(root, "hooks", "x.sh"), "echo hi\n")
	}
	h := cmdHook("./hooks/x.sh")
	h.Shell = hook.ShellProgram("pwsh")
	p, err := PinScripts(h, root)
	if !checkWindowsSyntax {
		if err != nil || len(p.Scripts) != 1 {
			t.Fatalf("off Windows: pins %v, %v", p, err)
		}
		t.Log("off Windows the line is POSIX shell syntax and pinned; the refusal runs in the Windows build (make test-windows)")
		return
	}
	if !errors.Is(err, ErrUnreadableSyntax) || !p.Empty() {
		t.Fatalf("windows: pins %v, err %v; want ErrUnreadableSyntax and no pins", p, err)
	}
}
