//go:build !windows

package truststore

import (
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCorruptMessageSaysWhatToDo: the error of a trust file with mode 0644
// names the file and the reason without a package prefix, says where the
// file went and what to do, and the advice holds: a grant starts a fresh
// file, and the moved file, chmod 600 and moved back, brings the earlier
// grants back.
func TestCorruptMessageSaysWhatToDo(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "security")
	quiet := Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	st := Open(dir, quiet)
	if err := st.Grant("w", []Record{{Digest: hexSum("a")}}); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, FileName)
	if err := os.Chmod(p, 0o644); err != nil {
		t.Fatal(err)
	}

	err := Open(dir, quiet).Grant("w", []Record{{Digest: hexSum("b")}})
	moved, _ := filepath.Glob(p + ".corrupt-*")
	if len(moved) != 1 {
		t.Fatalf("copies %v", moved)
	}
	want := "the workspace hook trust file " + p + " is corrupt (mode 0644: permission bits beyond 0600): moved aside to " + moved[0] +
		"; every workspace hook is untrusted until granted again: a grant from a new session or from hookside hooks trust grant" +
		" starts a fresh trust file (to keep the earlier grants instead, chmod 600 the moved file and move it back); nothing was written"
	if !errors.Is(err, ErrCorrupt) || err.Error() != want {
		t.Fatalf("grant on a 0644 trust file:\n got %v\nwant %s", err, want)
	}
	if strings.Contains(err.Error(), "truststore") {
		t.Fatalf("the message carries the package name: %v", err)
	}

	// The next grant starts a fresh file (without the earlier grant).
	if err := Open(dir, quiet).Grant("w", []Record{{Digest: hexSum("b")}}); err != nil {
		t.Fatalf("grant after the move: %v", err)
	}
	if s, err := Open(dir, quiet).Load(); err != nil || len(s.Records) != 1 || s.Records[0].Digest != hexSum("b") {
		t.Fatalf("fresh file: %v, %+v", err, s.Records)
	}
	// chmod 600 and move back: the earlier grant is there again.
	if err := os.Chmod(moved[0], 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(moved[0], p); err != nil {
		t.Fatal(err)
	}
	if s, err := Open(dir, quiet).Load(); err != nil || len(s.Records) != 1 || s.Records[0].Digest != hexSum("a") {
		t.Fatalf("restored file: %v, %+v", err, s.Records)
	}
}
