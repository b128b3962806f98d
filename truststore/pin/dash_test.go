package pin

import (
	"strings"
	"testing"
)

// TestShellAmbiguityListed: a command line bash rejects, or one with
// $'…'/$"…" quoting, may run other files under a POSIX sh such as dash
// than the ones pinned: the whole line is listed unpinned. A plain line
// is not.
func TestShellAmbiguityListed(t *testing.T) {
	root := workspace(t, map[string]string{"hooks/x.sh": "true\n", "hooks/g.sh": "true\n"})
	for _, line := range []string{`sh $'hooks/x.sh'`, `sh $"hooks/x.sh"`, `((sh hooks/g.sh)|cat)`, `echo $'\' ; sh hooks/g.sh ; #'`} {
		p := mustPin(t, cmdHook(line), root)
		found := false
		for _, u := range p.Unfollowed {
			found = found || strings.HasPrefix(u, line+" (")
		}
		if !found {
			t.Errorf("%q: unpinned %q, want the whole line listed", line, p.Unfollowed)
		}
	}
	if p := mustPin(t, cmdHook("sh hooks/x.sh"), root); len(p.Unfollowed) != 0 {
		t.Errorf("plain line: unpinned %q", p.Unfollowed)
	}
}
