package doccheck

import (
	"bufio"
	"bytes"
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

// docFiles are the documents a reader of the repository is pointed to.
func docFiles(t *testing.T, root string) []string {
	t.Helper()
	var files []string
	for _, pat := range []string{"README.md", "CONTRIBUTING.md", "SECURITY.md", "CHANGELOG.md", "docs/*.md", "conformance/README.md", "bench/*.md", "examples/*/*.md"} {
		m, err := filepath.Glob(filepath.Join(root, filepath.FromSlash(pat)))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Fatal("no documentation files found")
	}
	return files
}

// TestRepositoryDocs: every link and file mention in the documentation
// resolves inside the repository, and nothing cites outside material or a
// machine path.
func TestRepositoryDocs(t *testing.T) {
	root := repoRoot(t)
	for _, f := range docFiles(t, root) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, f)
		rel = filepath.ToSlash(rel)
		for _, p := range append(CheckText(rel, string(b)), CheckLinks(root, f, string(b))...) {
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
		for _, p := range CheckText(name, string(out)) {
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
	for _, p := range CheckText("hookside protocol schema", string(out)) {
		t.Error(p)
	}
	if len(seen) < 8 {
		t.Errorf("only %d commands checked: the Commands: lists were not found", len(seen))
	}
	t.Logf("checked --help of %d commands", len(seen))
}
