package truststore

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/truststore/pin"
)

// sessionGate is a gate at the Site at sharing the trust file in dir.
func sessionGate(t *testing.T, dir, root string, at pin.Site) *Gate {
	t.Helper()
	g := NewGate(GateOptions{WorkspaceID: "w", Root: root, Site: at, Feature: true, Dir: dir})
	t.Cleanup(g.hashes.Close)
	return g
}

// twoSites is a workspace where ./hooks/g.sh resolves to hooks/g.sh in
// the root and also to sub/hooks/g.sh in sub/, with gates for both.
func twoSites(t *testing.T) (root string, top, sub *Gate, h hook.Hook) {
	t.Helper()
	root = t.TempDir()
	writeFile(t, filepath.Join(root, "hooks/g.sh"), "#!/bin/sh\ntrue\n")
	writeFile(t, filepath.Join(root, "sub/hooks/g.sh"), "#!/bin/sh\necho sub\n")
	dir := filepath.Join(t.TempDir(), "security")
	sd := filepath.Join(root, "sub")
	top = sessionGate(t, dir, root, pin.Site{Dir: root, ProjectDir: root})
	sub = sessionGate(t, dir, root, pin.Site{Dir: sd, ProjectDir: sd})
	return root, top, sub, cmdHook("./hooks/g.sh")
}

func loadRecord(t *testing.T, g *Gate, digest string) Record {
	t.Helper()
	st, err := Open(filepath.Dir(g.Store().Path()), Options{}).Load()
	if err != nil {
		t.Fatal(err)
	}
	rec, ok := st.Lookup("w", digest)
	if !ok {
		t.Fatalf("no record of %s", digest)
	}
	return *rec
}

func wantState(t *testing.T, what string, g *Gate, d Declaration, want TrustState) {
	t.Helper()
	if ev := g.Admit(d); ev.State != want {
		t.Fatalf("%s: %+v, want %s", what, ev, want)
	}
}

// TestGrantAtTwoSitesBothAdmitted: a grant in the root and one in sub/
// (one after the other, one record) leave both sessions admitted; the
// record holds both sets, the newest as its own pins (what an older
// binary reads), each under its site's key.
func TestGrantAtTwoSitesBothAdmitted(t *testing.T) {
	root, top, sub, h := twoSites(t)
	d := grantAt(t, top, root, top.opts.Site, h)
	wantState(t, "root after its grant", top, d, TrustedPersistent)
	wantState(t, "sub before its grant", sub, d, StaleDigest)
	grantAt(t, sub, root, sub.opts.Site, h)
	wantState(t, "root after sub's grant", top, d, TrustedPersistent)
	wantState(t, "sub after its grant", sub, d, TrustedPersistent)

	rec := loadRecord(t, top, d.Digest)
	if rec.Site == nil || rec.Site.Dir != "sub" || len(rec.OtherSites) != 1 || rec.OtherSites[0].Site.Dir != "." {
		t.Fatalf("record sites %+v / %+v, want sub then .", rec.Site, rec.OtherSites)
	}
	if _, ok := rec.ScriptPins["sub/hooks/g.sh"]; !ok {
		t.Fatalf("own pins %v, want sub's (the newest grant)", rec.ScriptPins)
	}
	// The admission watch covers every site's pins.
	top.Admit(d)
	watch := strings.Join(top.WatchPaths(), "\n")
	if !strings.Contains(watch, filepath.Join(root, "sub", "hooks", "g.sh")) || !strings.Contains(watch, filepath.Join(root, "hooks", "g.sh")) {
		t.Fatalf("watch paths %s, want both sites' scripts", watch)
	}
	// Granting again at a site replaces that site's set only.
	grantAt(t, top, root, top.opts.Site, h)
	if rec := loadRecord(t, top, d.Digest); rec.Site.Dir != "." || len(rec.OtherSites) != 1 || rec.OtherSites[0].Site.Dir != "sub" {
		t.Fatalf("after a second root grant: %+v / %+v, want . then sub", rec.Site, rec.OtherSites)
	}
	// Revoking the declaration revokes every site.
	if _, err := top.Revoke("w", []string{d.Digest}); err != nil {
		t.Fatal(err)
	}
	wantState(t, "root after revoke", top, d, Revoked)
	wantState(t, "sub after revoke", sub, d, PendingTrust)
}

