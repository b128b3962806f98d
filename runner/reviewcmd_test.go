package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookside/hookside/internal/home"
	"github.com/hookside/hookside/truststore"
)

// TestReviewCommand: the session's review command names every option a
// pasted command needs to act on the same home, trust file and
// declarations, and leaves out the defaults.
func TestReviewCommand(t *testing.T) {
	cwd := t.TempDir()
	id := truststore.CanonicalID(cwd)
	t.Run("defaults", func(t *testing.T) {
		s, _, err := Open(SessionOptions{ID: "s", Cwd: cwd, Workspace: WorkspaceOptions{Home: home.Builtin()}})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		if got, want := s.ReviewCommand(), "hookside hooks trust review --workspace "+ShellWord(id); got != want {
			t.Fatalf("got %q\nwant %q", got, want)
		}
	})
	t.Run("session_in_a_subdirectory", func(t *testing.T) {
		// Pins are resolved at the session's site: a session in sub/ under
		// the repository's workspaceId is reviewed with --cwd sub/; one in
		// the root, or outside the workspace directory, names no --cwd.
		sub := filepath.Join(cwd, "sub dir")
		if err := os.MkdirAll(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct{ cwd, wsID, want string }{
			{sub, id, " --workspace " + ShellWord(id) + " --cwd " + ShellWord(sub)},
			{sub, "local:" + id, " --workspace " + ShellWord("local:"+id) + " --cwd " + ShellWord(sub)},
			{cwd, id, " --workspace " + ShellWord(id)},
			{sub, "remote:example.com/repo", " --workspace remote:example.com/repo"},
			{cwd, filepath.Join(cwd, "sub dir"), " --workspace " + ShellWord(sub)},
		} {
			s, _, err := Open(SessionOptions{ID: "s", Cwd: c.cwd, WorkspaceID: c.wsID, Workspace: WorkspaceOptions{Home: home.Builtin()}})
			if err != nil {
				t.Fatal(err)
			}
			if got, want := s.ReviewCommand(), "hookside hooks trust review"+c.want; got != want {
				t.Errorf("cwd %s, workspaceId %s:\ngot  %q\nwant %q", c.cwd, c.wsID, got, want)
			}
			s.Close()
		}
	})
	t.Run("home_from_the_environment", func(t *testing.T) {
		// $HOOKSIDE_HOME is named: the shell the line is pasted into may
		// not have it.
		dir := t.TempDir()
		t.Setenv("HOOKSIDE_HOME", dir)
		s, _, err := Open(SessionOptions{ID: "s", Cwd: cwd})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		if got, want := s.ReviewCommand(), "hookside hooks trust review --home "+ShellWord(dir)+" --workspace "+ShellWord(id); got != want {
			t.Fatalf("got %q\nwant %q", got, want)
		}
	})
	t.Run("every_option", func(t *testing.T) {
		dir, claude := filepath.Join(t.TempDir(), "my home"), t.TempDir()
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		cfg, extra := filepath.Join(t.TempDir(), "u.json"), filepath.Join(t.TempDir(), "extra.json")
		s, _, err := Open(SessionOptions{ID: "s", Cwd: cwd, WorkspaceID: "remote:it's", UserConfigPath: cfg, Profile: ProfileClaude, UserDir: claude,
			Workspace: WorkspaceOptions{Home: dir, ProjectConfigPath: extra, Policy: truststore.PolicyAllowTrustedOnly, HooksEnabled: true}})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		want := strings.Join([]string{"hookside hooks trust review", "--home", "'" + dir + "'", "--user-config", cfg, "--profile", "claude",
			"--claude-home", claude, "--project-config", extra, "--policy", "allow_trusted_only", "--hooks-enabled", "--workspace", `'remote:it'\''s'`}, " ")
		if got := s.ReviewCommand(); got != want {
			t.Fatalf("got %q\nwant %q", got, want)
		}
	})
}
