package truststore

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hookside/hookside/internal/hook"
)

// TestByteOrderMarkIsRead: a trust file saved with a UTF-8 byte order mark
// (Windows Notepad) reads as the JSON after it, as configuration files do;
// the next write keeps every record and writes no mark.
func TestByteOrderMarkIsRead(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "security")
	s := Open(dir, Options{})
	h1, h2 := wsHook(hook.Stop, nil, 0, 0, "one"), wsHook(hook.Stop, nil, 0, 1, "two")
	if err := s.Grant("/w", []Record{testRecord(h1)}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(s.Path())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(s.Path(), append([]byte("\xEF\xBB\xBF"), data...), 0o600); err != nil {
		t.Fatal(err)
	}
	st, err := s.Load()
	if err != nil || st.Status != StatusOK {
		t.Fatalf("Load of a file with a byte order mark: %s, %v", st.Status, err)
	}
	if _, ok := st.Lookup("/w", Digest(h1)); !ok {
		t.Fatalf("the record after the mark was not read: %+v", st.Records)
	}
	if err := s.Grant("/w", []Record{testRecord(h2)}); err != nil {
		t.Fatalf("grant over a file with a byte order mark: %v", err)
	}
	data, _ = os.ReadFile(s.Path())
	if bytes.HasPrefix(data, []byte("\xEF\xBB\xBF")) || data[0] != '{' {
		t.Fatalf("the write kept the byte order mark: % x", data[:4])
	}
	st, err = s.Load()
	if err != nil || len(st.Records) != 2 {
		t.Fatalf("after the grant: %d records, %v; want both", len(st.Records), err)
	}
	if m, _ := filepath.Glob(s.Path() + ".corrupt-*"); len(m) != 0 {
		t.Fatalf("moved aside: %v", m)
	}
}

// bigRecord is a record of workspace ws whose declaration's command is n
// bytes of 'x' (one byte each in the file).
func bigRecord(ws string, i, n int) Record {
	h := wsHook(hook.Stop, nil, 0, i, strings.Repeat("x", n))
	r := testRecord(h)
	r.WorkspaceID = ws
	return r
}

// TestReadLimitIsMaxFileBytes: a trust file of exactly MaxFileBytes reads
// (trailing white space is JSON); one byte more is corrupt, with its size
// and the limit in MiB and bytes.
func TestReadLimitIsMaxFileBytes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "security")
	s := Open(dir, Options{ReadOnly: true})
	if err := s.Grant("/w", []Record{bigRecord("/w", 0, 1000)}); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(s.Path())
	data = append(data, bytes.Repeat([]byte{' '}, MaxFileBytes-len(data))...)
	if err := os.WriteFile(s.Path(), data, 0o600); err != nil {
		t.Fatal(err)
	}
	if st, err := s.Load(); err != nil || len(st.Records) != 1 {
		t.Fatalf("a file of MaxFileBytes: %s, %v", st.Status, err)
	}
	if err := os.WriteFile(s.Path(), append(data, ' '), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := s.Load()
	want := fmt.Sprintf("%d bytes, larger than the 16 MiB (16777216 bytes) a trust file may hold", MaxFileBytes+1)
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), want) {
		t.Fatalf("a file one byte over: %v; want ErrCorrupt with %q", err, want)
	}
}

