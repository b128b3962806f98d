package doccheck

import (
	"bufio"
	"bytes"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// repoRoot is the module root (two levels up from this package).
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root not found at %s: %v", root, err)
	}
	return root
}

// docFiles are the documents a reader of the repository is pointed to:
// the top-level ones, every Markdown file under docs/, examples/ and
// bench/, the conformance README and each package's README (node_modules
// and other dot or build directories skipped).
func docFiles(t *testing.T, root string) []string {
	t.Helper()
	var files []string
	for _, pat := range []string{"README.md", "CONTRIBUTING.md", "SECURITY.md", "CHANGELOG.md", "conformance/README.md"} {
		m, err := filepath.Glob(filepath.Join(root, filepath.FromSlash(pat)))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	for dir, want := range map[string]func(name string) bool{
		"docs":     func(n string) bool { return strings.HasSuffix(n, ".md") },
		"examples": func(n string) bool { return strings.HasSuffix(n, ".md") },
		"bench":    func(n string) bool { return strings.HasSuffix(n, ".md") },
		"packages": func(n string) bool { return n == "README.md" },
	} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(p string, d fs.DirEntry, err error) error {
			switch {
			case err != nil:
				return err
			case d.IsDir() && (d.Name() == "node_modules" || d.Name() == "lib" || strings.HasPrefix(d.Name(), ".")):
				return filepath.SkipDir
			case !d.IsDir() && want(d.Name()):
				files = append(files, p)
			}
			return nil
		})
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			t.Fatal(err)
		}
	}
	if len(files) == 0 {
		t.Fatal("no documentation files found")
	}
	return files
}

// goModules are the module paths go.mod names (its own and each required
// one): Go import paths, which the docs may write (CheckURLs).
func goModules(t *testing.T, root string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	var mods []string
	inRequire := false
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) == 0:
		case f[0] == "module" && len(f) == 2:
			mods = append(mods, f[1])
		case f[0] == "require" && len(f) >= 3:
			mods = append(mods, f[1])
		case f[0] == "require" && f[len(f)-1] == "(":
			inRequire = true
		case f[0] == ")":
			inRequire = false
		case inRequire:
			mods = append(mods, f[0])
		}
	}
	if len(mods) < 2 {
		t.Fatalf("go.mod: modules %v, want the module and its requirements", mods)
	}
	return mods
}

// TestDocFilesCoverTheReadmes: the walk reaches the package and example
// READMEs, not only the top-level documents.
func TestDocFilesCoverTheReadmes(t *testing.T) {
	root := repoRoot(t)
	got := map[string]bool{}
	for _, f := range docFiles(t, root) {
		rel, _ := filepath.Rel(root, f)
		got[filepath.ToSlash(rel)] = true
	}
	for _, want := range []string{"README.md", "CHANGELOG.md", "SECURITY.md", "docs/protocol.md", "packages/npm/hookside/README.md"} {
		if !got[want] {
			t.Errorf("docFiles misses %s", want)
		}
	}
}

// TestRepositoryDocs: every link and file mention in the documentation
// resolves inside the repository, and nothing cites outside material or a
// machine path.
func TestRepositoryDocs(t *testing.T) {
	root := repoRoot(t)
	mods := goModules(t, root)
	for _, f := range docFiles(t, root) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, f)
		rel = filepath.ToSlash(rel)
		problems := append(CheckText(rel, string(b)), CheckLinks(root, f, string(b))...)
		for _, p := range append(problems, CheckURLs(rel, string(b), mods...)...) {
			t.Error(p)
		}
	}
}

// TestRequiredDocsExist: the release documents are there.
func TestRequiredDocsExist(t *testing.T) {
	root := repoRoot(t)
	for _, f := range []string{"LICENSE", "README.md", "CHANGELOG.md", "CONTRIBUTING.md", "SECURITY.md",
		"docs/protocol.md", "docs/configuration.md", "docs/events.md", "docs/embedding.md",
		"docs/troubleshooting.md", "docs/migrating-from-claude-code.md", "docs/compatibility.md"} {
		if _, err := os.Stat(filepath.Join(root, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// commandLine matches a "  name  description" line of a Commands: list.
var commandLine = regexp.MustCompile(`^\s{2,}([a-z][a-z0-9-]*)(?:\s{2,}|\s*$)`)

// TestHelpText builds the binary and checks the --help output of every
// command it lists (recursively) for references a user cannot follow.
func TestHelpText(t *testing.T) {
	root := repoRoot(t)
	bin := filepath.Join(t.TempDir(), "hookside")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	build := exec.Command("go", "build", "-o", bin, "./cmd/hookside")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	home := t.TempDir()
	seen := map[string]bool{}
	queue := [][]string{{}}
	// Commands whose help lists them only inside a usage line.
	for _, c := range [][]string{{"hooks", "trust", "status"}, {"hooks", "trust", "review"}, {"hooks", "trust", "grant"},
		{"hooks", "trust", "revoke"}, {"v2", "runs", "list"}, {"v2", "runs", "get"}, {"v2", "emit"}, {"protocol", "schema"}} {
		queue = append(queue, c)
	}
	for len(queue) > 0 {
		args := queue[0]
		queue = queue[1:]
		key := strings.Join(args, " ")
		if seen[key] {
			continue
		}
		seen[key] = true
		cmd := exec.Command(bin, append(append([]string{}, args...), "--help")...)
		cmd.Env = append(os.Environ(), "HOOKSIDE_HOME="+home)
		cmd.Stdin = strings.NewReader("")
		out, _ := cmd.CombinedOutput() // some commands exit non-zero after printing help
		name := "hookside " + key + " --help"
		for _, p := range append(CheckText(name, string(out)), CheckURLs(name, string(out), goModules(t, root)...)...) {
			t.Error(p)
		}
		for _, m := range regexp.MustCompile(`[A-Za-z0-9_./-]+\.md\b`).FindAllString(string(out), -1) {
			if !MentionResolves(root, root, m) {
				t.Errorf("%s: names %s, which is not in the repository", name, m)
			}
		}
		sc := bufio.NewScanner(bytes.NewReader(out))
		inCommands := false
		for sc.Scan() {
			line := sc.Text()
			if t := strings.TrimSpace(line); t == "Commands:" || t == "Available Commands:" {
				inCommands = true
				continue
			}
			if inCommands {
				m := commandLine.FindStringSubmatch(line)
				if m == nil {
					if strings.TrimSpace(line) == "" || !strings.HasPrefix(line, " ") {
						inCommands = false
					}
					continue
				}
				queue = append(queue, append(append([]string{}, args...), m[1]))
			}
		}
	}
	// The JSON Schema's descriptions are read by host engineers too.
	schema := exec.Command(bin, "protocol", "schema")
	schema.Env = append(os.Environ(), "HOOKSIDE_HOME="+home)
	out, err := schema.Output()
	if err != nil {
		t.Fatalf("hookside protocol schema: %v", err)
	}
	// Its "$schema" URI names the JSON Schema dialect (an identifier the
	// format requires, not a link), so CheckURLs does not apply.
	for _, p := range CheckText("hookside protocol schema", string(out)) {
		t.Error(p)
	}
	if len(seen) < 8 {
		t.Errorf("only %d commands checked: the Commands: lists were not found", len(seen))
	}
	t.Logf("checked --help of %d commands", len(seen))
}