// TestScriptEditStalesOnlyItsSites: an edit of the script only sub/
// resolves makes sub stale and leaves the root trusted; an edit of the
// script both resolve makes both stale. Describe names, for the stale
// session, the set granted at its own site.
func TestScriptEditStalesOnlyItsSites(t *testing.T) {
	root, top, sub, h := twoSites(t)
	d := grantAt(t, top, root, top.opts.Site, h)
	grantAt(t, sub, root, sub.opts.Site, h)
	writeFile(t, filepath.Join(root, "sub/hooks/g.sh"), "#!/bin/sh\necho evil\n")
	wantState(t, "root after the sub-only edit", top, d, TrustedPersistent)
	wantState(t, "sub after the sub-only edit", sub, d, StaleDigest)

	ev, changes := changesAt(t, sub, root, sub.opts.Site, h)
	if ev.Reason != ReasonScriptChanged || len(changes) != 1 || changes[0].Path != "sub/hooks/g.sh" || changes[0].Change != "changed" {
		t.Fatalf("sub changes %+v %+v, want sub/hooks/g.sh changed against sub's grant", ev, changes)
	}
	w := NewWorkspaceAt(root, sub.opts.Site, nil, []hook.Hook{h}, []bool{true})
	ds := Describe(w, sub.Evaluate(w.Declarations), nil)
	if c := ds[0].Changes; c == nil || c.GrantedSite == nil || c.GrantedSite.Dir != "sub" {
		t.Fatalf("changes %+v, want grantedSite sub", ds[0].Changes)
	}
	if s := ds[0].Sites; len(s) != 2 || s[0].Site.Dir != "sub" || !s[0].Here || s[0].Current || s[1].Site.Dir != "." || s[1].Here || s[1].Current {
		t.Fatalf("sites %+v, want sub (here, not current) and . (neither)", s)
	}

	writeFile(t, filepath.Join(root, "hooks/g.sh"), "#!/bin/sh\necho evil\n")
	wantState(t, "root after the shared edit", top, d, StaleDigest)
	wantState(t, "sub after the shared edit", sub, d, StaleDigest)
}

// TestSameResolutionNeedsNoReview: a session whose site resolves exactly
// the pins another site's grant recorded (here a bare command name found
// in a PATH entry inside the workspace, alike from every directory) is
// admitted without its own review; once its resolution differs in
// anything (the name appears in its own directory), it is not.
func TestSameResolutionNeedsNoReview(t *testing.T) {
	root := t.TempDir()
	bin := filepath.Join(root, "bin")
	writeFile(t, filepath.Join(bin, "guard"), "#!/bin/sh\ntrue\n")
	dir := filepath.Join(t.TempDir(), "security")
	at := func(d string) pin.Site { return pin.Site{Dir: d, ProjectDir: d, Path: []string{bin}} }
	other := filepath.Join(root, "other")
	if err := os.MkdirAll(other, 0o755); err != nil {
		t.Fatal(err)
	}
	top, og := sessionGate(t, dir, root, at(root)), sessionGate(t, dir, root, at(other))
	h := cmdHook("guard --check")
	d := grantAt(t, top, root, top.opts.Site, h)
	wantState(t, "root", top, d, TrustedPersistent)
	wantState(t, "other/ (resolves the root's pins)", og, d, TrustedPersistent)
	writeFile(t, filepath.Join(other, "guard"), "#!/bin/sh\necho evil\n")
	wantState(t, "other/ with its own guard", og, d, StaleDigest)
	wantState(t, "root", top, d, TrustedPersistent)
}

// TestOldTrustFileMigrates: a record written before sites were recorded
// (no site, no otherSites) is read as one set of an unrecorded site: it
// admits what it admitted before; a grant at another site adds a set and
// keeps it; the next write keeps both.
func TestOldTrustFileMigrates(t *testing.T) {
	root, top, sub, h := twoSites(t)
	pins, err := PinNowAt(h, root, top.opts.Site)
	if err != nil {
		t.Fatal(err)
	}
	old := map[string]any{"version": 1, "records": []any{map[string]any{
		"workspaceId": "w", "digest": Digest(h), "grantedAt": "2024-05-01T10:00:00Z", "snapshot": snapshotOf(h),
		"scriptPins": pins.Scripts,
	}}}
	data, _ := json.Marshal(old)
	dir := filepath.Dir(top.Store().Path())
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(top.Store().Path(), data, 0o600); err != nil {
		t.Fatal(err)
	}
	d := Declare(h)
	wantState(t, "root with the old record", top, d, TrustedPersistent)
	wantState(t, "sub with the old record", sub, d, StaleDigest)
	grantAt(t, sub, root, sub.opts.Site, h)
	wantState(t, "root after sub's grant", top, d, TrustedPersistent)
	wantState(t, "sub after its grant", sub, d, TrustedPersistent)
	rec := loadRecord(t, top, d.Digest)
	if rec.Site == nil || rec.Site.Dir != "sub" || len(rec.OtherSites) != 1 || rec.OtherSites[0].Site != nil ||
		!rec.OtherSites[0].GrantedAt.Equal(time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)) {
		t.Fatalf("record %+v / %+v, want sub then the unrecorded old site", rec.Site, rec.OtherSites)
	}
	raw, _ := os.ReadFile(top.Store().Path())
	if !strings.Contains(string(raw), `"version": 1`) || !strings.Contains(string(raw), `"otherSites"`) {
		t.Fatalf("file %s, want version 1 with otherSites", raw)
	}
}

