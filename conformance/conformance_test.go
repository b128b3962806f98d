package conformance

import (
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// binPath is the hookside binary under test; buildErr is set when building failed.
var (
	binPath  string
	buildErr error
)

// TestMain builds the binary once (or uses $HOOKSIDE_CONFORMANCE_BIN) and
// runs at most 4 cases at a time unless -parallel is given.
func TestMain(m *testing.M) {
	flag.Parse()
	explicit := false
	flag.Visit(func(f *flag.Flag) {
		if f.Name == "test.parallel" {
			explicit = true
		}
	})
	if !explicit {
		_ = flag.Set("test.parallel", "4")
	}
	tmp, err := os.MkdirTemp("", "hookside-conformance-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	touchSources("..")
	if p := os.Getenv("HOOKSIDE_CONFORMANCE_BIN"); p != "" {
		binPath = p
	} else {
		binPath = filepath.Join(tmp, "hookside")
		cmd := exec.Command("go", "build", "-o", binPath, "github.com/hookside/hookside/cmd/hookside")
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build ./cmd/hookside: %v\n%s", err, out)
		}
	}
	code := m.Run()
	_ = os.RemoveAll(tmp)
	os.Exit(code)
}

// touchSources stats every Go source and module file of the module, so
// `go test`'s result cache (which records the files a test opens or stats)
// is invalidated when the server code changes: the binary is built by a
// subprocess the cache cannot see.
func touchSources(root string) {
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if n := d.Name(); p != root && (strings.HasPrefix(n, ".") || n == "testdata" || n == "cases") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(p, ".go") || d.Name() == "go.mod" || d.Name() == "go.sum" {
			_, _ = os.Stat(p)
		}
		return nil
	})
}

// TestConformance runs every case under cases/ as a subtest named after
// its path: `go test ./conformance -run 'TestConformance/pretooluse/'`.
func TestConformance(t *testing.T) {
	dir := "cases"
	if d := os.Getenv("HOOKSIDE_CONFORMANCE_CASES"); d != "" {
		dir = d // another case directory, e.g. while writing new cases
	}
	cases, err := LoadCases(dir)
	if err != nil {
		t.Fatalf("loading cases: %v", err)
	}
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	for _, c := range cases {
		t.Run(c.ID, func(t *testing.T) {
			if c.Skip != "" {
				t.Skip(c.Skip)
			}
			t.Parallel()
			failures, stderr := RunCase(c, binPath, t.TempDir(), t.Logf)
			if len(failures) > 0 {
				t.Errorf("%s\n  rule: %s\n  %s\n  --- server stderr (tail) ---\n%s",
					c.Name, c.Description, strings.Join(failures, "\n  "), tail(stderr, 3000))
			}
		})
	}
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

// TestMatcher checks the pattern language itself.
func TestMatcher(t *testing.T) {
	act := map[string]any{"a": 1.0, "b": []any{"x", "y"}, "c": nil, "s": "hello world", "j": `{"k":[1,2]}`,
		"o": map[string]any{"p": 1.0, "q": "r"}, "f": 1.5}
	for _, tc := range []struct {
		name string
		pat  any
		ok   bool
	}{
		{"subset_object", map[string]any{"a": 1.0}, true},
		{"wrong_scalar", map[string]any{"a": 2.0}, false},
		{"array_exact_len", map[string]any{"b": []any{"x"}}, false},
		{"array_contains", map[string]any{"b": map[string]any{"$contains": []any{"y"}}}, true},
		{"absent", map[string]any{"z": "$absent"}, true},
		{"absent_but_present", map[string]any{"a": "$absent"}, false},
		{"any_null", map[string]any{"c": "$any"}, true},
		{"nullish_missing", map[string]any{"z": "$nullish"}, true},
		{"regex", map[string]any{"s": map[string]any{"$regex": "wor"}}, true},
		{"type", map[string]any{"a": map[string]any{"$type": "integer"}}, true},
		{"lt_gt", map[string]any{"a": map[string]any{"$gt": 0.0, "$lt": 2.0}}, true},
		{"json", map[string]any{"j": map[string]any{"$json": map[string]any{"k": []any{1.0, 2.0}}}}, true},
		{"not", map[string]any{"a": map[string]any{"$not": 1.0}}, false},
		{"len", map[string]any{"b": map[string]any{"$len": 2.0}}, true},
		{"any_present", map[string]any{"a": "$any"}, true},
		{"any_missing", map[string]any{"z": "$any"}, false},
		{"nullish_null", map[string]any{"c": "$nullish"}, true},
		{"nullish_value", map[string]any{"a": "$nullish"}, false},
		{"eq_exact_object", map[string]any{"o": map[string]any{"$eq": map[string]any{"q": "r", "p": 1.0}}}, true},
		{"eq_rejects_subset_object", map[string]any{"o": map[string]any{"$eq": map[string]any{"p": 1.0}}}, false},
		{"eq_rejects_superset_object", map[string]any{"o": map[string]any{"$eq": map[string]any{"p": 1.0, "q": "r", "t": true}}}, false},
		{"eq_rejects_shorter_array", map[string]any{"b": map[string]any{"$eq": []any{"x"}}}, false},
		{"eq_array_order_matters", map[string]any{"b": map[string]any{"$eq": []any{"y", "x"}}}, false},
		{"eq_exact_array", map[string]any{"b": map[string]any{"$eq": []any{"x", "y"}}}, true},
		{"eq_scalar", map[string]any{"a": map[string]any{"$eq": 1.0}}, true},
		{"eq_null_is_not_missing", map[string]any{"z": map[string]any{"$eq": nil}}, false},
		{"eq_patterns_are_literal", map[string]any{"a": map[string]any{"$eq": "$any"}}, false},
		{"contains_elements_distinct", map[string]any{"b": map[string]any{"$contains": []any{"x", "x"}}}, false},
		{"contains_substring", map[string]any{"s": map[string]any{"$contains": "lo wo"}}, true},
		{"anyof_one_matches", map[string]any{"a": map[string]any{"$anyOf": []any{2.0, 1.0}}}, true},
		{"anyof_none_matches", map[string]any{"a": map[string]any{"$anyOf": []any{2.0, 3.0}}}, false},
		{"not_missing_key", map[string]any{"z": map[string]any{"$not": 1.0}}, true},
		{"type_integer_rejects_fraction", map[string]any{"f": map[string]any{"$type": "integer"}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := matchValue("$", tc.pat, act, true)
			if (m == nil) != tc.ok {
				t.Errorf("match = %v, want ok=%v", m, tc.ok)
			}
		})
	}
}
