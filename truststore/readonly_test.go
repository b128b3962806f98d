package truststore

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadOnlyLoadLeavesACorruptFile: a ReadOnly store reports a corrupt
// file as corrupt and leaves it byte for byte where it is; a write through
// the same store then moves it aside and refuses (ErrCorrupt).
func TestReadOnlyLoadLeavesACorruptFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "security")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	s := Open(dir, Options{ReadOnly: true})
	const junk = `{"version":1,"records":[`
	if err := os.WriteFile(s.Path(), []byte(junk), 0o600); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		st, err := s.Load()
		if !errors.Is(err, ErrCorrupt) || st.Status != StatusCorrupt {
			t.Fatalf("load: %v %s, want ErrCorrupt and corrupt", err, st.Status)
		}
		if b, err := os.ReadFile(s.Path()); err != nil || string(b) != junk {
			t.Fatalf("the corrupt file was changed or moved: %q %v", b, err)
		}
		if m, _ := filepath.Glob(s.Path() + ".corrupt-*"); len(m) != 0 {
			t.Fatalf("moved aside by a read: %v", m)
		}
	}
	if err := s.Grant("w", []Record{{Digest: hexSum("a")}}); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("grant: %v, want ErrCorrupt", err)
	}
	if m, _ := filepath.Glob(s.Path() + ".corrupt-*"); len(m) != 1 {
		t.Fatalf("the write should have moved it aside once: %v", m)
	}
}

// TestReadOnlyGateMovesAsideOnlyOnWrite: a gate over a ReadOnly store
// evaluates a corrupt trust file as blocked_untrusted and leaves it in
// place ("left in place" in StoreError); its first write (Grant, Revoke)
// moves the file aside and refuses with a *CorruptError naming the new
// name, as a gate that is not ReadOnly does at its first read. The
// refusal lasts: a second write is refused too, moving nothing else.
func TestReadOnlyGateMovesAsideOnlyOnWrite(t *testing.T) {
	for _, write := range []string{"grant", "revoke"} {
		t.Run(write, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "security")
			if err := os.MkdirAll(dir, 0o700); err != nil {
				t.Fatal(err)
			}
			const junk = `{"version":1,"records":[`
			p := filepath.Join(dir, FileName)
			if err := os.WriteFile(p, []byte(junk), 0o600); err != nil {
				t.Fatal(err)
			}
			g := NewGate(GateOptions{WorkspaceID: "w", Root: t.TempDir(), Policy: PolicyUserDecides, Feature: true, Dir: dir, Store: Options{ReadOnly: true}})
			d := Declaration{Digest: hexSum("a")}
			if ev := g.Evaluate([]Declaration{d}); ev[0].State != BlockedUntrusted {
				t.Fatalf("evaluate: %+v, want blocked_untrusted", ev[0])
			}
			var ce *CorruptError
			if err := g.StoreError(); !errors.As(err, &ce) || ce.Kept != readOnlyKept {
				t.Fatalf("store error %v, want left in place", err)
			}
			if b, err := os.ReadFile(p); err != nil || string(b) != junk {
				t.Fatalf("a read changed or moved the file: %q %v", b, err)
			}
			do := func() error {
				if write == "grant" {
					return g.Grant("w", []Record{{Digest: d.Digest}})
				}
				_, err := g.Revoke("w", []string{d.Digest})
				return err
			}
			err := do()
			m, _ := filepath.Glob(p + ".corrupt-*")
			if len(m) != 1 {
				t.Fatalf("%s: moved copies %v, want one", write, m)
			}
			if !errors.As(err, &ce) || ce.MovedTo != m[0] || !strings.HasSuffix(err.Error(), "; nothing was written") {
				t.Fatalf("%s: %v, want a CorruptError moved to %s", write, err, m[0])
			}
			if err := g.StoreError(); !errors.As(err, &ce) || ce.MovedTo != m[0] {
				t.Fatalf("store error after the write: %v, want moved to %s", err, m[0])
			}
			if err := do(); !errors.Is(err, ErrCorrupt) {
				t.Fatalf("second %s: %v, want ErrCorrupt", write, err)
			}
			if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
				t.Fatalf("a refused write started a fresh trust file: %v", err)
			}
			if m2, _ := filepath.Glob(p + ".corrupt-*"); len(m2) != 1 {
				t.Fatalf("moved copies after the second %s: %v", write, m2)
			}
		})
	}
}
