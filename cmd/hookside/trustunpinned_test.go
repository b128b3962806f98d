package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookside/hookside/truststore"
)

// TestDescribeDeclShowsUnpinned: the words pinning could not follow
// (truststore.DeclarationStatus.Unpinned) are printed under the pins in
// `hooks trust status` and `review`, so a reviewer sees them.
func TestDescribeDeclShowsUnpinned(t *testing.T) {
	var b bytes.Buffer
	describeDecl(&b, 1, truststore.DeclarationStatus{Unpinned: []string{"$HOOKS/k.sh", "./hooks/$N.sh"}})
	want := "     unpinned $HOOKS/k.sh, ./hooks/$N.sh (words pinning could not follow: review what they run)\n"
	if !strings.Contains(b.String(), want) {
		t.Fatalf("describeDecl:\n%s\nwant the line %q", b.String(), want)
	}
	b.Reset()
	describeDecl(&b, 1, truststore.DeclarationStatus{})
	if strings.Contains(b.String(), "unpinned") {
		t.Fatalf("no unpinned words, yet:\n%s", b.String())
	}
}

// TestGrantWarnsUnpinned: a grant (--all or --digest) of a declaration
// with unpinned words (the `unpinned` line of status and review) prints
// one warning line per such declaration on stderr naming them; stdout
// stays the result (--json parses), and a declaration pinned whole gets
// no warning.
func TestGrantWarnsUnpinned(t *testing.T) {
	e := newTrustEnv(t)
	writeFiles(t, map[string]string{filepath.Join(e.ws, "zcode.json"): `{"hooks":{"events":{"Stop":[{"hooks":[` +
		`{"type":"command","command":"true"},{"type":"command","command":"sh ./hooks/$NAME.sh"},{"type":"command","command":"bash \"$HOOKS/k.sh\" x"}]}]}}}`})
	st := e.status(t)
	if len(st.Declarations) != 3 || len(st.Declarations[0].Unpinned) != 0 || len(st.Declarations[1].Unpinned) == 0 || len(st.Declarations[2].Unpinned) == 0 {
		t.Fatalf("declarations %+v", st.Declarations)
	}
	d0, d1, d2 := st.Declarations[0].Digest, st.Declarations[1].Digest, st.Declarations[2].Digest
	wantWarn := func(errs string, digests ...string) {
		t.Helper()
		lines := strings.Split(strings.TrimSuffix(errs, "\n"), "\n")
		if errs == "" {
			lines = nil
		}
		if len(lines) != len(digests) {
			t.Fatalf("stderr %q: want %d warning line(s)", errs, len(digests))
		}
		for i, dg := range digests {
			if !strings.HasPrefix(lines[i], "hookside hooks trust grant: warning: "+dg+" (zcode.json Stop[0][") || !strings.Contains(lines[i], "is trusted with unpinned words: ") ||
				!strings.Contains(lines[i], "what they run can change without the trust going stale") {
				t.Errorf("warning line %q", lines[i])
			}
		}
	}
	code, out, errs := e.cli("grant", "--all", "--bundle-digest", st.BundleDigest)
	if code != 0 || out != "trusted "+d0+"\ntrusted "+d1+"\ntrusted "+d2+"\n" {
		t.Fatalf("grant --all: exit %d %q %s", code, out, errs)
	}
	wantWarn(errs, d1, d2)
	if !strings.Contains(errs, "unpinned words: ./hooks/$NAME.sh (") || !strings.Contains(errs, "$HOOKS/k.sh") {
		t.Errorf("warnings do not name the words: %s", errs)
	}
	code, out, errs = e.cli("grant", "--all", "--bundle-digest", st.BundleDigest, "--json")
	var res struct{ Trusted []string }
	if code != 0 || json.Unmarshal([]byte(out), &res) != nil || len(res.Trusted) != 3 {
		t.Fatalf("grant --all --json: exit %d %q", code, out)
	}
	wantWarn(errs, d1, d2)
	code, _, errs = e.cli("grant", "--digest", d0)
	if code != 0 {
		t.Fatalf("grant %s: exit %d %s", d0, code, errs)
	}
	wantWarn(errs)
	code, _, errs = e.cli("grant", "--digest", d2[:8])
	if code != 0 {
		t.Fatalf("grant %s: exit %d %s", d2, code, errs)
	}
	wantWarn(errs, d2)
}
