package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestDistIsReproducible builds the same commit twice for linux/amd64 into
// two directories and compares every artefact byte for byte: the binary,
// the archive, SHA256SUMS and the npm platform package.
func TestDistIsReproducible(t *testing.T) {
	a, b := filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")
	for _, out := range []string{a, b} {
		if err := run(out, []string{"linux/amd64"}, ""); err != nil {
			t.Fatal(err)
		}
	}
	fa, fb := tree(t, a), tree(t, b)
	if strings.Join(fa, "\n") != strings.Join(fb, "\n") {
		t.Fatalf("different file lists:\n%v\n%v", fa, fb)
	}
	var archive string
	for _, f := range fa {
		x, _ := os.ReadFile(filepath.Join(a, f))
		y, _ := os.ReadFile(filepath.Join(b, f))
		if !bytes.Equal(x, y) {
			t.Errorf("%s differs between two builds of one commit (%d vs %d bytes)", f, len(x), len(y))
		}
		if strings.HasSuffix(f, ".tar.gz") {
			archive = f
		}
	}
	t.Logf("%d identical files; archive %s", len(fa), archive)
	checkArchive(t, filepath.Join(a, archive))
}

// checkArchive checks the archive's entries: one top directory with the
// binary (0755), LICENSE and README.md, owned by 0:0, in name order.
func checkArchive(t *testing.T, path string) {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	top := strings.TrimSuffix(filepath.Base(path), ".tar.gz") + "/"
	var names []string
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if h.Uid != 0 || h.Gid != 0 || h.Uname != "" || h.Gname != "" {
			t.Errorf("%s: owner %d:%d %q:%q", h.Name, h.Uid, h.Gid, h.Uname, h.Gname)
		}
		if h.Name == top+"hookside" && h.Mode != 0o755 {
			t.Errorf("binary mode %o", h.Mode)
		}
		names = append(names, h.Name)
	}
	want := []string{top, top + "LICENSE", top + "README.md", top + "hookside"}
	if strings.Join(names, ",") != strings.Join(want, ",") {
		t.Errorf("entries %v, want %v", names, want)
	}
}

func tree(t *testing.T, root string) []string {
	var out []string
	err := filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() {
			return err
		}
		r, _ := filepath.Rel(root, p)
		out = append(out, r)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

func TestVersionFromGit(t *testing.T) {
	root, err := git("", "rev-parse", "--show-toplevel")
	if err != nil {
		t.Skip("not in a git checkout:", err)
	}
	rel, err := describe(root)
	if err != nil {
		t.Fatal(err)
	}
	if !semverRE.MatchString(strings.SplitN(rel.Version, "-", 2)[0]) {
		t.Errorf("version %q is not semver", rel.Version)
	}
	if len(rel.Commit) != 40 || rel.Epoch <= 0 {
		t.Errorf("commit %q epoch %d", rel.Commit, rel.Epoch)
	}
}
