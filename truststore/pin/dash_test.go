package pin

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hookside/hookside/internal/hook"
)

// dashFiles are the scripts the lines of the dash tests may run; each
// logs its own root-relative path to $PINLOG when it runs.
var dashFiles = []string{"hooks/x.sh", "$hooks/x.sh", "hooks/g.sh", "hooks/g", "hooks/evil.sh",
	"hooks/a.sh", "hooks/b.sh", "hooks/{a,b}.sh", "hooks/0170.sh"}

// dashLines are command lines bash and dash read differently, and some
// they read alike.
var dashLines = []string{
	`sh $'hooks/x.sh'`,
	`sh $"hooks/x.sh"`,
	`((sh hooks/g.sh)|cat)`,
	`((hooks/g))`,
	`echo $'\' ; sh hooks/evil.sh ; #'`,
	`sh hooks/{a,b}.sh`,
	`echo 'sh hooks/\0170.sh' | sh`,
	`true &>/dev/null && sh hooks/a.sh`,
	`sh -c "sh \$'hooks/x.sh'"`,
	`cat <(sh hooks/a.sh)`,
	`a=(1); sh hooks/b.sh`,
	"sh hooks/a.sh\ncat <(sh hooks/b.sh)",
	`sh hooks/a.sh; echo ${x:1}; sh hooks/b.sh`,
	`x=$'\x41' sh hooks/x.sh`,
	`sh hooks/x.sh`,
	`bash hooks/g.sh | cat`,
	`sh hooks/src.sh`,
	// A single quote in a double-quoted ${x-…} (dashQuoteParse).
	`echo "${x-'}"; sh hooks/evil.sh; echo "'}"`,
	`echo "${x+'}"; sh hooks/evil.sh; echo "'}"`,
	`x=1; echo "${x:+'}"; sh hooks/evil.sh; echo "'}"`,
	`x="${y-'}"; sh hooks/evil.sh; z="'}"`,
	`echo "${x?'}"; sh hooks/evil.sh; echo "'}"`,
	`echo "${x-"${y-'}"; sh hooks/evil.sh; echo "'}"}"`,
	`echo "${x-"'}'"}"; sh hooks/a.sh`,
	`echo "${x#'}"; sh hooks/evil.sh; echo "'}"`,
	`echo "${x#'}'}"; sh hooks/a.sh`,
	`x=1; echo "${x%"${y-'}"}"; sh hooks/evil.sh; echo "'"}`,
	`echo "${x-'$(sh hooks/evil.sh)'}"`,
	`echo "$(echo "${x-'}"; sh hooks/evil.sh; echo "'}")"`,
	"echo \"`echo \"${x-'}\"; sh hooks/evil.sh; echo \"'}\"`\"",
	`sh -c "echo \"\${x-'}\"; sh hooks/evil.sh; echo \"'}\""`,
	`echo "${x-'a}b'}" && sh "${y-'}'}"hooks/a.sh`,
	"cat <<EOF | sh\n${x-'}'} hooks/b.sh\nEOF",
	`echo $((1)) $( (sh hooks/a.sh) )`,
}

func dashWorkspace(t *testing.T) string {
	t.Helper()
	files := map[string]string{}
	for _, f := range dashFiles {
		files[f] = "#!/bin/sh\nprintf '%s\\n' '" + f + "' >> \"$PINLOG\"\n"
	}
	files["hooks/src.sh"] = "#!/bin/sh\n. $'hooks/x.sh'\n"
	root := workspace(t, files)
	if err := os.Chmod(filepath.Join(root, "hooks", "g"), 0o755); err != nil {
		t.Fatal(err)
	}
	return root
}

// listedWhole reports whether p lists line whole in Pins.Unfollowed.
func listedWhole(p Pins, line string) bool {
	return slices.ContainsFunc(p.Unfollowed, func(u string) bool { return strings.HasPrefix(u, line+" (") })
}

