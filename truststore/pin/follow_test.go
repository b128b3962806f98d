package pin

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/hookside/hookside/internal/hook"
)

// TestPinBracesAndExpansions: words the tester found escaping pinning
// (brace alternatives, $PWD, ~+, default forms of the project-dir
// variables) pin the files they run; other expansions pin the directory
// before them and are listed as Unfollowed.
func TestPinBracesAndExpansions(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{"hooks/k.sh", "hooks/g.sh", "hooks/p.sh", "hooks/d.sh", "hooks/c.sh", "hooks/1.sh", "hooks/2.sh",
		"sub/hooks/s.sh"} {
		writeFile(t, filepath.Join(root, f), "true\n")
	}
	tests := []struct {
		name, line string
		cwd        string // "" = root
		want       []string
		unfollowed []string
	}{
		{"braces", "./hooks/{k,g}.sh", "", []string{"hooks/g.sh", "hooks/k.sh", "hooks/{k,g}.sh"}, nil},
		{"braces_nested_and_range", "bash hooks/{{k,g},{1..2}}.sh", "", []string{"hooks/1.sh", "hooks/2.sh", "hooks/g.sh", "hooks/k.sh", "hooks/{{k,g},{1..2}}.sh"}, nil},
		{"braces_quoted_literal", `bash "hooks/{k,g}.sh"`, "", []string{"hooks/{k,g}.sh"}, nil},
		{"braces_too_many", "bash hooks/{1..1000}.sh", "", []string{"hooks"}, []string{"hooks/{1..1000}.sh"}},
		{"pwd", "$PWD/hooks/p.sh", "", []string{"hooks/p.sh"}, nil},
		{"pwd_braced_in_sub", "${PWD}/hooks/s.sh", "sub", []string{"sub/hooks/s.sh"}, nil},
		{"tilde_plus", "~+/hooks/c.sh", "", []string{"hooks/c.sh"}, nil},
		{"pwd_sibling", "${PWD}x/k.sh", "", nil, []string{"${PWD}x/k.sh"}},
		{"pwd_sibling_unbraced", "$PWD.d/k.sh", "", nil, []string{"$PWD.d/k.sh"}},
		{"pwd_dotdot_in_sub", "$PWD/../hooks/k.sh", "sub", []string{"hooks/k.sh"}, nil},
		{"project_sibling", "${CLAUDE_PROJECT_DIR}x/k.sh", "", nil, []string{"${CLAUDE_PROJECT_DIR}x/k.sh"}},
		{"project_sibling_default", "${CLAUDE_PROJECT_DIR:-hooks}x/k.sh", "", []string{"hooksx/k.sh"}, []string{"${CLAUDE_PROJECT_DIR:-hooks}x/k.sh"}},
		{"pwd_subst", `sh "$(pwd)/hooks/p.sh"`, "", []string{"hooks/p.sh"}, nil},
		{"pwd_subst_backquote_physical_in_sub", "bash `pwd -P`/hooks/s.sh", "sub", []string{"sub/hooks/s.sh"}, nil},
		{"pwd_subst_sibling", `sh $(pwd)x/k.sh`, "", nil, []string{"$(pwd)x/k.sh"}},
		{"pwd_subst_other_command", `sh "$(pwd; cd ..)/hooks/p.sh"`, "", nil, []string{"$(pwd; cd ..)/hooks/p.sh"}},
		{"project_default", "${CLAUDE_PROJECT_DIR:-.}/hooks/d.sh", "", []string{"hooks/d.sh"}, nil},
		{"project_default_forms", "${ZCODE_PROJECT_DIR-.}/hooks/d.sh; ${CLAUDE_PROJECT_DIR:=x}/hooks/k.sh", "",
			[]string{"hooks/d.sh", "hooks/k.sh", "x/hooks/k.sh"}, nil},
		{"other_var_static_dir", "bash ./hooks/$NAME.sh", "", []string{"hooks"}, []string{"./hooks/$NAME.sh"}},
		{"other_var_default", "${HOOKS:-./hooks}/k.sh", "", []string{"hooks/k.sh"}, []string{"${HOOKS:-./hooks}/k.sh"}},
		{"other_var_first", "$HOOKS/k.sh", "", nil, []string{"$HOOKS/k.sh"}},
		{"home", "~/bin/x.sh", "", nil, []string{"~/bin/x.sh"}},
		{"text_operand_not_listed", `echo "$MSG"`, "", nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := cmdHook(tc.line)
			if checkWindowsSyntax && windowsSyntax(h) != nil {
				t.Skip("not readable as a POSIX line on Windows")
			}
			cwd := root
			if tc.cwd != "" {
				cwd = filepath.Join(root, tc.cwd)
			}
			p, err := PinScriptsIn(h, root, cwd)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, rel := range p.Paths() {
				if rel != "bin/sh" && rel != "sh" { // the implicit sh's PATH lookup, when PATH has such entries
					got = append(got, rel)
				}
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("pins of %q = %q, want %q", tc.line, got, tc.want)
			}
			if !reflect.DeepEqual(p.Unfollowed, tc.unfollowed) {
				t.Errorf("Unfollowed of %q = %q, want %q", tc.line, p.Unfollowed, tc.unfollowed)
			}
		})
	}
}

// TestBraceAlternativeEditedIsChange is the tester's case: after pinning
// `./hooks/{k,g}.sh`, editing hooks/k.sh no longer matches.
func TestBraceAlternativeEditedIsChange(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "hooks/k.sh"), "true\n")
	h := cmdHook("./hooks/{k,g}.sh")
	h.Shell = hook.ShellProgram("bash")
	before := mustPin(t, h, root)
	if err := os.WriteFile(filepath.Join(root, "hooks/k.sh"), []byte("rm -rf ~\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if after := mustPin(t, h, root); after.Equal(before) {
		t.Fatalf("editing hooks/k.sh left the pins equal: %v", after.Entries())
	}
}
