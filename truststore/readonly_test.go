package truststore

import (
	"errors"
	"os"
	"path/filepath"
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
