package truststore

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/truststore/pin"
)

const gateWS = "/work/repo"

func gateDecls() []Declaration {
	return []Declaration{
		Declare(wsHook(hook.PreToolUse, ptr("Bash"), 0, 0, "one")),
		Declare(wsHook(hook.PreToolUse, ptr("Bash"), 0, 1, "two")),
	}
}

func newGate(t *testing.T, feature bool, policy Policy) (*Gate, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "security")
	return NewGate(GateOptions{WorkspaceID: gateWS, Policy: policy, Feature: feature, Dir: dir}), dir
}

func states(evs []Evaluation) []TrustState {
	out := make([]TrustState, len(evs))
	for i, e := range evs {
		out[i] = e.State
	}
	return out
}

func plantCorrupt(t *testing.T, dir string) string {
	t.Helper()
	if err := ensureDir(dir); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, FileName)
	if err := os.WriteFile(p, []byte(`{"version":1,"records":[`), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestGateFeatureOffReadsNothing(t *testing.T) {
	g, dir := newGate(t, false, PolicyUserDecides)
	p := plantCorrupt(t, dir)
	if g.Store() != nil {
		t.Fatal("feature off: the gate has a store")
	}
	for _, ev := range g.Evaluate(gateDecls()) {
		if ev.State != BlockedPolicy || ev.Reason != ReasonFeatureDisabled || ev.Runnable() {
			t.Fatalf("feature off: %+v", ev)
		}
	}
	if ev := g.Admit(gateDecls()[0]); ev.Reason != ReasonFeatureDisabled {
		t.Fatalf("admit: %+v", ev)
	}
	if st := g.StoreStatus(); st != StatusMissing {
		t.Fatalf("store status %s", st)
	}
	// The corrupt file was never read: still in place, nothing moved aside.
	if b, err := os.ReadFile(p); err != nil || string(b) != `{"version":1,"records":[` {
		t.Fatalf("trust file touched: %q %v", b, err)
	}
	if m, _ := filepath.Glob(p + ".corrupt-*"); len(m) != 0 {
		t.Fatalf("moved aside: %v", m)
	}
	// Even the directory listing is unchanged (no lock file created).
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Fatalf("security dir has %d entries", len(ents))
	}
}

func TestGateSessionRevokeHidesRecord(t *testing.T) {
	g, _ := newGate(t, true, PolicyUserDecides)
	decls := gateDecls()
	if err := g.Store().Grant(gateWS, []Record{testRecord(decls[0].Hook), testRecord(decls[1].Hook)}); err != nil {
		t.Fatal(err)
	}
	if got := states(g.Evaluate(decls)); got[0] != TrustedPersistent || got[1] != TrustedPersistent {
		t.Fatalf("after grant %v", got)
	}
	v := g.Version()
	g.RevokeInSession([]string{decls[0].Digest})
	if g.Version() == v {
		t.Fatal("session revoke did not bump the security version")
	}
	ev := g.Admit(decls[0])
	if ev.State != Revoked || ev.Reason != ReasonRevoked || ev.Runnable() {
		t.Fatalf("revoked in session: %+v", ev)
	}
	if ev := g.Admit(decls[1]); ev.State != TrustedPersistent {
		t.Fatalf("the other declaration: %+v", ev)
	}
	// The record itself is kept: a new gate (another session) trusts it.
	g2 := NewGate(GateOptions{WorkspaceID: gateWS, Policy: PolicyUserDecides, Feature: true, Dir: filepath.Dir(g.Store().Path())})
	if ev := g2.Admit(decls[0]); ev.State != TrustedPersistent {
		t.Fatalf("another session: %+v", ev)
	}
	// Policy still wins over a revoke, as in the spec's order.
	g3 := NewGate(GateOptions{WorkspaceID: gateWS, Policy: PolicyDeny, Feature: true, Dir: filepath.Dir(g.Store().Path())})
	g3.RevokeInSession([]string{decls[0].Digest})
	if ev := g3.Admit(decls[0]); ev.State != BlockedPolicy {
		t.Fatalf("deny + revoke: %+v", ev)
	}
}

