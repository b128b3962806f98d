package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookside/hookside/internal/hook"
)

// TestCommandScriptNotFound: a command hook `INTERPRETER SCRIPT` whose
// script, resolved against the session directory, does not exist gets a
// command_script_not_found warning at its command, saying what the
// interpreter's exit status does (python's 2 blocks); a line that is not
// one simple command of fixed words, an operand that is code or a
// subcommand, an existing script and one outside the session directory,
// workspace and home get none. `~/` and `$HOME` are the hook's HOME (the
// session's env sets it here); `~user` is not resolved.
func TestCommandScriptNotFound(t *testing.T) {
	d := t.TempDir()
	cwd := filepath.Join(d, "proj")
	hookHome := filepath.Join(d, "home")
	writeFileAll(t, filepath.Join(cwd, "hooks", "ok.py"), "print(1)\n")
	writeFileAll(t, filepath.Join(hookHome, ".claude", "hooks", "ok.py"), "print(1)\n")
	warned := map[string]string{ // command → text the message must hold
		"python3 missing.py":                   "python3 script missing.py does not exist (resolved against the session directory: " + filepath.Join(cwd, "missing.py") + "); python3 exits 2 when its script is missing, and exit 2 blocks: every tool call the hook matches is denied",
		"bash ./hooks/missing.sh":              "bash script ./hooks/missing.sh does not exist (resolved against the session directory: " + filepath.Join(cwd, "hooks", "missing.sh") + "); bash exits 127 when its script is missing: the hook fails open",
		"node x.js":                            "node script x.js does not exist (resolved against the session directory: " + filepath.Join(cwd, "x.js") + "); node exits 1",
		"sh hooks/nope.sh":                     "sh script hooks/nope.sh does not exist (resolved against the session directory: " + filepath.Join(cwd, "hooks", "nope.sh") + "); sh exits 2 when its script is missing where sh is dash (Debian, Ubuntu), and exit 2 blocks",
		`python3 "$ZCODE_PROJECT_DIR"/gone.py`: "gone.py does not exist; python3 exits 2", // the path as the shell writes it (C:/… under Git Bash)
		"python3 -u -W ignore m3.py":           "python3 script m3.py does not exist",
		"PYTHONPATH=lib /usr/bin/python3.12 missing4.py 2>/dev/null": "/usr/bin/python3.12 script missing4.py does not exist",
		"deno run ./d.ts":                      "deno script ./d.ts does not exist",
		"bash -o pipefail x.sh":                "bash script x.sh does not exist",
		"python3 $HOME/missing.py":             "python3 script " + hookHome + "/missing.py does not exist",
		`python3 "${HOME}/.claude/hooks/g.py"`: "python3 script " + hookHome + "/.claude/hooks/g.py does not exist",
		"python3 ~/.claude/hooks/missing.py":   "python3 script " + hookHome + "/.claude/hooks/missing.py does not exist", // as the shell joins it
	}
	quiet := []string{
		"python3 hooks/ok.py",
		"python3 -c 'print(1)' missing.py",
		"python3 -m missing_module",
		"cd hooks && python3 missing.py",
		"python3 ~/.claude/hooks/ok.py",
		"python3 $HOME/.claude/hooks/ok.py",
		"python3 ~root/missing.py",
		"python3 ~*/missing.py",
		"python3 $HOMEDIR/missing.py",
		"python3 *.py",
		"python3 $(echo x).py",
		"bash -o x.sh",
		"ruby -C hooks missing.rb",
		"node inspect",
		"bun dev",
		"python3 " + filepath.Join(filepath.Dir(d), "elsewhere-hookside-test", "x.py"),
		"./missing.sh",
		"python3 missing.py | cat",
	}
	var hs []any
	for c := range warned {
		hs = append(hs, map[string]any{"type": "command", "command": c})
	}
	for _, c := range quiet {
		hs = append(hs, map[string]any{"type": "command", "command": c})
	}
	hs = append(hs, map[string]any{"type": "command", "command": "python3 other.py", "shell": "bash -lc"})
	cfg := filepath.Join(d, "config.json")
	writeJSON(t, cfg, map[string]any{"hooks": map[string]any{"enabled": true, "events": map[string]any{
		"PreToolUse": []any{map[string]any{"hooks": hs}},
		"Stop":       []any{map[string]any{"hooks": []any{map[string]any{"type": "command", "command": "perl stop.pl"}}}},
	}}})
	s, diags := NewSession(SessionOptions{ID: "s1", Cwd: cwd, UserConfigPath: cfg, Env: map[string]string{"HOME": hookHome}})
	t.Cleanup(s.Close)
	got := map[string]bool{}
	for _, dg := range diags {
		if dg.Code != hook.CodeCommandScriptNotFound {
			continue
		}
		if dg.Severity != hook.SeverityWarning || !strings.HasPrefix(dg.Source, cfg+":1:") {
			t.Errorf("diagnostic %+v: want a warning at %s:1:COL", dg, cfg)
		}
		matched := false
		for c, want := range warned {
			if strings.Contains(dg.Message, want) && strings.HasPrefix(dg.Message, "PreToolUse: ") {
				got[c], matched = true, true
			}
		}
		if strings.HasPrefix(dg.Message, "Stop: perl script stop.pl does not exist") {
			if !strings.Contains(dg.Message, "exit 2 blocks: every stop becomes a request to continue the turn") {
				t.Errorf("Stop message %q", dg.Message)
			}
			got["perl"], matched = true, true
		}
		if !matched {
			t.Errorf("unexpected diagnostic %q", dg.Message)
		}
	}
	for c := range warned {
		if !got[c] {
			t.Errorf("%q: no command_script_not_found diagnostic; diagnostics %v", c, diags)
		}
	}
	if !got["perl"] {
		t.Errorf("perl stop.pl: no diagnostic")
	}
	x := s.Explain(hook.PreToolUse, "")
	notes := 0
	for _, e := range x.Hooks {
		if strings.HasPrefix(e.Detail, "runs, then fails: ") {
			notes++
		}
	}
	if notes != len(warned) {
		t.Errorf("explain notes %d hooks that run then fail, want %d", notes, len(warned))
	}
	if _, err := os.Stat(filepath.Join(cwd, "missing.py")); err == nil {
		t.Fatal("missing.py exists")
	}
}
