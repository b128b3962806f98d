//go:build unix

package store

import (
	"os"
	"syscall"
	"testing"
)

// TestDatabaseFilesOwnerOnly: hookside.db, -wal and -shm are 0600, also when
// an older file was 0644. Unix only: Windows file modes do not carry
// owner-only permissions (ACLs do).
func TestDatabaseFilesOwnerOnly(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	db, path := openTest(t, Options{})
	db.Emit(bg, testEvent("e1", "s1"))
	check := func() {
		t.Helper()
		for _, p := range []string{path, path + "-wal", path + "-shm"} {
			st, err := os.Stat(p)
			if err != nil {
				t.Fatal(err)
			}
			if st.Mode().Perm() != 0o600 {
				t.Fatalf("%s is %v", p, st.Mode().Perm())
			}
		}
	}
	check()
	db.Close()
	os.Chmod(path, 0o644)
	db = reopen(t, path, Options{})
	db.Emit(bg, testEvent("e2", "s1"))
	check()
}