func TestGateCorruptIsStickyForTheSession(t *testing.T) {
	g, dir := newGate(t, true, PolicyUserDecides)
	decls := gateDecls()
	p := plantCorrupt(t, dir)
	if ev := g.Admit(decls[0]); ev.State != BlockedUntrusted || ev.Reason != ReasonStoreCorrupt {
		t.Fatalf("corrupt: %+v", ev)
	}
	if _, err := os.Lstat(p); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("corrupt file not moved aside: %v", err)
	}
	// The file is gone now (missing), but the session saw it corrupt:
	// nothing becomes runnable or merely pending by the recovery alone.
	for i := 0; i < 3; i++ {
		if ev := g.Admit(decls[0]); ev.State != BlockedUntrusted {
			t.Fatalf("after quarantine, check %d: %+v", i, ev)
		}
		if st := g.StoreStatus(); st != StatusCorrupt {
			t.Fatalf("store status %s", st)
		}
	}
	// The gate itself refuses writes: a grant now would pass a fresh file
	// off as the old one.
	rec := newPinnedRecord(gateWS, decls[0].Hook, pin.Pins{}, nil)
	moved, _ := filepath.Glob(p + ".corrupt-*")
	if len(moved) != 1 {
		t.Fatalf("corrupt copies %v", moved)
	}
	// The refusal and StoreError name the file, the reason and the real
	// .corrupt-<timestamp> name, though the file is gone by now.
	err := g.Grant(gateWS, []Record{rec})
	var ce *CorruptError
	if !errors.As(err, &ce) || ce.MovedTo != moved[0] || !strings.HasPrefix(ce.Why, "truncated JSON") ||
		!strings.Contains(err.Error(), p+" is corrupt (truncated JSON") || !strings.Contains(err.Error(), "moved aside to "+moved[0]+"; ") ||
		!strings.HasSuffix(err.Error(), "; nothing was written") {
		t.Fatalf("Grant after a corrupt read = %v; want the *CorruptError of the read", err)
	}
	if serr := g.StoreError(); !errors.As(serr, &ce) || ce.MovedTo != moved[0] {
		t.Fatalf("StoreError = %v", serr)
	}
	if _, err := g.Revoke(gateWS, []string{decls[0].Digest}); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("Revoke after a corrupt read = %v; want ErrCorrupt", err)
	}
	if _, err := os.Lstat(g.Store().Path()); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a refused write created the trust file: %v", err)
	}
	// A valid file written by someone else (CLI grant) ends it.
	other := Open(dir, Options{})
	if err := other.Grant(gateWS, []Record{testRecord(decls[0].Hook)}); err != nil {
		t.Fatal(err)
	}
	if got := states(g.Evaluate(decls)); got[0] != TrustedPersistent || got[1] != PendingTrust {
		t.Fatalf("after a valid file appeared: %v", got)
	}
	if st := g.StoreStatus(); st != StatusOK {
		t.Fatalf("store status %s", st)
	}
	if err := g.StoreError(); err != nil {
		t.Fatalf("StoreError on a valid file = %v", err)
	}
}

func TestGateVersion(t *testing.T) {
	g, dir := newGate(t, true, PolicyUserDecides)
	decls := gateDecls()
	v0 := g.Version()
	if g.Version() != v0 {
		t.Fatal("version moved with nothing changed")
	}
	_ = g.Evaluate(decls)
	if g.Version() != v0 {
		t.Fatal("evaluation alone moved the version")
	}
	other := Open(dir, Options{})
	if err := other.Grant(gateWS, []Record{testRecord(decls[0].Hook)}); err != nil {
		t.Fatal(err)
	}
	v1 := g.Version()
	if v1 == v0 {
		t.Fatal("a grant by another store did not bump the version")
	}
	if ev := g.Admit(decls[0]); ev.State != TrustedPersistent {
		t.Fatalf("grant not seen by the next admission: %+v", ev)
	}
	if _, err := other.Revoke(gateWS, []string{decls[0].Digest}); err != nil {
		t.Fatal(err)
	}
	if ev := g.Admit(decls[0]); ev.State != PendingTrust {
		t.Fatalf("revoke not seen by the next admission: %+v", ev)
	}
	if g.Version() == v1 {
		t.Fatal("a revoke by another store did not bump the version")
	}
	v2 := g.Version()
	g.RevokeInSession([]string{decls[1].Digest})
	if g.Version() == v2 {
		t.Fatal("session revoke did not bump the version")
	}
}

func TestGateCounts(t *testing.T) {
	g, _ := newGate(t, true, PolicyAllowTrustedOnly)
	decls := gateDecls()
	if err := g.Store().Grant(gateWS, []Record{testRecord(decls[0].Hook)}); err != nil {
		t.Fatal(err)
	}
	c := Counts(g.Evaluate(decls))
	if len(c) != 2 || c[string(TrustedPersistent)] != 1 || c[string(BlockedPolicy)] != 1 {
		t.Fatalf("counts %v", c)
	}
}
