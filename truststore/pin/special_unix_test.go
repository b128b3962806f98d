//go:build unix

package pin

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// TestPinSpecialFileRefused: a named pipe where a script is named, or a
// link to one, cannot be pinned (an error naming what it is), so the
// declaration cannot be granted while it is there — not pinned as absent,
// granted, and stale on every run after. Opening it does not block.
func TestPinSpecialFileRefused(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "hooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(t.TempDir(), "pipe")
	if err := unix.Mkfifo(filepath.Join(root, "hooks", "g.sh"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := unix.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(fifo, filepath.Join(root, "hooks", "out.sh")); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"sh hooks/g.sh", "sh hooks/out.sh"} {
		if _, err := PinScripts(cmdHook(cmd), root); err == nil || !strings.Contains(err.Error(), "named pipe, not a regular file") {
			t.Errorf("%s: err %v, want a named pipe refused", cmd, err)
		}
	}
}
