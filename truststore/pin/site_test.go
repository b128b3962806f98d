package pin

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/hookside/hookside/internal/hook"
)

func siteHook(command string, args ...string) hook.Hook {
	h := hook.Hook{Source: hook.Source{Kind: hook.SourceWorkspace, RelativePath: "zcode.json"}, Type: hook.TypeCommand, Command: command}
	if args != nil {
		h.Type, h.Args = hook.TypeProcess, args
	}
	return h
}

// TestPinScriptsAtSite: the Site decides what the same command line names:
// relative words count from Dir (and the root), the project-dir variables
// stand for ProjectDir (and the root), bare names are looked up in the
// PATH entries inside the root (a relative entry from Dir).
func TestPinScriptsAtSite(t *testing.T) {
	root, elsewhere := t.TempDir(), t.TempDir()
	sub := filepath.Join(root, "sub")
	writeFile(t, filepath.Join(root, "hooks/g.sh"), "true\n")
	writeFile(t, filepath.Join(root, "sub/hooks/g.sh"), "true\n")
	for _, tc := range []struct {
		name string
		h    hook.Hook
		at   Site
		want []string
	}{
		{"root", siteHook("./hooks/g.sh"), Site{}, []string{"hooks/g.sh"}},
		{"sub_dir", siteHook("./hooks/g.sh"), Site{Dir: sub}, []string{"hooks/g.sh", "sub/hooks/g.sh"}},
		{"sub_process_arg", siteHook("sh", "hooks/g.sh"), Site{Dir: sub}, []string{"hooks/g.sh", "sub/hooks/g.sh"}},
		{"project_dir_root_run_in_sub", siteHook("${CLAUDE_PROJECT_DIR}/hooks/g.sh"), Site{Dir: sub, ProjectDir: root}, []string{"hooks/g.sh"}},
		{"project_dir_sub", siteHook("$ZCODE_PROJECT_DIR/hooks/g.sh"), Site{Dir: root, ProjectDir: sub}, []string{"hooks/g.sh", "sub/hooks/g.sh"}},
		{"path_abs_entry", siteHook("guard"), Site{Path: []string{elsewhere, filepath.Join(root, "bin")}}, []string{"bin/guard", "bin/sh"}},
		{"path_process_hook", siteHook("guard", "-v"), Site{Path: []string{filepath.Join(root, "bin")}}, []string{"bin/guard"}},
		{"path_rel_entry_from_dir", siteHook("guard -x"), Site{Dir: sub, Path: []string{"bin", ""}}, []string{"sub/bin/guard", "sub/bin/sh", "sub/guard", "sub/sh"}},
		{"path_outside_root", siteHook("guard"), Site{Path: []string{elsewhere}}, nil},
		{"path_behind_wrapper_and_shell_c", siteHook("sh -c 'env guard'"), Site{Path: []string{filepath.Join(root, "bin")}}, []string{"bin/guard", "bin/sh", "guard"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := PinScriptsAt(tc.h, root, tc.at)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.Paths(); !equalStrings(got, tc.want) {
				t.Fatalf("pins %v, want %v", got, tc.want)
			}
		})
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestMatchesExact: Matches holds for the pins resolved at the same Site,
// and at another Site whose resolution the grant covers (what exists there
// is the grant's, unchanged; the rest names nothing), and for nothing else
// — a file the grant does not hold, a pin removed from the grant, an edit —
// and the cached resolution never hides a change (an edit, a new file at
// a candidate that named nothing, a new file at an absent pin).
func TestMatchesExact(t *testing.T) {
	root := t.TempDir()
	sub := filepath.Join(root, "sub")
	writeFile(t, filepath.Join(root, "hooks/g.sh"), "true\n")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	h := siteHook("./hooks/g.sh; helper")
	top := Site{Dir: root}
	granted, err := PinScriptsAt(h, root, top)
	if err != nil {
		t.Fatal(err)
	}
	c := NewHashCache()
	defer c.Close()
	check := func(at Site, want bool, what string) {
		t.Helper()
		for range 2 { // the second answer comes from the cache
			if got := Matches(granted, h, root, at, c); got != want {
				t.Fatalf("%s: Matches = %v, want %v", what, got, want)
			}
		}
	}
	check(top, true, "same site")
	check(Site{Dir: sub}, true, "subdirectory: sub/hooks/g.sh names nothing, hooks/g.sh is the grant's")
	writeFile(t, filepath.Join(sub, "hooks/g.sh"), "echo evil\n")
	check(Site{Dir: sub}, false, "subdirectory: sub/hooks/g.sh appeared (never reviewed)")
	check(top, true, "the root session does not resolve sub/hooks/g.sh")
	os.Remove(filepath.Join(sub, "hooks/g.sh"))
	check(Site{Dir: sub}, true, "subdirectory: sub/hooks/g.sh gone again")
	if Matches(granted, h, "", top, c) {
		t.Fatal("no root: pins cannot be resolved")
	}
	fewer := Pins{Scripts: map[string]string{}}
	if Matches(fewer, h, root, top, c) {
		t.Fatal("a grant without hooks/g.sh matched")
	}
	writeFile(t, filepath.Join(root, "helper"), "echo evil\n") // a bare name, pinned only when it exists
	check(top, false, "helper appeared in the root")
	os.Remove(filepath.Join(root, "helper"))
	check(top, true, "helper gone again")
	writeFile(t, filepath.Join(root, "hooks/g.sh"), "echo evil\n")
	check(top, false, "hooks/g.sh edited")
}
