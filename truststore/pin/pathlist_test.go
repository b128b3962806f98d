package pin

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookside/hookside/internal/hook"
)

// TestPinPathAssignmentsAndOperandsAfterDashDash: a PATH assignment of the
// command line (`PATH=bin:/usr/bin tool`, `env PATH=…`, `export PATH=…;`)
// is where the command name after it is looked up, so bin/tool is pinned;
// a search-path list (`PYTHONPATH=lib:/x`) pins each entry (a directory as
// its tree), the variable's inherited value (bin${PATH:+:$PATH}) left
// out; `cd h*` runs the rest in each match; after "--" every word is an
// operand, so `sh -- -x.sh` pins ./-x.sh. Before, the list was pinned as one absent file named
// "bin:/usr/bin" and "-x.sh" was read as options, so an edit of the
// script the trusted hook runs changed nothing.
func TestPinPathAssignmentsAndOperandsAfterDashDash(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "bin/mytool"), "echo ok\n")
	writeFile(t, filepath.Join(root, "lib/tool.py"), "print(1)\n")
	writeFile(t, filepath.Join(root, "-x.sh"), "echo dash\n")
	writeFile(t, filepath.Join(root, "hooks/x.sh"), "echo x\n")
	at := Site{Path: []string{"/usr/bin", "/bin"}}
	for _, tc := range []struct {
		command    string
		args       []string
		want       []string
		unfollowed []string
	}{
		{command: "PATH=bin:/usr/bin:/bin mytool", want: []string{"bin/mytool"}},
		{command: "env PATH=./bin:/usr/bin mytool", want: []string{"bin/mytool", "mytool"}},
		{command: "PATH=./bin:$PATH mytool", want: []string{"bin/mytool"}},
		{command: "export PATH=bin:${PATH}; mytool", want: []string{"bin/mytool"}},
		{command: "PATH=.:$PATH mytool", want: []string{"mytool"}},
		{command: "PATH=$X:$PATH mytool", unfollowed: []string{"$X"}},
		{command: "PYTHONPATH=lib:/x python3 -m tool", want: []string{"lib", "tool", "tool.py"}},
		{command: "PATH=bin${PATH:+:$PATH} mytool", want: []string{"bin/mytool"}},
		{command: "PATH=${PATH:+${PATH}:}bin mytool", want: []string{"bin/mytool"}},
		{command: "PYTHONPATH=lib${PYTHONPATH:+:$PYTHONPATH} python3 -m tool", want: []string{"lib", "tool", "tool.py"}},
		{command: "PYTHONPATH=lib:$PYTHONPATH python3 -m tool", want: []string{"lib", "tool", "tool.py"}},
		{command: "NODE_OPTIONS=--inspect=127.0.0.1:9229 node a.js", want: []string{"127.0.0.1:9229", "a.js"}},
		{command: "sh -- -x.sh", want: []string{"-x.sh"}},
		{command: "bash -e -- -x.sh", want: []string{"-x.sh"}},
		{command: "python3 -- -x.py", want: []string{"-x.py"}},
		{command: "runuser -u nobody -- sh -c 'sh -- -x.sh'", want: []string{"-x.sh", "nobody", "sh"}},
		{command: "sh", args: []string{"--", "-x.sh"}, want: []string{"-x.sh"}},
		{command: "cd h* && sh x.sh", want: []string{"h*/x.sh", "hooks", "hooks/x.sh", "x.sh"}},
		{command: "cd ./hook? && sh ./x.sh", want: []string{"hook?/x.sh", "hooks", "hooks/x.sh", "x.sh"}},
	} {
		t.Run(tc.command, func(t *testing.T) {
			p, err := PinScriptsAt(siteHook(tc.command, tc.args...), root, at)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.Paths(); !equalStrings(got, tc.want) {
				t.Errorf("pins %q, want %q", got, tc.want)
			}
			if !equalStrings(p.Unfollowed, tc.unfollowed) {
				t.Errorf("unfollowed %q, want %q", p.Unfollowed, tc.unfollowed)
			}
		})
	}
}

