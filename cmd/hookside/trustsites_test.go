package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestTrustStatusListsSites: granted from the root and from sub/ (--cwd),
// `hooks trust status` lists both sites' pins under the declaration,
// marking this invocation's site and the set that admits it; after an
// edit of the sub-only script the sub view is stale and compares with the
// set granted at sub, the root view stays trusted.
func TestTrustStatusListsSites(t *testing.T) {
	e := newCLIEnv(t)
	sub := filepath.Join(e.ws, "sub")
	writeFiles(t, map[string]string{
		filepath.Join(e.home, "config.json"): `{"hooks":{"enabled":true}}`,
		filepath.Join(e.ws, "zcode.json"):    `{"hooks":{"events":{"Stop":[{"hooks":[{"type":"command","command":"./hooks/g.sh"}]}]}}}`,
		filepath.Join(e.ws, "hooks/g.sh"):    "#!/bin/sh\ntrue\n",
		filepath.Join(sub, "hooks/g.sh"):     "#!/bin/sh\necho sub\n",
	})
	for _, at := range [][]string{nil, {"--cwd", sub, "--workspace", e.ws}} {
		e.grantAll(t, at...)
	}
	code, out, errs := e.hookside(t, "", "hooks", "trust", "status", "--home", e.home)
	if code != 0 || !strings.Contains(out, "trusted_persistent") || !strings.Contains(out, "granted at 2 sites") {
		t.Fatalf("root status: %d %s %s", code, out, errs)
	}
	lines := strings.Split(out, "\n")
	var sites []string
	for i, l := range lines {
		if strings.Contains(l, "granted at 2 sites") && i+2 < len(lines) {
			sites = []string{strings.TrimSpace(lines[i+1]), strings.TrimSpace(lines[i+2])}
		}
	}
	if len(sites) != 2 || !strings.HasPrefix(sites[0], "sub, ") || strings.Contains(sites[0], "[") || !strings.Contains(sites[0], "sub/hooks/g.sh sha256:") ||
		!strings.HasPrefix(sites[1], "., ") || !strings.Contains(sites[1], "[this session's site, admits this session]: hooks/g.sh sha256:") {
		t.Fatalf("site lines %q in\n%s", sites, out)
	}
	writeFiles(t, map[string]string{filepath.Join(sub, "hooks/g.sh"): "#!/bin/sh\necho edited\n"})
	code, out, errs = e.hookside(t, "", "hooks", "trust", "status", "--home", e.home, "--workspace", e.ws, "--cwd", sub)
	if code != 0 || !strings.Contains(out, "stale_digest (script_changed)") || !strings.Contains(out, " at sub (digest ") ||
		!strings.Contains(out, "script sub/hooks/g.sh: changed") || !strings.Contains(out, "[this session's site]:") {
		t.Fatalf("sub status after the edit: %d %s %s", code, out, errs)
	}
	if code, out, errs := e.hookside(t, "", "hooks", "trust", "status", "--home", e.home); code != 0 || !strings.Contains(out, "trusted_persistent") {
		t.Fatalf("root status after the edit: %d %s %s", code, out, errs)
	}
}
