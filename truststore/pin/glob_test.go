package pin

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestGlobPattern(t *testing.T) {
	for _, tc := range []struct {
		in     string
		nocase bool
		want   string
	}{
		{"hooks/*.sh", false, "hooks/*.sh"},
		{"hooks/*.sh", true, "[hH][oO][oO][kK][sS]/*.[sS][hH]"},
		{"hooks/[!x].sh", false, "hooks/[^x].sh"},
		{"hooks/[ab].sh", true, "[hH][oO][oO][kK][sS]/?.[sS][hH]"},
		{"hooks/[[:alpha:]].sh", false, "hooks/?.sh"},
		{"hooks/[]x].sh", false, "hooks/[]x].sh"},
		{"hooks/[x.sh", false, "hooks/?x.sh"},
		{"hooks/@(a|b).sh", false, "hooks/*.sh"},
		{"hooks/!(x).sh", false, "hooks/*.sh"},
		{"hooks/+(a|?(b)).sh", false, "hooks/*.sh"},
		{"hooks/*(a)*.sh", false, "hooks/**.sh"},
		{"hooks/**/x.sh", false, "hooks/**/x.sh"},
		{`hooks/\*.sh`, false, `hooks/\*.sh`},
	} {
		if got := globPattern(tc.in, tc.nocase); got != tc.want {
			t.Errorf("globPattern(%q, %v) = %q, want %q", tc.in, tc.nocase, got, tc.want)
		}
	}
}

// TestGlobstarMatches: a `**` component matches zero or more
// directories (not through symlinks) and, last, everything below.
func TestGlobstarMatches(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{"h/x.sh", "h/a/x.sh", "h/a/b/x.sh", "h/a/y.py", "other/x.sh"} {
		writeFile(t, filepath.Join(root, f), "true\n")
	}
	big := t.TempDir()
	for i := 0; i <= maxGlobEntries; i++ {
		writeFile(t, filepath.Join(big, "big", fmt.Sprintf("f%04d", i)), "")
	}
	if _, err := globMatches(big, "big/**/*.sh"); !errors.Is(err, ErrUnpinnable) {
		t.Errorf("a walk over %d entries: err = %v, want ErrUnpinnable", maxGlobEntries, err)
	}
	if _, err := PinScripts(cmdHook("bash big/**/*.sh"), big); !errors.Is(err, ErrUnpinnable) {
		t.Errorf("PinScripts over the walk bound: err = %v, want ErrUnpinnable", err)
	}

	if err := os.Symlink(filepath.Join(root, "other"), filepath.Join(root, "h/link")); err != nil {
		t.Skip("no symlinks:", err)
	}
	for pat, want := range map[string][]string{
		"h/**/x.sh": {"h/a/b/x.sh", "h/a/x.sh", "h/x.sh"},
		"h/**":      {"h", "h/a", "h/a/b", "h/a/b/x.sh", "h/a/x.sh", "h/a/y.py", "h/link", "h/x.sh"},
		"**/y.py":   {"h/a/y.py"},
		"h/*/x.sh":  {"h/a/x.sh", "h/link/x.sh"},
	} {
		got, err := globMatches(root, pat)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("globMatches(%q) = %q, %v; want %q", pat, got, err, want)
		}
	}
}

// TestShellFormEditIsChange: for representative forms of TestPinShellForms,
// editing (or, for a glob, adding) the script the form reaches after the
// pins are taken makes them no longer hold.
func TestShellFormEditIsChange(t *testing.T) {
	for _, tc := range []struct{ name, line, edit string }{
		{"arith", "(( $(bash hooks/a.sh; echo 1) ))", "hooks/a.sh"},
		{"ansi_c", `bash hooks/$'\x64'x.sh`, "hooks/dx.sh"},
		{"eval", "eval 'bash hooks/a.sh'", "hooks/a.sh"},
		{"trap", "trap 'bash hooks/a.sh' EXIT", "hooks/a.sh"},
		{"pipe_to_shell", "echo 'bash hooks/a.sh' | sh", "hooks/a.sh"},
		{"nocaseglob_edit", "shopt -s nocaseglob; bash hooks/up*", "hooks/Up.sh"},
		{"nocaseglob_added", "shopt -s nocaseglob; bash hooks/up*", "hooks/UP2.sh"},
		{"globstar_added", "shopt -s globstar; bash hooks/**/d.sh", "hooks/deep/er/new/d.sh"},
		{"glob_literal", "bash lit/[q].sh", "lit/[q].sh"},
		{"dynamic_eval", `X='bash hooks/a.sh'; eval "$X"`, "hooks/a.sh"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := escapeRoot(t)
			h := cmdHook(tc.line)
			p := mustPin(t, h, root)
			if !Hold(p, root, nil) {
				t.Fatal("fresh pins do not hold")
			}
			writeFile(t, filepath.Join(root, tc.edit), "rm -rf ~\n")
			if Hold(p, root, nil) && mustPin(t, h, root).Equal(p) {
				t.Fatalf("pins of %q still hold after %s was written: %v", tc.line, tc.edit, p.Entries())
			}
		})
	}
}
