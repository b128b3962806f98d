package pin

import (
	"path/filepath"
	"testing"
)

// TestPinPathAssignmentsAndOperandsAfterDashDash: a PATH assignment of the
// command line (`PATH=bin:/usr/bin tool`, `env PATH=…`, `export PATH=…;`)
// is where the command name after it is looked up, so bin/tool is pinned;
// a search-path list (`PYTHONPATH=lib:/x`) pins each entry (a directory as
// its tree); after "--" every word is an operand, so `sh -- -x.sh` pins
// ./-x.sh. Before, the list was pinned as one absent file named
// "bin:/usr/bin" and "-x.sh" was read as options, so an edit of the
// script the trusted hook runs changed nothing.
func TestPinPathAssignmentsAndOperandsAfterDashDash(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "bin/mytool"), "echo ok\n")
	writeFile(t, filepath.Join(root, "lib/tool.py"), "print(1)\n")
	writeFile(t, filepath.Join(root, "-x.sh"), "echo dash\n")
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
		{command: "NODE_OPTIONS=--inspect=127.0.0.1:9229 node a.js", want: []string{"127.0.0.1:9229", "a.js"}},
		{command: "sh -- -x.sh", want: []string{"-x.sh"}},
		{command: "bash -e -- -x.sh", want: []string{"-x.sh"}},
		{command: "python3 -- -x.py", want: []string{"-x.py"}},
		{command: "runuser -u nobody -- sh -c 'sh -- -x.sh'", want: []string{"-x.sh", "nobody", "sh"}},
		{command: "sh", args: []string{"--", "-x.sh"}, want: []string{"-x.sh"}},
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
