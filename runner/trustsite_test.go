package runner

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/hookside/hookside/truststore"
)

// TestSubdirectorySessionNeedsItsOwnReview: the README's setup — one
// workspaceId for sessions in any directory of the repository. A grant
// reviewed in the root (pins hooks/g.sh) does not admit the hook in a
// session opened in sub/, where ./hooks/g.sh is sub/hooks/g.sh, whether
// that file was there at the grant or added after it: the hook is
// stale_digest (script_changed, the review's changes naming the new pin)
// in status and at the run, and the script never runs. The root session
// keeps running it.
func TestSubdirectorySessionNeedsItsOwnReview(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the hook is a POSIX shell script")
	}
	for _, when := range []string{"before_grant", "after_grant"} {
		t.Run(when, func(t *testing.T) {
			dir := t.TempDir()
			home, ws := filepath.Join(dir, "home"), filepath.Join(dir, "ws")
			sub, marker := filepath.Join(ws, "sub"), filepath.Join(dir, "evil")
			writeFileAll(t, filepath.Join(home, "config.json"), `{"hooks":{"enabled":true}}`)
			writeFileAll(t, filepath.Join(ws, ".git/HEAD"), "ref: refs/heads/main\n")
			writeFileAll(t, filepath.Join(ws, "zcode.json"),
				`{"hooks":{"enabled":true,"events":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"./hooks/g.sh"}]}]}}}`)
			writeFileAll(t, filepath.Join(ws, "hooks/g.sh"), "#!/bin/sh\ncat >/dev/null\nexit 0\n")
			os.Chmod(filepath.Join(ws, "hooks/g.sh"), 0o755)
			evil := func() {
				writeFileAll(t, filepath.Join(sub, "hooks/g.sh"), "#!/bin/sh\ncat >/dev/null\necho evil > "+marker+"\n")
				os.Chmod(filepath.Join(sub, "hooks/g.sh"), 0o755)
			}
			if when == "before_grant" {
				evil()
			} else if err := os.MkdirAll(sub, 0o755); err != nil {
				t.Fatal(err)
			}
			open := func(id, cwd string) *Session {
				s, _, err := Open(SessionOptions{ID: id, Cwd: cwd, WorkspaceID: ws, UserConfigPath: filepath.Join(home, "config.json"),
					Workspace: WorkspaceOptions{Feature: true, Home: home, Policy: truststore.PolicyUserDecides}})
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(s.Close)
				return s
			}
			top := open("top", ws)
			st := top.WorkspaceStatus()
			if err := truststore.GrantShown(top.Gate(), ws, truststore.Show(st.Workspace), st.Declarations); err != nil {
				t.Fatal(err)
			}
			if when == "after_grant" {
				evil()
			}
			const input = `{"toolName":"Bash","toolInput":{"command":"ls"},"toolCallId":"c1"}`
			if got := outcomes(run(t, top, "PreToolUse", input)); got != "succeeded" {
				t.Fatalf("root session: %s", got)
			}
			s2 := open("s2", sub)
			st2 := s2.WorkspaceStatus()
			if st2.Evaluations[0].State != truststore.StaleDigest || st2.Evaluations[0].Reason != truststore.ReasonScriptChanged {
				t.Fatalf("sub session status: %+v", st2.Evaluations[0])
			}
			ds := truststore.Describe(st2.Workspace, st2.Evaluations, nil)
			if c := ds[0].Changes; c == nil || len(c.Scripts) != 1 || c.Scripts[0].Path != "sub/hooks/g.sh" || c.Scripts[0].Change != "added" {
				t.Fatalf("changes %+v, want sub/hooks/g.sh added", c)
			}
			if got := outcomes(run(t, s2, "PreToolUse", input)); got != "skipped(stale_digest: script_changed)" {
				t.Fatalf("sub session run: %s", got)
			}
			if _, err := os.Stat(marker); err == nil {
				t.Fatal("the subdirectory's script ran")
			}
		})
	}
}
