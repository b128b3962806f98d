package runner

import (
	"os"
	"path/filepath"
	"testing"
)

// TestPhysicalDir: `link/..` is the parent of the link's target (as the OS
// enters it), a link is resolved, and a missing or non-directory path is
// an error.
func TestPhysicalDir(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "sub", "deeper"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join("sub", "deeper"), filepath.Join(root, "link")); err != nil {
		t.Skip("no symlinks:", err)
	}
	if err := os.WriteFile(filepath.Join(root, "f"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for in, want := range map[string]string{
		filepath.Join(root, "link") + string(filepath.Separator) + "..": filepath.Join(root, "sub"),
		filepath.Join(root, "link"):                                     filepath.Join(root, "sub", "deeper"),
		filepath.Join(root, "sub", "deeper", "..", ".."):                root,
		root: root,
	} {
		if got, err := PhysicalDir(in); err != nil || got != want {
			t.Errorf("PhysicalDir(%s) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{filepath.Join(root, "nope"), filepath.Join(root, "f")} {
		if got, err := PhysicalDir(bad); err == nil {
			t.Errorf("PhysicalDir(%s) = %q, want an error", bad, got)
		}
	}
}

// TestRunDir: a host-reported run directory inside the workspace is
// spelled under the session's root; `link/..` is where the OS goes, and a
// directory that does not resolve is reported as such.
func TestRunDir(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ws := filepath.Join(root, "ws")
	if err := os.MkdirAll(filepath.Join(ws, "sub", "deeper"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join("sub", "deeper"), filepath.Join(ws, "link")); err != nil {
		t.Skip("no symlinks:", err)
	}
	s := &Session{opts: SessionOptions{Cwd: ws}}
	if got, ok := s.runDir(filepath.Join(ws, "link") + "/.."); !ok || got != filepath.Join(ws, "sub") {
		t.Errorf("runDir(ws/link/..) = %q, %v; want ws/sub", got, ok)
	}
	if got, ok := s.runDir(root); !ok || got != root {
		t.Errorf("runDir(outside) = %q, %v; want %q", got, ok, root)
	}
	if _, ok := s.runDir(filepath.Join(ws, "gone")); ok {
		t.Error("runDir(ws/gone) resolved")
	}
}

// TestSameDir: a recorded path through a symlink is the session's
// physical directory; another directory or a missing one is not.
func TestSameDir(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "proj"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("proj", filepath.Join(root, "link")); err != nil {
		t.Skip("no symlinks:", err)
	}
	proj := filepath.Join(root, "proj")
	if !sameDir(filepath.Join(root, "link"), proj) || !sameDir(proj+"/", proj) {
		t.Error("link or proj/ is not proj")
	}
	if sameDir(root, proj) || sameDir(filepath.Join(root, "gone"), proj) {
		t.Error("root or a missing directory is proj")
	}
}