// TestGrantRefusesAFileTooLargeToRead: a grant that would write a trust
// file larger than MaxFileBytes is refused with a *TooLargeError (its
// size, the limit, whose grants take the most room) and writes nothing:
// the file stays as it was, byte for byte, and reads. A grant making the
// file exactly MaxFileBytes is written and reads back; one byte more is
// refused.
func TestGrantRefusesAFileTooLargeToRead(t *testing.T) {
	clock := Options{Now: func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }}
	// Many large declarations: /w's 15 of 1 MiB and one of n bytes,
	// beside a small grant of /other's. Digests have one length and the
	// grant time is fixed, so the file is as long as one of the same
	// records with 1-byte commands plus the bytes the commands add.
	recs := func(n, big int) []Record {
		var out []Record
		for i := range 15 {
			out = append(out, bigRecord("/w", i, big))
		}
		return append(out, bigRecord("/w", 15, n))
	}
	grantAll := func(s *Store, set []Record) error {
		if err := s.Grant("/other", []Record{bigRecord("/other", 0, 1)}); err != nil {
			t.Fatal(err)
		}
		return s.Grant("/w", set)
	}
	small := Open(filepath.Join(t.TempDir(), "security"), clock)
	if err := grantAll(small, recs(1, 1)); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(small.Path())
	if err != nil {
		t.Fatal(err)
	}
	fill := 1 + MaxFileBytes - int(fi.Size()) - 15*(1<<20-1)

	// One byte more, in a fresh store: refused before anything is written.
	fresh := Open(filepath.Join(t.TempDir(), "security"), clock)
	err = grantAll(fresh, recs(fill+1, 1<<20))
	var tl *TooLargeError
	if !errors.As(err, &tl) || !errors.Is(err, ErrTooLarge) || errors.Is(err, ErrCorrupt) {
		t.Fatalf("grant one byte over the limit: %v (%T), want a *TooLargeError", err, err)
	}
	if tl.Size != MaxFileBytes+1 || tl.Records != 17 || tl.Workspace != "/w" || tl.Count != 16 || tl.Path != fresh.Path() {
		t.Fatalf("TooLargeError = %+v", tl)
	}
	for _, want := range []string{
		"cannot write the workspace hook trust file " + fresh.Path() + ": it would be 16.01 MiB (" + strconv.Itoa(MaxFileBytes+1) + " bytes, 17 records)",
		"over the 16 MiB (16777216 bytes) a trust file may hold (a larger one reads as corrupt, and every workspace hook would be blocked)",
		"nothing was written: revoke the grants you no longer use (hookside hooks trust revoke --workspace PATH|IDENTITY --digest D, or --all for every grant of a workspace; the most are /w's: 16.00 MiB in 16 records), then grant again",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	if st, err := fresh.Load(); err != nil || len(st.Records) != 1 {
		t.Fatalf("after the refused grant: %d records, %v; want /other's only", len(st.Records), err)
	}

	// Exactly the limit: written, and read back.
	s := Open(filepath.Join(t.TempDir(), "security"), clock)
	if err := grantAll(s, recs(fill, 1<<20)); err != nil {
		t.Fatalf("a grant making the file exactly MaxFileBytes: %v", err)
	}
	before, _ := os.ReadFile(s.Path())
	if len(before) != MaxFileBytes {
		t.Fatalf("file is %d bytes, want exactly %d", len(before), MaxFileBytes)
	}
	// Any grant more is refused, and leaves the file as it was.
	err = s.Grant("/other", []Record{bigRecord("/other", 1, 1)})
	if !errors.As(err, &tl) || tl.Size <= MaxFileBytes || tl.Workspace != "/w" {
		t.Fatalf("grant over a full file: %v", err)
	}
	if after, _ := os.ReadFile(s.Path()); !bytes.Equal(before, after) {
		t.Fatal("the refused grant changed the trust file")
	}
	// Only the lock (and, on Windows, the lock holder's sidecar) beside it:
	// no temporary file left.
	for _, f := range mustGlob(t, s.Path()+"*") {
		if f != s.Path() && f != s.Path()+".lock" && f != holderPath(s.Path()+".lock") {
			t.Fatalf("files beside the trust file after the refusal: %v, want only its lock", mustGlob(t, s.Path()+"*"))
		}
	}
	if st, err := s.Load(); err != nil || st.Status != StatusOK || len(st.Records) != 17 {
		t.Fatalf("after the refused grant: %s, %d records, %v", st.Status, len(st.Records), err)
	}
}

// prettyOtherSites is a trust file as an editor shows it, one record with
// two other sites, the second granted at grantedAt (JSON text); that
// value starts at line 11, column 47.
func prettyOtherSites(grantedAt string) string {
	return `{
  "version": 1,
  "records": [
    {
      "workspaceId": "w",
      "digest": "` + hexSum("a") + `",
      "grantedAt": "2025-01-01T00:00:00Z",
      "snapshot": {"event": "Stop"},
      "otherSites": [
        {"site": {"dir": "a"}, "grantedAt": "2025-01-01T00:00:00Z"},
        {"site": {"dir": "sub"}, "grantedAt": ` + grantedAt + `}
      ]
    }
  ]
}
`
}

// TestCorruptErrorMovedByAnotherProcess: a write that found the file
// corrupt after another process had moved it aside says so, where to find
// the copy, and that running the command again writes into the new file.
func TestCorruptErrorMovedByAnotherProcess(t *testing.T) {
	e := &CorruptError{Path: "/h/t.json", Why: "mode 0644: permission bits beyond 0600", Write: true}
	want := "the workspace hook trust file /h/t.json is corrupt (mode 0644: permission bits beyond 0600): another process moved it aside meanwhile " +
		"(hookside hooks trust status lists the copy, with how to restore it); nothing was written: run the command again, it writes into the trust file that replaced it"
	if got := e.Error(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// mustGlob is filepath.Glob of a pattern that is well formed.
func mustGlob(t *testing.T, pattern string) []string {
	t.Helper()
	m, err := filepath.Glob(pattern)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestLowerCaseGrantTimeIsRead: RFC 3339 §5.6 lets a time's "T" and "Z" be
// lower case; a hand-edited grant time written so reads as the same time,
// not as a corrupt file.
func TestLowerCaseGrantTimeIsRead(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "security")
	s := Open(dir, Options{})
	h := wsHook(hook.Stop, nil, 0, 0, "one")
	if err := s.Grant("/w", []Record{testRecord(h)}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(s.Path())
	if err != nil {
		t.Fatal(err)
	}
	st, err := s.Load()
	if err != nil {
		t.Fatal(err)
	}
	at := st.Records[0].GrantedAt.UTC().Format(time.RFC3339Nano)
	lower := strings.ToLower(at)
	if !bytes.Contains(data, []byte(`"`+at+`"`)) || lower == at {
		t.Fatalf("grant time %q not in the file as written:\n%s", at, data)
	}
	if err := os.WriteFile(s.Path(), bytes.Replace(data, []byte(at), []byte(lower), 1), 0o600); err != nil {
		t.Fatal(err)
	}
	st, err = s.Load()
	if err != nil || st.Status != StatusOK || !st.Records[0].GrantedAt.Equal(mustTime(t, at)) {
		t.Fatalf("Load of grantedAt %q: %s, %v, %+v", lower, st.Status, err, st.Records)
	}
}

func mustTime(t *testing.T, s string) time.Time {
	t.Helper()
	v, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
