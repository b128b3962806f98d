package pin

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/hookside/hookside/internal/hook"
)

// TestPinEveryWord shows that every word after the program name may name a
// workspace file and is pinned (as absent when it names nothing): options'
// values, the operands behind wrappers, python's -m module. Each row named
// nothing or the wrong file before (the repository then created the
// script after the grant and it ran under the old grant).
func TestPinEveryWord(t *testing.T) {
	root := t.TempDir()
	tests := []struct {
		name, line string
		want       []string
	}{
		{"python_W_value", "python3 -W ignore guard.py", []string{"guard.py", "ignore"}},
		{"python_X_value", "python3 -X dev guard.py", []string{"dev", "guard.py"}},
		{"perl_I_value", "perl -I lib guard.pl", []string{"guard.pl", "lib"}},
		{"perl_I_attached", "perl -Ilib guard.pl", []string{"guard.pl", "lib"}},
		{"ruby_r_value", "ruby -r x guard.rb", []string{"guard.rb", "x"}},
		{"node_require_value", "node --require r.js guard.js", []string{"guard.js", "r.js"}},
		{"node_import_equals", "node --import=loader.mjs guard.js", []string{"guard.js", "loader.mjs"}},
		{"env_bare", "env g.sh", []string{"g.sh"}},
		{"env_assignment", "env PYTHONPATH=lib python3 g.py", []string{"g.py", "lib", "python3"}},
		{"timeout_sh", "timeout 5 sh g.sh", []string{"g.sh", "sh"}},
		{"timeout_sh_c", "timeout 5s sh -c './g.sh'", []string{"g.sh", "sh"}},
		{"nice_n", "nice -n 5 ./g.sh", []string{"g.sh"}},
		{"uv_run", "uv run g.py", []string{"g.py"}},
		{"npx_tsx", "npx tsx g.ts", []string{".npmrc", "g.ts", "node_modules/.bin/tsx", "package.json", "tsx"}},
		{"xargs", "xargs ./g.sh", []string{"g.sh"}},
		{"python_m", "python3 -m g", []string{"g", "g.py"}},
		{"python_m_dotted", "python3 -m pkg.tool --flag", []string{"pkg", "pkg.py"}},
		{"python_c_code_not_absent", "python3 -c 'print(1)' arg.txt", []string{"arg.txt"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if checkWindowsSyntax && windowsSyntax(cmdHook(tc.line)) != nil {
				t.Skipf("windows: %q is refused as unreadable syntax (TestWindowsSyntax)", tc.line)
			}
			if got := ScriptPaths(cmdHook(tc.line), root); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("ScriptPaths(%q) = %q, want %q", tc.line, got, tc.want)
			}
		})
	}
}

// TestOptionValueScriptCreated: `python3 -W ignore guard.py` with guard.py
// absent at grant; its creation breaks the pin.
func TestOptionValueScriptCreated(t *testing.T) {
	root := t.TempDir()
	h := cmdHook("python3 -W ignore guard.py")
	p := mustPin(t, h, root)
	if p.Scripts["guard.py"] != AbsentPin {
		t.Fatalf("pins = %v, want guard.py absent", p.Scripts)
	}
	if !Hold(p, root, nil) {
		t.Fatal("fresh pins do not hold")
	}
	writeFile(t, filepath.Join(root, "guard.py"), "print('evil')\n")
	if Hold(p, root, nil) {
		t.Fatal("pins still hold after guard.py was created")
	}
}

