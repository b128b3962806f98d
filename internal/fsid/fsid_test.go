package fsid

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestIdentityChangesOnRewriteAndReplace(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.json")
	if err := os.WriteFile(p, []byte("one"), 0o600); err != nil {
		t.Fatal(err)
	}
	a, err := Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := Stat(p); a != b {
		t.Fatalf("unchanged file: %+v != %+v", a, b)
	}
	if l, err := Lstat(p); err != nil || l != a {
		t.Fatalf("Lstat %+v, %v; Stat %+v", l, err, a)
	}
	later := time.Now().Add(2 * time.Second)
	if err := os.WriteFile(p, []byte("two"), 0o600); err != nil { // same size
		t.Fatal(err)
	}
	if err := os.Chtimes(p, later, later); err != nil {
		t.Fatal(err)
	}
	if b, _ := Stat(p); a == b {
		t.Fatal("rewritten file kept its identity")
	}
	q := filepath.Join(dir, "g.json")
	if err := os.WriteFile(q, []byte("two"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(q, later, later); err != nil {
		t.Fatal(err)
	}
	before, _ := Stat(p)
	if err := os.Rename(q, p); err != nil {
		t.Fatal(err)
	}
	if after, _ := Stat(p); after == before && after.Unique() {
		t.Fatal("replaced file kept its identity")
	}
}

func TestReadRegularBounds(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	if err := os.WriteFile(p, []byte("12345"), 0o600); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadFile(p, 5); err != nil || string(b) != "12345" {
		t.Fatalf("at the bound: %q, %v", b, err)
	}
	if _, err := ReadFile(p, 4); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("over the bound: %v", err)
	}
	if _, err := ReadFile(dir, 5); !errors.Is(err, ErrNotRegular) || err.Error() != dir+" is a directory, not a file" {
		t.Fatalf("directory: %v", err)
	}
	if _, err := ReadFile(filepath.Join(dir, "missing"), 5); !IsNotExist(err) {
		t.Fatalf("missing: %v", err)
	}
	if !Absent(filepath.Join(p, "below-a-file")) || Absent(p) {
		t.Fatal("Absent")
	}
}

func TestOpenNoFollowRefusesSymlink(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	l := filepath.Join(dir, "l")
	if err := os.Symlink(p, l); err != nil {
		t.Skipf("symlinks unavailable on this system: %v", err)
	}
	if _, err := OpenNoFollow(l); !errors.Is(err, ErrSymlink) {
		t.Fatalf("OpenNoFollow(symlink) = %v; want ErrSymlink", err)
	}
	f, err := OpenNoFollow(p)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
}
