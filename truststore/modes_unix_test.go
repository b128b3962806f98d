//go:build !windows

package truststore

import (
	"os"
	"testing"
)

// assertMode checks the Unix mode of p (want 0700 for the directory,
// 0600 for files).
func assertMode(t *testing.T, p string, want os.FileMode) {
	t.Helper()
	fi, err := os.Lstat(p)
	if err != nil {
		t.Fatal(err)
	}
	if got := fi.Mode().Perm(); got != want {
		t.Errorf("%s mode %04o, want %04o", p, got, want)
	}
}

// skipModes: Unix has the mode bits these tests change.
func skipModes(*testing.T) {}

// symlinkUsable: a symlink made by os.Symlink is always usable on Unix.
func symlinkUsable(*testing.T, string) {}

// readShared reads path as the store's readers do.
func readShared(path string) ([]byte, error) { return os.ReadFile(path) }
