package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
)

// TestDistIsReproducible builds the same commit twice for linux/amd64 into
// two directories and compares every artefact byte for byte: the binary,
// the archive, SHA256SUMS and the npm platform package. The second build
// uses an empty build cache, so it compiles and links everything again
// instead of reusing the first build's output. It takes minutes on 2 cores,
// so it runs in `make test-dist` (HOOKSIDE_TEST_DIST=1), which CI runs.
func TestDistIsReproducible(t *testing.T) {
	if os.Getenv("HOOKSIDE_TEST_DIST") != "1" {
		t.Skip("the from-scratch reproducibility build runs in `make test-dist` (HOOKSIDE_TEST_DIST=1)")
	}
	a, b := filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")
	for i, out := range []string{a, b} {
		if i == 1 {
			t.Setenv("GOCACHE", t.TempDir())
		}
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
// binary (0755), LICENSE, README.md, the completions and the man pages,
// owned by 0:0, in name order.
func checkArchive(t *testing.T, path string) {
	t.Helper()
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
	want := []string{top, top + "LICENSE", top + "README.md", top + "completions/", top + "completions/hookside.bash",
		top + "completions/hookside.fish", top + "completions/hookside.ps1", top + "completions/hookside.zsh", top + "hookside",
		top + "man/", top + "man/man1/", top + "man/man1/hookside-app-server.1"}
	if len(names) < len(want) || strings.Join(names[:len(want)], ",") != strings.Join(want, ",") {
		t.Errorf("entries %v, want them to start %v", names, want)
	}
	if !sort.StringsAreSorted(names) {
		t.Errorf("entries not in name order: %v", names)
	}
	for _, page := range []string{"hookside.1", "hookside-hooks-run.1", "hookside-v2-definitions-create.1"} {
		if !slices.Contains(names, top+"man/man1/"+page) {
			t.Errorf("no man/man1/%s in %v", page, names)
		}
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

// TestArchivesIgnoreFileTimes writes the tar.gz and the zip of the same
// files twice, with the files' own mtimes changed in between: the bytes do
// not change (only the commit time is recorded).
func TestArchivesIgnoreFileTimes(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{"LICENSE", "README.md", "hookside.exe", "hookside"} {
		if err := os.WriteFile(filepath.Join(root, f), []byte("content of "+f), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rel := release{Version: "1.2.3", Commit: strings.Repeat("a", 40), Epoch: 1700000000, Root: root}
	for _, goos := range []string{"linux", "windows"} {
		bin := filepath.Join(root, "hookside")
		if goos == "windows" {
			bin += ".exe"
		}
		var got [][]byte
		for i := range 2 {
			later := time.Unix(1800000000+int64(i)*1000, 0)
			for _, f := range []string{"LICENSE", "README.md", filepath.Base(bin)} {
				if err := os.Chtimes(filepath.Join(root, f), later, later); err != nil {
					t.Fatal(err)
				}
			}
			out := t.TempDir()
			a, err := writeArchive(rel, out, goos, "arm64", bin, nil)
			if err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(a)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, b)
		}
		if !bytes.Equal(got[0], got[1]) {
			t.Errorf("%s archive changed with the files' mtimes", goos)
		}
	}
}

// TestArchivesShipCompletionsAndMan generates the completions and man pages
// with this machine's hookside (built here as `go build` does, which the
// build cache keeps cheap), twice, and writes the Linux and Windows
// archives with them: both hold completions/hookside.{bash,zsh,fish,ps1}
// and man/man1/hookside*.1, the pages dated from the commit time, and the
// second generation is byte-identical to the first.
func TestArchivesShipCompletionsAndMan(t *testing.T) {
	root, err := git("", "rev-parse", "--show-toplevel")
	if err != nil {
		t.Skip("not in a git checkout:", err)
	}
	bin := filepath.Join(t.TempDir(), "hookside")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	b := exec.Command("go", "build", "-o", bin, "./cmd/hookside")
	b.Dir = root
	if out, err := b.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, f := range []string{"LICENSE", "README.md"} {
		if _, err := os.Stat(filepath.Join(root, f)); err != nil {
			t.Fatal(err)
		}
	}
	rel := release{Version: "1.2.3", Commit: strings.Repeat("a", 40), Epoch: 1700000000, Root: root} // Nov 2023
	var gens [2]map[string][]byte
	var docs []entry
	for i := range gens {
		dir := t.TempDir()
		if docs, err = genDocs(rel, dir, bin); err != nil {
			t.Fatal(err)
		}
		gens[i] = map[string][]byte{}
		for _, e := range docs {
			if !e.dir {
				gens[i][e.name], _ = os.ReadFile(e.src)
			}
		}
	}
	for name, body := range gens[0] {
		if !bytes.Equal(body, gens[1][name]) {
			t.Errorf("%s differs between two generations", name)
		}
		title := strings.ToUpper(strings.TrimSuffix(path.Base(name), ".1"))
		if strings.HasPrefix(name, "man/") && !bytes.Contains(body, []byte(`.TH "`+title+`" "1" "Nov 2023"`)) {
			t.Errorf("%s is not dated from the commit time: %.120s", name, body)
		}
	}
	out := t.TempDir()
	tgz, err := writeArchive(rel, out, "linux", "amd64", bin, docs)
	if err != nil {
		t.Fatal(err)
	}
	checkArchive(t, tgz)
	winBin := filepath.Join(t.TempDir(), "hookside.exe")
	if err := os.WriteFile(winBin, []byte("MZ"), 0o755); err != nil {
		t.Fatal(err)
	}
	z, err := writeArchive(rel, out, "windows", "amd64", winBin, docs)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := zip.OpenReader(z)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var names []string
	for _, f := range zr.File {
		names = append(names, strings.TrimPrefix(f.Name, strings.TrimSuffix(filepath.Base(z), ".zip")+"/"))
	}
	for _, want := range []string{"completions/hookside.ps1", "completions/hookside.bash", "man/man1/hookside.1", "hookside.exe"} {
		if !slices.Contains(names, want) {
			t.Errorf("zip lacks %s: %v", want, names)
		}
	}
	t.Logf("%d completion and man files in each archive", len(gens[0]))
}

// TestMakeBuildStampsTheDistVersion: `make build` stamps the version
// describe computes (through -print-version), so a development build and
// the dist/npm build of one commit say the same serverInfo.version.
func TestMakeBuildStampsTheDistVersion(t *testing.T) {
	root, err := git("", "rev-parse", "--show-toplevel")
	if err != nil {
		t.Skip("not in a git checkout:", err)
	}
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("no make")
	}
	rel, err := describe(root)
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^[0-9]+\.[0-9]+\.[0-9]+(-dev\.[0-9]+\.g[0-9a-f]{12}(\.dirty)?)?$`).MatchString(rel.Version) {
		t.Fatalf("version %q is neither X.Y.Z nor X.Y.Z-dev.N.gSHA12[.dirty]", rel.Version)
	}
	cmd := exec.Command("make", "-n", "-s", "build")
	cmd.Dir = root
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "VERSION=") { // an inherited VERSION would win (?=)
			cmd.Env = append(cmd.Env, kv)
		}
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("make -n build: %v\n%s", err, out)
	}
	m := regexp.MustCompile(`-X main\.version=(\S+)`).FindSubmatch(out)
	if m == nil || string(m[1]) != rel.Version {
		t.Fatalf("make build stamps %q, dist %q\n%s", m, rel.Version, out)
	}
}

// TestWriteJSONKeepsComparisonSigns: package.json says ">=18", as npm and
// a reader expect, not "\u003e=18".
func TestWriteJSONKeepsComparisonSigns(t *testing.T) {
	p := filepath.Join(t.TempDir(), "package.json")
	if err := writeJSON(p, map[string]any{"engines": map[string]string{"node": ">=18 <30 && x"}}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if want := "{\n  \"engines\": {\n    \"node\": \">=18 <30 && x\"\n  }\n}\n"; string(b) != want {
		t.Fatalf("package.json = %q, want %q", b, want)
	}
}