// TestPinTaskRunnerFiles: a task runner's task file is code the task it
// names runs (`just lint` runs the justfile's recipe), so it is pinned in
// the session directory and its parents up to the root, absent when
// missing; before, only make's makefiles were.
func TestPinTaskRunnerFiles(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "justfile"), "lint:\n\techo ok\n")
	writeFile(t, filepath.Join(root, "Rakefile"), "task :lint\n")
	writeFile(t, filepath.Join(root, "tox.ini"), "[testenv:lint]\n")
	sub := filepath.Join(root, "sub")
	writeFile(t, filepath.Join(sub, ".keep"), "")
	for _, tc := range []struct {
		command string
		want    string // a pin that must be among them, with its kind
		kind    string
	}{
		{"just lint", "justfile", "file"},
		{"just lint", "Justfile", "absent"},
		{"rake lint", "Rakefile", "file"},
		{"tox -e lint", "tox.ini", "file"},
		{"task lint", "Taskfile.yml", "absent"},
		{"cd sub && just lint", "sub/justfile", "absent"},
	} {
		t.Run(tc.command+" "+tc.want, func(t *testing.T) {
			p, err := PinScriptsAt(siteHook(tc.command), root, Site{})
			if err != nil {
				t.Fatal(err)
			}
			sum, ok := p.Scripts[tc.want]
			if !ok || (sum == AbsentPin) != (tc.kind == "absent") {
				t.Errorf("pins %v: want %s pinned as %s", p.Paths(), tc.want, tc.kind)
			}
		})
	}
}

// TestPinPathSetAtRunTimeIsListed: PATH set by a loop, read, printf -v,
// select or a sourced script names directories the scan does not follow
// for the commands after it, so the declaration lists it unpinned (the
// grant warns) where it listed nothing and an edit of the program ran.
func TestPinPathSetAtRunTimeIsListed(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "bin/mytool"), "echo ok\n")
	writeFile(t, filepath.Join(root, "env.sh"), "PATH=bin:/usr/bin\n")
	for _, c := range []string{
		"for PATH in bin:/usr/bin; do mytool; done",
		"select PATH in bin:/usr/bin; do mytool; break; done",
		"read PATH <<EOT\nbin:/usr/bin\nEOT\nmytool",
		"printf -v PATH %s bin:/usr/bin; mytool",
		". ./env.sh; mytool",
	} {
		h := siteHook(c)
		h.Shell = hook.ShellProgram("bash")
		p, err := PinScriptsAt(h, root, Site{})
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Unfollowed) == 0 {
			t.Errorf("%q: pins %v, nothing listed unpinned", c, p.Paths())
		}
	}
}

// TestPinPackageRunnerFallbacks: `npm start` without a start script runs
// `node server.js`, so server.js is pinned; a script run in every
// workspace package (`npm run x --workspaces`, `pnpm -r x`) is listed
// unpinned. Before, neither was pinned nor listed, and an edit ran.
func TestPinPackageRunnerFallbacks(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "package.json"), `{"name":"root","workspaces":["packages/*"]}`)
	writeFile(t, filepath.Join(root, "server.js"), "1\n")
	p, err := PinScriptsAt(siteHook("npm start -s"), root, Site{})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := p.Scripts["server.js"]; !ok {
		t.Errorf("npm start: pins %v, want server.js", p.Paths())
	}
	for _, c := range []string{"npm run -s check --workspaces", "npm run check -ws", "pnpm -r check", "yarn workspaces foreach run check"} {
		p, err := PinScriptsAt(siteHook(c), root, Site{})
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Unfollowed) == 0 {
			t.Errorf("%q: nothing listed unpinned (pins %v)", c, p.Paths())
		}
	}
}

// TestPinMakefileRecipes: the scripts a makefile's recipes run are pinned
// (`make check` whose recipe is `sh hooks/x.sh` pins hooks/x.sh); a recipe
// with a make variable is listed unpinned. Before, only the makefile was
// pinned, and an edit of hooks/x.sh ran under the grant.
func TestPinMakefileRecipes(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "Makefile"), "check:\n\t@sh hooks/x.sh\n.PHONY: check\nlint:\n\t$(SHELL) hooks/y.sh\n")
	writeFile(t, filepath.Join(root, "hooks/x.sh"), "true\n")
	p, err := PinScriptsAt(siteHook("make -s check"), root, Site{})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := p.Scripts["hooks/x.sh"]; !ok {
		t.Errorf("pins %v, want hooks/x.sh", p.Paths())
	}
	// One entry per makefile name that reads it: on a case-insensitive
	// file system makefile and Makefile are the same file.
	if len(p.Unfollowed) == 0 {
		t.Errorf("nothing unfollowed, want the $(SHELL) recipe")
	}
	for _, u := range p.Unfollowed {
		if !strings.Contains(u, "akefile: $(SHELL) hooks/y.sh (a make variable") {
			t.Errorf("unfollowed %q, want only the $(SHELL) recipe", p.Unfollowed)
		}
	}
}