// TestSitesBounded: a record keeps at most MaxSites sets; a grant at one
// more site drops the oldest, whose session is stale again.
func TestSitesBounded(t *testing.T) {
	root := t.TempDir()
	h := cmdHook("./g.sh")
	clock := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	dir := filepath.Join(t.TempDir(), "security")
	st := Open(dir, Options{Now: func() time.Time { clock = clock.Add(time.Minute); return clock }})
	site := func(i int) pin.Site {
		d := filepath.Join(root, "d"+string(rune('a'+i/26))+string(rune('a'+i%26)))
		return pin.Site{Dir: d, ProjectDir: d}
	}
	for i := range MaxSites + 1 {
		writeFile(t, filepath.Join(site(i).Dir, "g.sh"), "echo "+site(i).Dir+"\n")
		w := NewWorkspaceAt(root, site(i), nil, []hook.Hook{h}, []bool{true})
		if err := GrantShown(st, "w", Show(w), w.Declarations); err != nil {
			t.Fatal(err)
		}
	}
	s, err := st.Load()
	if err != nil {
		t.Fatal(err)
	}
	rec, _ := s.Lookup("w", Digest(h))
	if n := len(rec.Sites()); n != MaxSites {
		t.Fatalf("%d sites, want %d", n, MaxSites)
	}
	first, last := sessionGate(t, dir, root, site(0)), sessionGate(t, dir, root, site(MaxSites))
	wantState(t, "the oldest site", first, Declare(h), StaleDigest)
	wantState(t, "the newest site", last, Declare(h), TrustedPersistent)
	wantState(t, "the second oldest site", sessionGate(t, dir, root, site(1)), Declare(h), TrustedPersistent)
}

// TestSiteKeyOf: the key is the site relative to the workspace root, the
// project directory only when it differs, and only the PATH entries
// inside the pin root (relative ones from the session directory).
func TestSiteKeyOf(t *testing.T) {
	root, elsewhere := t.TempDir(), t.TempDir()
	sub := filepath.Join(root, "sub")
	k := SiteKeyOf(root, root, pin.Site{Dir: sub, ProjectDir: root, Path: []string{elsewhere, "bin", "", filepath.Join(root, "tools"), "bin"}})
	if k.Dir != "sub" || k.ProjectDir != "." || strings.Join(k.Path, ",") != "sub/bin,sub,tools" {
		t.Fatalf("key %+v", k)
	}
	if k := SiteKeyOf(root, root, pin.Site{}); k.Dir != "." || k.ProjectDir != "" || k.Path != nil || k.String() != "." {
		t.Fatalf("root key %+v", k)
	}
	if got := k.String(); got != "sub (project dir ., PATH sub/bin:sub:tools)" {
		t.Fatalf("String %q", got)
	}
}

// TestOtherSitesValidated: a set under otherSites is checked like the
// record's own pins (a bad one makes the file corrupt), and a site given
// twice keeps its first set.
func TestOtherSitesValidated(t *testing.T) {
	h := cmdHook("./g.sh")
	base := map[string]any{"workspaceId": "w", "digest": Digest(h), "grantedAt": "2025-01-01T00:00:00Z", "snapshot": snapshotOf(h),
		"site": map[string]any{"dir": "."}}
	bad := map[string]any{"grantedAt": "2025-01-01T00:00:00Z", "scriptPins": map[string]string{"../x": hexSum("x")}}
	base["otherSites"] = []any{bad}
	data, _ := json.Marshal(map[string]any{"version": 1, "records": []any{base}})
	if _, err := parse(data); err == nil || !strings.Contains(err.Error(), "otherSites[0]") {
		t.Fatalf("parse = %v, want otherSites[0] invalid", err)
	}
	a := map[string]any{"site": map[string]any{"dir": "sub"}, "grantedAt": "2025-01-02T00:00:00Z", "scriptPins": map[string]string{"a": hexSum("a")}}
	b := map[string]any{"site": map[string]any{"dir": "sub"}, "grantedAt": "2025-01-03T00:00:00Z", "scriptPins": map[string]string{"b": hexSum("b")}}
	dup := map[string]any{"site": map[string]any{"dir": "."}, "grantedAt": "2025-01-03T00:00:00Z"}
	base["otherSites"] = []any{a, b, dup}
	data, _ = json.Marshal(map[string]any{"version": 1, "records": []any{base}})
	recs, err := parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if o := recs[0].OtherSites; len(o) != 1 || o[0].ScriptPins["a"] == "" {
		t.Fatalf("otherSites %+v, want sub's first set only", o)
	}
}