// TestDirectoryPins: a directory a command line names is pinned by its
// tree; replacing it with a file, editing, adding or removing a file below
// it breaks the pin.
func TestDirectoryPins(t *testing.T) {
	t.Run("replaced_by_executable", func(t *testing.T) {
		root := t.TempDir()
		writeFile(t, filepath.Join(root, "hooks/check/readme"), "a directory\n")
		p := mustPin(t, cmdHook("./hooks/check"), root)
		if !p.Dirs["hooks/check"] || !Hold(p, root, nil) {
			t.Fatalf("pins = %+v, want hooks/check as a holding directory pin", p)
		}
		if err := os.RemoveAll(filepath.Join(root, "hooks/check")); err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(root, "hooks/check"), "#!/bin/sh\necho evil\n")
		if Hold(p, root, nil) {
			t.Fatal("pins still hold after the directory became an executable")
		}
	})
	for _, edit := range []string{"edit", "add", "remove"} {
		t.Run("python_package_"+edit, func(t *testing.T) {
			root := t.TempDir()
			writeFile(t, filepath.Join(root, "tool/__main__.py"), "print('ok')\n")
			writeFile(t, filepath.Join(root, "tool/sub/util.py"), "x = 1\n")
			h := hook.Hook{Event: hook.PreToolUse, Source: hook.Source{Kind: hook.SourceWorkspace, RelativePath: "zcode.json"},
				Type: hook.TypeProcess, Command: "python3", Args: []string{"tool"}}
			p := mustPin(t, h, root)
			if !p.Dirs["tool"] || !Hold(p, root, closedAtEnd(t)) {
				t.Fatalf("pins = %+v, want tool as a holding directory pin", p)
			}
			switch edit {
			case "edit":
				writeFile(t, filepath.Join(root, "tool/sub/util.py"), "import os; os.system('evil')\n")
			case "add":
				writeFile(t, filepath.Join(root, "tool/sub/new.py"), "\n")
			case "remove":
				if err := os.Remove(filepath.Join(root, "tool/sub/util.py")); err != nil {
					t.Fatal(err)
				}
			}
			if Hold(p, root, closedAtEnd(t)) {
				t.Fatalf("pins still hold after %s below tool/", edit)
			}
		})
	}
	t.Run("python_m_package_created", func(t *testing.T) {
		root := t.TempDir()
		p := mustPin(t, cmdHook("python3 -m g"), root)
		writeFile(t, filepath.Join(root, "g/__main__.py"), "print('evil')\n")
		if Hold(p, root, nil) {
			t.Fatal("pins still hold after g/__main__.py was created")
		}
	})
}

// TestDirectoryBounds: a named directory over MaxDirFiles entries cannot
// be pinned (the grant is refused); a pinned one that grows past the bound
// no longer holds.
func TestDirectoryBounds(t *testing.T) {
	root := t.TempDir()
	for i := 0; i < MaxDirFiles; i++ {
		writeFile(t, filepath.Join(root, "big", fmt.Sprintf("f%03d", i)), "x")
	}
	if _, err := PinScripts(cmdHook("ls big"), root); !errors.Is(err, ErrUnpinnable) {
		t.Fatalf("PinScripts over %d entries: err = %v, want ErrUnpinnable", MaxDirFiles, err)
	}
	if err := os.Remove(filepath.Join(root, "big", "f000")); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(root, "big", "f001")); err != nil {
		t.Fatal(err)
	}
	p := mustPin(t, cmdHook("ls big"), root)
	if !Hold(p, root, nil) {
		t.Fatal("pins at the bound do not hold")
	}
	writeFile(t, filepath.Join(root, "big", "f000"), "x")
	writeFile(t, filepath.Join(root, "big", "f001"), "x")
	if Hold(p, root, nil) {
		t.Fatal("pins still hold past the bound")
	}
	writeFile(t, filepath.Join(root, "huge/blob"), "")
	if err := os.Truncate(filepath.Join(root, "huge/blob"), MaxDirBytes+1); err != nil {
		t.Fatal(err)
	}
	if _, err := PinScripts(cmdHook("ls huge"), root); !errors.Is(err, ErrUnpinnable) {
		t.Fatalf("PinScripts over %d bytes: err = %v, want ErrUnpinnable", MaxDirBytes, err)
	}
}

func TestDirPinsValidate(t *testing.T) {
	if err := (Pins{Dirs: map[string]bool{"x": true}}).Validate(); err == nil {
		t.Error("a directory pin without its sum validated")
	}
	if err := (Pins{Scripts: map[string]string{"x": AbsentPin}, Dirs: map[string]bool{"x": true}}).Validate(); err == nil {
		t.Error("an absent directory pin validated")
	}
}

func mustPin(t *testing.T, h hook.Hook, root string) Pins {
	t.Helper()
	if checkWindowsSyntax && windowsSyntax(h) != nil {
		t.Skipf("windows: %q is refused as unreadable syntax (TestWindowsSyntax)", h.Command)
	}
	p, err := PinScripts(h, root)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// closedAtEnd is a hash cache whose open workspace roots are closed when
// the test ends, before its TempDir is removed (on Windows an open root
// keeps the directory from being deleted).
func closedAtEnd(t *testing.T) *HashCache {
	c := NewHashCache()
	t.Cleanup(c.Close)
	return c
}
