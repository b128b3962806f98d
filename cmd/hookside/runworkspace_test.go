package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHooksRunWorkspaceSubdirectory: `hooks run --workspace R --cwd R/sub`
// is a session in R/sub under R's identity, and the review command it
// prints (pending-trust diagnostic and trailer) is `hooks trust review
// --workspace R --cwd R/sub`, which reviews what this run runs: granted
// through that form, the run runs the hook. Without --workspace the
// run's identity is R/sub and its review command names that. A --cwd
// outside --workspace, and an identity for --workspace, are refused.
func TestHooksRunWorkspaceSubdirectory(t *testing.T) {
	e := newCLIEnv(t)
	writeFiles(t, map[string]string{
		filepath.Join(e.home, "config.json"): `{"hooks":{"enabled":true}}`,
		filepath.Join(e.ws, "zcode.json"):    `{"hooks":{"events":{"PreToolUse":[{"hooks":[{"type":"command","command":"sh ../hooks/g.sh"}]}]}}}`,
		filepath.Join(e.ws, "hooks", "g.sh"): "cat >/dev/null; echo ran >> " + e.root + "/ran\n",
		filepath.Join(e.ws, "sub", ".keep"):  "",
	})
	sub := filepath.Join(e.ws, "sub")
	in := `{"toolName":"Bash","toolInput":{"command":"ls"}}`
	_, _, errs := e.hookside(t, in, "hooks", "run", "--cwd", sub, "--event", "PreToolUse", "--input", "-")
	// --home: the home of $HOOKSIDE_HOME, which the shell the line is
	// pasted into may not have.
	if want := "Review them with: hookside hooks trust review --home " + e.home + " --workspace " + sub + "\n"; !strings.Contains(errs, want) {
		t.Errorf("run --cwd sub: want %q in\n%s", want, errs)
	}
	_, _, errs = e.hookside(t, in, "hooks", "run", "--workspace", e.ws, "--cwd", sub, "--event", "PreToolUse", "--input", "-")
	want := "hookside hooks trust review --home " + e.home + " --workspace " + e.ws + " --cwd " + sub
	if strings.Count(errs, want) != 2 {
		t.Fatalf("run --workspace R --cwd R/sub: want %q in the diagnostic and the trailer:\n%s", want, errs)
	}
	args := strings.Fields(strings.TrimPrefix(want, "hookside hooks trust review"))
	e.grantAll(t, args...)
	if code, out, errs := e.hookside(t, in, "hooks", "run", "--workspace", e.ws, "--cwd", sub, "--event", "PreToolUse", "--input", "-"); code != 0 || strings.Contains(errs, "waiting for trust") {
		t.Fatalf("run after the grant: %d %s%s", code, out, errs)
	}
	if b, _ := os.ReadFile(filepath.Join(e.root, "ran")); string(b) != "ran\n" {
		t.Errorf("ran = %q, want the hook to have run once", b)
	}
	for _, bad := range [][]string{{"--workspace", sub, "--cwd", e.ws}, {"--workspace", "remote:host:/x"}} {
		code, _, errs := e.hookside(t, in, append([]string{"hooks", "run", "--event", "PreToolUse", "--input", "-"}, bad...)...)
		if code != exitError || !strings.Contains(errs, "--") {
			t.Errorf("hooks run %v: exit %d, want %d:\n%s", bad, code, exitError, errs)
		}
	}
}
