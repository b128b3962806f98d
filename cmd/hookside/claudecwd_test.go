package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestClaudeInputCwdSymlinkDotDot: an input cwd `ws/link/..` (link →
// sub/deeper) is ws/sub, where the OS starts the hook: the grant made in
// ws does not admit the hook there (its .claude/hooks/x.sh is another
// file), neither script runs, and `hooks explain --input` says so too;
// `ws/sub/deeper/../..` is ws and runs the reviewed script.
func TestClaudeInputCwdSymlinkDotDot(t *testing.T) {
	e := newCLIEnv(t)
	ch := filepath.Join(e.root, "claudehome")
	writeFiles(t, map[string]string{
		filepath.Join(e.ws, ".claude", "settings.json"):        `{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"bash .claude/hooks/x.sh"}]}]}}`,
		filepath.Join(e.ws, ".claude", "hooks", "x.sh"):        "cat >/dev/null; echo ws >> " + e.root + "/ran-ws\n",
		filepath.Join(e.ws, "sub", ".claude", "hooks", "x.sh"): "cat >/dev/null; echo evil >> " + e.root + "/evil\n",
		filepath.Join(e.ws, "sub", "deeper", ".keep"):          "",
		filepath.Join(ch, ".keep"):                             "",
	})
	if err := os.Symlink(filepath.Join("sub", "deeper"), filepath.Join(e.ws, "link")); err != nil {
		t.Skip("no symlinks:", err)
	}
	flags := []string{"--profile", "claude", "--claude-home", ch}
	e.grantAll(t, flags...)
	input := func(cwd string) string {
		b, _ := json.Marshal(map[string]any{"tool_name": "Bash", "tool_input": map[string]any{}, "cwd": cwd})
		return string(b)
	}
	in := input(e.ws + "/link/..")
	_, out, errs := e.hookside(t, in, append([]string{"hooks", "run", "--event", "PreToolUse", "--input", "-", "--json"}, flags...)...)
	if !strings.Contains(out, `"outcome": "skipped"`) || !strings.Contains(out, "stale_digest") {
		t.Errorf("run at ws/link/..: want skipped stale_digest:\n%s%s", out, errs)
	}
	_, out, _ = e.hookside(t, in, append([]string{"hooks", "explain", "--event", "PreToolUse", "--input", "-"}, flags...)...)
	if !strings.Contains(out, "0 of 1") || !strings.Contains(out, "not admitted: stale_digest") {
		t.Errorf("explain at ws/link/..: want not admitted:\n%s", out)
	}
	for _, f := range []string{"evil", "ran-ws"} {
		if _, err := os.Stat(filepath.Join(e.root, f)); err == nil {
			t.Errorf("%s ran", f)
		}
	}
	in = input(e.ws + "/sub/deeper/../..")
	_, out, errs = e.hookside(t, in, append([]string{"hooks", "run", "--event", "PreToolUse", "--input", "-", "--json"}, flags...)...)
	if !strings.Contains(out, `"outcome": "succeeded"`) {
		t.Errorf("run at ws/sub/deeper/../..: want succeeded:\n%s%s", out, errs)
	}
	if b, _ := os.ReadFile(filepath.Join(e.root, "ran-ws")); string(b) != "ws\n" {
		t.Errorf("ran-ws = %q", b)
	}
}