// TestDashReadingPinned: the pins are the union of what bash and dash run
// (dashReading); a line either reading rejects is listed whole, the
// reason naming the shell; a line both read alike pins what it did.
func TestDashReadingPinned(t *testing.T) {
	root := dashWorkspace(t)
	for _, c := range []struct {
		line   string
		want   []string
		listed string // "" = not listed whole; else a word of the reason
	}{
		{`sh $'hooks/x.sh'`, []string{"hooks/x.sh", "$hooks/x.sh"}, ""},
		{`sh $"hooks/x.sh"`, []string{"hooks/x.sh", "$hooks/x.sh"}, ""},
		{`echo $'\' ; sh hooks/evil.sh ; #'`, []string{"hooks/evil.sh"}, ""},
		{`((hooks/g))`, []string{"hooks/g"}, ""},
		{`((sh hooks/g.sh)|cat)`, []string{"hooks/g.sh"}, "bash"},
		{`sh hooks/{a,b}.sh`, []string{"hooks/a.sh", "hooks/b.sh", "hooks/{a,b}.sh"}, ""},
		{`echo 'sh hooks/\0170.sh' | sh`, []string{"hooks/x.sh", "hooks/0170.sh"}, ""},
		{`true &>/dev/null && sh hooks/a.sh`, []string{"hooks/a.sh"}, ""},
		{`sh -c "sh \$'hooks/x.sh'"`, []string{"hooks/x.sh", "$hooks/x.sh"}, ""},
		{`cat <(sh hooks/a.sh)`, []string{"hooks/a.sh"}, "dash"},
		{"sh hooks/b.sh\na=(1)", []string{"hooks/b.sh"}, "dash"},
		{`sh hooks/x.sh`, []string{"hooks/x.sh"}, ""},
		{`sh hooks/src.sh`, []string{"hooks/src.sh", "hooks/x.sh", "$hooks/x.sh"}, ""},
	} {
		p := mustPin(t, cmdHook(c.line), root)
		checkPaths(t, c.line, p.Paths(), c.want, nil)
		for _, w := range c.want {
			if p.Scripts[w] == AbsentPin {
				t.Errorf("%q: %s pinned absent, want its content", c.line, w)
			}
		}
		listed := listedWhole(p, c.line)
		switch {
		case c.listed == "" && listed:
			t.Errorf("%q: listed whole %q, want the union pinned only", c.line, p.Unfollowed)
		case c.listed != "" && !listed:
			t.Errorf("%q: unpinned %q, want the whole line listed", c.line, p.Unfollowed)
		case c.listed != "" && !strings.Contains(strings.Join(p.Unfollowed, " "), c.listed+" "):
			t.Errorf("%q: unpinned %q, want the reason to name %s", c.line, p.Unfollowed, c.listed)
		}
	}
	// A hook whose shell is bash is bash's to read: a construct dash
	// rejects lists nothing.
	h := cmdHook(`cat <(sh hooks/a.sh)`)
	h.Shell = hook.ShellProgram("bash")
	if p := mustPin(t, h, root); listedWhole(p, h.Command) {
		t.Errorf("shell bash: unpinned %q", p.Unfollowed)
	}
}

// TestDashRealShells runs each line with `bash -c` and `dash -c` and
// checks that every script either shell runs is pinned by content, or the
// line is listed whole in Pins.Unfollowed.
func TestDashRealShells(t *testing.T) {
	shells := map[string]string{}
	for _, sh := range []string{"bash", "dash"} {
		p, err := exec.LookPath(sh)
		if err != nil {
			t.Skipf("%s is not installed (%v): the two readings cannot be checked against it", sh, err)
		}
		shells[sh] = p
	}
	root := dashWorkspace(t)
	log := filepath.Join(t.TempDir(), "log")
	for _, line := range dashLines {
		p := mustPin(t, cmdHook(line), root)
		for sh, prog := range shells {
			os.Remove(log)
			cmd := exec.Command(prog, "-c", line)
			cmd.Dir, cmd.Env = root, append(os.Environ(), "PINLOG="+log)
			cmd.Run() // a shell that rejects the line runs nothing of it: fine
			ran, _ := os.ReadFile(log)
			for _, f := range strings.Fields(string(ran)) {
				if s, ok := p.Scripts[f]; (!ok || s == AbsentPin) && !listedWhole(p, line) {
					t.Errorf("%s -c %q runs %s: pins %q, unpinned %q", sh, line, f, p.Paths(), p.Unfollowed)
				}
			}
		}
	}
}

func TestDashEcho(t *testing.T) {
	for in, want := range map[string]string{
		`sh hooks/\0170.sh`: "sh hooks/x.sh",
		`a\170b`:            "axb",
		`\q\\x\tz`:          "\\q\\x\tz",
		`cut\chere`:         "cut",
		`nul\0z`:            "nulz",
		`plain`:             "plain",
	} {
		if got := dashEcho(in); got != want {
			t.Errorf("dashEcho(%q) = %q, want %q", in, got, want)
		}
	}
}
