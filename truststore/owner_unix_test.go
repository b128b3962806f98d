//go:build !windows

package truststore

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCorruptOwnerReadOnly: a trust file owned by another user is corrupt
// with that reason; a read-only Load says so, leaves it in place and logs
// nothing; a write then moves it aside, naming the new file, and warns once.
func TestCorruptOwnerReadOnly(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("giving a file to another uid needs root; the owner reason is checked only when the tests run as root")
	}
	dir := filepath.Join(t.TempDir(), "security")
	if err := ensureDir(dir); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, FileName)
	if err := os.WriteFile(p, []byte(`{"version":1,"records":[]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(p, 12345, 12345); err != nil {
		t.Fatal(err)
	}
	why := fmt.Sprintf("owned by uid 12345, not the current user (uid %d)", os.Geteuid())
	var logged bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&logged, nil))

	st, err := Open(dir, Options{ReadOnly: true, Logger: log}).Load()
	var ce *CorruptError
	if st.Status != StatusCorrupt || !errors.As(err, &ce) || ce.Why != why || ce.MovedTo != "" || ce.Kept != readOnlyKept ||
		!strings.Contains(err.Error(), "left in place") {
		t.Fatalf("read-only Load = %s, %v", st.Status, err)
	}
	if _, err := os.Lstat(p); err != nil || logged.Len() != 0 {
		t.Fatalf("read-only Load moved the file (%v) or logged %q", err, logged.String())
	}

	err = Open(dir, Options{Logger: log}).Grant("w", []Record{{Digest: hexSum("a")}})
	moved, _ := filepath.Glob(p + ".corrupt-*")
	if !errors.As(err, &ce) || len(moved) != 1 || ce.MovedTo != moved[0] || !ce.Write ||
		err.Error() != "the workspace hook trust file "+p+" is corrupt ("+why+"): moved aside to "+moved[0]+
			"; every workspace hook is untrusted until granted again: a grant from a new session or from hookside hooks trust grant"+
			" starts a fresh trust file (to keep the earlier grants instead, chown the moved file to your user and move it back); nothing was written" {
		t.Fatalf("grant = %v (copies %v)", err, moved)
	}
	checkMovedAsideLog(t, logged.String(), p, why, moved[0])
}
