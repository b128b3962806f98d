package pin

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hookside/hookside/internal/hook"
)

func TestDashQuoteParse(t *testing.T) {
	for _, c := range []struct {
		in, want string
		odd      bool
	}{
		{`echo "${x-'}"; sh e.sh; echo "'}"`, `echo "${x-"'"}"; sh e.sh; echo "'}"`, true},
		{`echo "${x:+'}"`, `echo "${x:+"'"}"`, true},
		{`echo "${x-'a'}"`, `echo "${x-"'"a"'"}"`, true},
		{`echo "${x-"${y?'}'}"}"`, `echo "${x-"${y?"'"}'}"}"`, true},
		{`echo "${x#'}'}"`, `echo "${x#'}'}"`, false},
		{`echo "${x#${y-'}'}}"`, `echo "${x#${y-'}'}}"`, false},
		{`echo ${x-'}'}`, `echo ${x-'}'}`, false},
		{`echo "${x-$(echo '}')}"`, `echo "${x-$(echo '}')}"`, false},
		{`echo "${x-"'}'"}"`, `echo "${x-"'}'"}"`, false},
		{"cat <<EOF\n${x-'}'}\nEOF", "cat <<EOF\n${x-'}'}\nEOF", true},
	} {
		src, _, odd, _ := dashQuoteParse(c.in)
		if src != c.want || odd != c.odd {
			t.Errorf("dashQuoteParse(%q) = %q, odd %v; want %q, %v", c.in, src, odd, c.want, c.odd)
		}
	}
}

func TestRawPathWords(t *testing.T) {
	var got []string
	for _, w := range rawPathWords(`x="${y-'}"; sh hooks/evil.sh; z="'}" --rc=conf/a.rc -n run.py 1.5 . .. hooks/evil.sh|cat`) {
		if w.op != pathOp {
			t.Errorf("token %+v: want op %q", w, pathOp)
		}
		got = append(got, w.text)
	}
	if want := []string{"hooks/evil.sh", "conf/a.rc", "run.py", "1.5"}; !slices.Equal(got, want) {
		t.Errorf("rawPathWords = %q, want %q", got, want)
	}
}

// TestDashQuotePinned: a script only dash runs past a single quote in a
// double-quoted ${…} is pinned (absent while missing), however the line is
// run: a command hook (sh -c), `shell: true`, a process hook `sh -c` /
// `dash -c`; so a file created there after the grant changes the pins.
// A line with more such quotes than are rewritten has its raw path-like
// tokens pinned.
func TestDashQuotePinned(t *testing.T) {
	root := workspace(t, map[string]string{"hooks/ok.sh": "#!/bin/sh\n"})
	lines := []string{
		`echo "${x-'}"; sh hooks/evil.sh; echo "'}"`,
		`echo "${x+'}"; sh hooks/evil.sh; echo "'}"`,
		`x="${y-'}"; sh hooks/evil.sh; z="'}"`,
		`echo "${x-'$(sh hooks/evil.sh)'}"`,
		strings.Repeat(`"${x-'}"`, maxQuoteRewrites+2) + `; sh hooks/evil.sh; echo "'}"`,
	}
	for _, line := range lines {
		shellTrue := cmdHook(line)
		shellTrue.Shell = hook.ShellOfTrue
		hooks := []hook.Hook{cmdHook(line), shellTrue}
		for _, sh := range []string{"sh", "dash"} {
			p := cmdHook("")
			p.Type, p.Command, p.Args = hook.TypeProcess, sh, []string{"-c", line}
			hooks = append(hooks, p)
		}
		for _, h := range hooks {
			before := mustPin(t, h, root)
			if s, ok := before.Scripts["hooks/evil.sh"]; !ok || s != AbsentPin {
				t.Errorf("%s %q %q: pins %q, want hooks/evil.sh pinned absent", h.Type, h.Command, h.Args, before.Paths())
			}
		}
	}
	writeFile(t, filepath.Join(root, "hooks", "evil.sh"), "#!/bin/sh\necho EVIL\n")
	for _, line := range lines {
		p := mustPin(t, cmdHook(line), root)
		if s := p.Scripts["hooks/evil.sh"]; s == "" || s == AbsentPin {
			t.Errorf("%q: hooks/evil.sh (created) pinned %q, want its content", line, s)
		}
	}
	if err := os.Remove(filepath.Join(root, "hooks", "evil.sh")); err != nil {
		t.Fatal(err)
	}
	// Read alike by both shells: no raw tokens (an echo operand without
	// a "/" is text).
	line := `echo "${x#'}'}" evil.sh; sh hooks/ok.sh`
	checkPaths(t, line, mustPin(t, cmdHook(line), root).Paths(), []string{"hooks/ok.sh"}, []string{"evil.sh"})
	line = `echo "${x-'a'}" evil.sh; sh hooks/ok.sh`
	checkPaths(t, line, mustPin(t, cmdHook(line), root).Paths(), []string{"hooks/ok.sh", "evil.sh"}, nil)
}
