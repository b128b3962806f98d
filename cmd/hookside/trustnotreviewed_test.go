package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestTrustStatusSiteNeverReviewed: a grant made at the repository root,
// read by `hooks trust status --workspace R --cwd R/sub` (a site never
// reviewed) that resolves a file no review showed (sub/hooks/g.sh), keeps
// its machine-stable state and reason (stale_digest, script_changed,
// change "added") but says in words what it is: not reviewed at this
// site, the file this session resolves there not in the grant — not that
// a file was "added". (A site resolving only the grant's files and
// missing ones is covered: TestMatchesExact.) A file edited at the
// grant's own site still reads "changed since the grant".
func TestTrustStatusSiteNeverReviewed(t *testing.T) {
	e := newCLIEnv(t)
	writeFiles(t, map[string]string{
		filepath.Join(e.home, "config.json"):        `{"hooks":{"enabled":true}}`,
		filepath.Join(e.ws, "zcode.json"):           `{"hooks":{"events":{"PreToolUse":[{"hooks":[{"type":"command","command":"sh hooks/g.sh"}]}]}}}`,
		filepath.Join(e.ws, "hooks", "g.sh"):        "exit 0\n",
		filepath.Join(e.ws, "sub", "hooks", "g.sh"): "exit 0 # another script\n",
	})
	e.grantAll(t, "--workspace", e.ws)
	sub := []string{"--workspace", e.ws, "--cwd", filepath.Join(e.ws, "sub")}
	_, out, _ := e.hookside(t, "", append([]string{"hooks", "trust", "status"}, sub...)...)
	for _, want := range []string{
		"stale_digest (script_changed)",
		"not reviewed at this site (sub): this session resolves files no review covered; compared with the grant of ",
		"script sub/hooks/g.sh: added: resolved here (",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("status at sub: want %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "changed since the grant") || strings.Contains(out, "not pinned") {
		t.Errorf("status at sub still words it as an edit:\n%s", out)
	}
	_, out, _ = e.hookside(t, "", append([]string{"hooks", "trust", "status", "--json"}, sub...)...)
	var js struct {
		Declarations []struct {
			TrustState, Reason string
			Changes            struct {
				Note    string
				Scripts []struct{ Path, Change string }
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &js); err != nil || len(js.Declarations) != 1 {
		t.Fatal(err, out)
	}
	d := js.Declarations[0]
	if d.TrustState != "stale_digest" || d.Reason != "script_changed" || len(d.Changes.Scripts) != 1 ||
		d.Changes.Scripts[0].Change != "added" || !strings.HasPrefix(d.Changes.Note, "not reviewed at this site (sub)") {
		t.Errorf("--json at sub: %+v", d)
	}
	writeFiles(t, map[string]string{filepath.Join(e.ws, "hooks", "g.sh"): "exit 1\n"})
	_, out, _ = e.hookside(t, "", "hooks", "trust", "status", "--workspace", e.ws)
	if !strings.Contains(out, "changed since the grant of ") || strings.Contains(out, "not reviewed at this site") {
		t.Errorf("status at the grant's site after an edit:\n%s", out)
	}
}
