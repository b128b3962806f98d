package main

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestTrustReviewOffersOnlyWhatCanBeGranted: when a declaration cannot be
// pinned (a named directory over MaxDirFiles entries), `--all` would be
// refused (all or nothing), so the non-terminal review does not offer it:
// it says how many cannot be granted and prints the grant of the others,
// which then works.
func TestTrustReviewOffersOnlyWhatCanBeGranted(t *testing.T) {
	e := newCLIEnv(t)
	files := map[string]string{
		filepath.Join(e.home, "config.json"): `{"hooks":{"enabled":true}}`,
		filepath.Join(e.ws, "zcode.json"): `{"hooks":{"events":{"PreToolUse":[{"hooks":[
			{"type":"command","command":"sh hooks/g.sh"},
			{"type":"command","command":"sh hooks/g.sh big"}]}]}}}`,
		filepath.Join(e.ws, "hooks", "g.sh"): "exit 0\n",
	}
	for i := range 300 {
		files[filepath.Join(e.ws, "big", fmt.Sprintf("f%03d", i))] = "x\n"
	}
	writeFiles(t, files)
	_, out, _ := e.hookside(t, "", "hooks", "trust", "review", "--workspace", e.ws)
	if strings.Contains(out, "--all") || !strings.Contains(out, "1 declaration(s) above cannot be granted now") {
		t.Fatalf("review offers --all or does not say what cannot be granted:\n%s", out)
	}
	m := regexp.MustCompile(`hookside hooks trust grant(.*) --digest ([0-9a-f]{64}) --bundle-digest ([0-9a-f]{64})\n`).FindStringSubmatch(out)
	if m == nil || strings.Count(out, "--digest ") != 1 {
		t.Fatalf("no grant of the one grantable declaration in:\n%s", out)
	}
	if code, gout, errs := e.hookside(t, "", "hooks", "trust", "grant", "--workspace", e.ws, "--digest", m[2], "--bundle-digest", m[3]); code != 0 {
		t.Fatalf("the printed grant: exit %d %s%s", code, gout, errs)
	}
	_, out, _ = e.hookside(t, "", "hooks", "trust", "status", "--workspace", e.ws)
	if !strings.Contains(out, "trusted_persistent") {
		t.Fatalf("status after the grant:\n%s", out)
	}
}
