package runner

import (
	"errors"
	"path/filepath"
	"testing"
)

func TestOpen(t *testing.T) {
	dir := t.TempDir()
	t.Run("profile_validated", func(t *testing.T) {
		var perr *ProfileError
		if _, _, err := Open(SessionOptions{ID: "s", Cwd: dir, Profile: "Claude"}); !errors.As(err, &perr) || perr.Profile != "Claude" {
			t.Fatalf("err = %v; want *ProfileError", err)
		}
	})
	t.Run("cwd_must_be_a_directory", func(t *testing.T) {
		if _, _, err := Open(SessionOptions{ID: "s", Cwd: filepath.Join(dir, "missing")}); !errors.Is(err, ErrCwd) {
			t.Fatalf("err = %v; want ErrCwd", err)
		}
	})
	t.Run("defaults_from_the_home_layout", func(t *testing.T) {
		home := t.TempDir()
		s, _, err := Open(SessionOptions{ID: "s", Cwd: dir, Workspace: WorkspaceOptions{Home: home}})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		o := s.Options()
		if o.Profile != "zcode" || o.UserConfigPath != filepath.Join(home, "config.json") || o.WorkspaceID == "" || !filepath.IsAbs(o.Cwd) {
			t.Fatalf("options %+v", o)
		}
	})
}
