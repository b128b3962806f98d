//go:build unix

package pin

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// A script named through a link into /proc or /dev cannot be pinned: the
// link names one file in hookside's process and another in the hook's
// (/proc/self/cwd is each process's own directory, /dev/stdin its own
// stdin), so what was reviewed would not be what runs. Links that lead
// there through other links, relative links and linked directories count;
// a link out of the workspace to an ordinary file still pins.
func TestPinProcessRelativeLinkRefused(t *testing.T) {
	root, other := t.TempDir(), t.TempDir()
	hooks := filepath.Join(root, "hooks")
	if err := os.MkdirAll(hooks, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(other, "ok.sh"), []byte("echo ok\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := func(name, text string) {
		t.Helper()
		if err := os.Symlink(text, filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
	link("hooks/cwd.sh", "/proc/self/cwd/payload.sh")
	link("hooks/stdin.sh", "/dev/stdin")
	link("hooks/fd.sh", "/dev/fd/0")
	link("hop", "/proc/self/cwd")
	link("hooks/viahop.sh", "../hop/payload.sh")
	if err := os.Symlink("/proc/self/cwd", filepath.Join(other, "p")); err != nil {
		t.Fatal(err)
	}
	link("hooks/twolinks.sh", filepath.Join(other, "p", "payload.sh"))
	link("linkeddir", "/proc/self/cwd")
	link("hooks/ok.sh", filepath.Join(other, "ok.sh"))
	for _, script := range []string{"hooks/cwd.sh", "hooks/stdin.sh", "hooks/fd.sh", "hooks/viahop.sh", "hooks/twolinks.sh", "linkeddir/payload.sh"} {
		_, err := PinScripts(cmdHook("sh "+script), root)
		var pe *ProcessRelativeError
		if !errors.As(err, &pe) || pe.Path != script {
			t.Errorf("%s: err %v, want a ProcessRelativeError", script, err)
		}
	}
	if pins, err := PinScripts(cmdHook("sh hooks/ok.sh"), root); err != nil {
		t.Fatalf("a link to an ordinary file outside: %v, %v", pins, err)
	}
}
