package fsid

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestMemoReadsEachFileStateOnce: a file read through a Memo is read once
// while it stays the same; an edit (another identity) is read afresh;
// Get hands out a reading only for the identity it was read from; an
// absent file is not opened; after Done every call reads.
func TestMemoReadsEachFileStateOnce(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "settings.json")
	if err := os.WriteFile(p, []byte(`{"a":1}`), 0o600); err != nil {
		t.Fatal(err)
	}
	m := NewMemo()
	for i := 0; i < 3; i++ {
		data, err := m.ReadFile(p, 1<<20)
		if err != nil || string(data) != `{"a":1}` {
			t.Fatalf("read %d: %q, %v", i, data, err)
		}
	}
	if m.Reads() != 1 || m.Hits() != 2 {
		t.Fatalf("reads %d, hits %d; want 1, 2", m.Reads(), m.Hits())
	}
	id, err := Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if data, ok := m.Get(p, id); !ok || string(data) != `{"a":1}` {
		t.Errorf("Get with the file's identity: %q, %v", data, ok)
	}
	if _, ok := m.Get(p, ID{}); ok {
		t.Error("Get with another identity served the old reading")
	}
	// An edit: another size and time, so another identity.
	if err := os.WriteFile(p, []byte(`{"a":22}`), 0o600); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Second)
	if err := os.Chtimes(p, later, later); err != nil {
		t.Fatal(err)
	}
	if _, ok := m.Get(p, id); !ok {
		t.Error("Get with the old identity no longer serves the old reading (the caller's stat decides)")
	}
	if data, err := m.ReadFile(p, 1<<20); err != nil || string(data) != `{"a":22}` || m.Reads() != 2 {
		t.Errorf("after an edit: %q, %v, reads %d", data, err, m.Reads())
	}
	if _, err := m.ReadFile(filepath.Join(dir, "absent.json"), 1<<20); !errors.Is(err, fs.ErrNotExist) || m.Reads() != 2 {
		t.Errorf("absent: %v, reads %d", err, m.Reads())
	}
	m.Done()
	if _, ok := m.Get(p, id); ok {
		t.Error("Get after Done")
	}
	if _, err := m.ReadFile(p, 1<<20); err != nil || m.Reads() != 3 {
		t.Errorf("after Done: %v, reads %d", err, m.Reads())
	}
	var none *Memo
	if data, err := none.ReadFile(p, 1<<20); err != nil || string(data) != `{"a":22}` {
		t.Errorf("nil Memo: %q, %v", data, err)
	}
}
