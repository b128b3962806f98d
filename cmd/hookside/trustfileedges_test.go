package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/internal/jsonpos"
	"github.com/hookside/hookside/truststore"
)

// TestTrustFileWithByteOrderMarkReads: a trust file saved with a UTF-8
// byte order mark (Windows Notepad) reads as the JSON after it, as
// configuration files do: status shows the grants, and a revoke keeps the
// other record and writes the file without the mark.
func TestTrustFileWithByteOrderMarkReads(t *testing.T) {
	e, p := corruptEnv(t)
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, append([]byte("\xEF\xBB\xBF"), data...), 0o600); err != nil {
		t.Fatal(err)
	}
	st := e.trustStatusJSON(t)
	if st.StoreStatus != string(truststore.StatusOK) || st.StoreError != "" || len(st.Declarations) != 2 ||
		st.Declarations[0].TrustState != truststore.TrustedPersistent || st.Declarations[1].TrustState != truststore.TrustedPersistent {
		t.Fatalf("status of a trust file with a byte order mark: %s %q %+v", st.StoreStatus, st.StoreError, st.Declarations)
	}
	if code, out, errs := e.hookside(t, "", "hooks", "trust", "revoke", "--digest", st.Declarations[0].Digest, "--home", e.home); code != 0 {
		t.Fatalf("revoke: exit %d\n%s%s", code, out, errs)
	}
	data, _ = os.ReadFile(p)
	if !bytes.HasPrefix(data, []byte("{")) {
		t.Fatalf("the revoke kept the byte order mark: % x", data[:4])
	}
	if st := e.trustStatusJSON(t); st.StoreStatus != "ok" || st.Declarations[0].TrustState != truststore.PendingTrust || st.Declarations[1].TrustState != truststore.TrustedPersistent {
		t.Fatalf("after the revoke: %s %+v", st.StoreStatus, st.Declarations)
	}
	if m, _ := filepath.Glob(p + ".corrupt-*"); len(m) != 0 {
		t.Fatalf("moved aside: %v", m)
	}
}

// TestTrustStatusNamesFileFaults: a hand-edited trust file with a Latin-1
// byte, or an other site's grant time that is no RFC 3339 time, is
// corrupt; status (text and --json storeError) says where as line:column
// (and byte offset), and what is wrong, in the reason's usual place.
func TestTrustStatusNamesFileFaults(t *testing.T) {
	e, p := corruptEnv(t)
	good, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	// The first record's workspaceId, with its last byte a Latin-1 é.
	wsAt := bytes.Index(good, []byte(`"workspaceId": "`)) + len(`"workspaceId": "`)
	latin1 := bytes.Replace(good, []byte(`"workspaceId": "`), []byte("\"workspaceId\": \"\xe9"), 1)
	line, col := jsonpos.LineCol(latin1, wsAt)
	// The first record granted at a second site on the 13th month.
	siteAt := bytes.Index(good, []byte(`"snapshot"`))
	other := []byte(`"otherSites": [{"site": {"dir": "sub"}, "grantedAt": "2026-13-02T15:04:05Z"}], `)
	badTime := append(append(append([]byte{}, good[:siteAt]...), other...), good[siteAt:]...)
	tline, tcol := jsonpos.LineCol(badTime, siteAt+bytes.Index(other, []byte(`"2026`)))
	for _, c := range []struct {
		name    string
		content []byte
		why     string
	}{
		{"latin1", latin1, fmt.Sprintf("not valid UTF-8 at line %d, column %d: byte 0xe9 at offset %d (JSON text must be UTF-8, RFC 8259 §8.1: saved as Latin-1?)", line, col, wsAt)},
		{"bom_latin1", append([]byte("\xEF\xBB\xBF"), latin1...), fmt.Sprintf("not valid UTF-8 at line %d, column %d: byte 0xe9 at offset %d (", line, col, wsAt+3)},
		{"other_site_time", badTime, fmt.Sprintf(`wrong shape: records[0].otherSites[0].grantedAt (line %d, column %d) is "2026-13-02T15:04:05Z" (month out of range), not an RFC 3339 time such as 2026-01-02T15:04:05Z`, tline, tcol)},
	} {
		if err := os.WriteFile(p, c.content, 0o600); err != nil {
			t.Fatal(err)
		}
		want := "the workspace hook trust file " + p + " is corrupt (" + c.why
		code, out, errs := e.hookside(t, "", "hooks", "trust", "status", "--home", e.home)
		if code != 0 || !strings.Contains(out, want) || !strings.Contains(out, "left in place") || !strings.Contains(out, "blocked_untrusted (store_corrupt)") || errs != "" {
			t.Fatalf("%s: status: exit %d\n%s\nstderr %s\nwant a line %q", c.name, code, out, errs, want)
		}
		if strings.Contains(out, "\uFFFD") || strings.Contains(out, "parsing time") || strings.Contains(out, "2006-01-02T15:04:05Z07:00") {
			t.Fatalf("%s: status shows mojibake or time.Parse's text:\n%s", c.name, out)
		}
		st := e.trustStatusJSON(t)
		if st.StoreStatus != string(truststore.StatusCorrupt) || !strings.HasPrefix(st.StoreError, want) {
			t.Fatalf("%s: status --json: storeStatus %s, storeError %q; want %q", c.name, st.StoreStatus, st.StoreError, want)
		}
		// A grant moves it aside as it was, byte for byte.
		code, _, errs = e.hookside(t, "", "hooks", "trust", "grant", "--digest", st.Declarations[0].Digest, "--home", e.home)
		moved := movedAside(t, p)
		if b, _ := os.ReadFile(moved); code != exitCorrupt || !strings.Contains(errs, c.why) || !bytes.Equal(b, c.content) {
			t.Fatalf("%s: grant: exit %d\n%s", c.name, code, errs)
		}
		if err := os.Remove(moved); err != nil {
			t.Fatal(err)
		}
	}
}

// TestTrustGrantRefusesFileTooLarge: a grant that would make the trust
// file larger than 16 MiB (which every read refuses, blocking every
// workspace hook) exits 1 before writing, saying the size it would have,
// the limit and what to revoke; the file is as it was, and reads.
func TestTrustGrantRefusesFileTooLarge(t *testing.T) {
	e, p := corruptEnv(t)
	// The workspace's two declarations were granted by corruptEnv: revoke
	// one, to grant it again when the file is full.
	st := e.trustStatusJSON(t)
	d1 := st.Declarations[0].Digest
	if code, out, errs := e.hookside(t, "", "hooks", "trust", "revoke", "--digest", d1, "--home", e.home); code != 0 {
		t.Fatalf("revoke: exit %d\n%s%s", code, out, errs)
	}
	// Fill the file close to the limit with large declarations of another
	// workspace, granted as a session there would (the real store).
	s := truststore.Open(filepath.Dir(p), truststore.Options{})
	rec := func(i, n int) truststore.Record {
		sum := sha256.Sum256([]byte(strconv.Itoa(i)))
		return truststore.Record{Digest: hex.EncodeToString(sum[:]),
			Snapshot: truststore.Snapshot{Declared: hook.Declared{Event: hook.Stop, HookIndex: i, Type: hook.TypeCommand, Command: strings.Repeat("x", n)}}}
	}
	var big []truststore.Record
	for i := range 15 {
		big = append(big, rec(i, 1<<20))
	}
	if err := s.Grant("local:/gone", append(big, rec(15, 1))); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Revoke("local:/gone", []string{rec(15, 1).Digest}); err != nil {
		t.Fatal(err)
	}
	if err := s.Grant("local:/gone", []truststore.Record{rec(15, truststore.MaxFileBytes-int(fi.Size())-100)}); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(p)
	if n := len(before); n != truststore.MaxFileBytes-101 {
		t.Fatalf("the trust file is %d bytes, want %d", n, truststore.MaxFileBytes-101)
	}
	code, out, errs := e.hookside(t, "", "hooks", "trust", "grant", "--digest", d1, "--home", e.home)
	for _, want := range []string{
		"hookside hooks trust grant: cannot write the workspace hook trust file " + p + ": it would be 16.",
		" MiB (", " bytes, 18 records), over the 16 MiB (16777216 bytes) a trust file may hold",
		"nothing was written: revoke the grants you no longer use (hookside hooks trust revoke --workspace PATH|IDENTITY --digest D, or --all for every grant of a workspace; the most are local:/gone's: 16.00 MiB in 16 records), then grant again",
	} {
		if code != exitError || !strings.Contains(errs, want) || strings.Contains(out, "trusted") {
			t.Fatalf("grant: exit %d, want 1\nstdout %s\nstderr %s\nwant %q", code, out, errs, want)
		}
	}
	if after, _ := os.ReadFile(p); !bytes.Equal(before, after) {
		t.Fatal("the refused grant changed the trust file")
	}
	st = e.trustStatusJSON(t)
	if st.StoreStatus != string(truststore.StatusOK) || st.Declarations[0].TrustState != truststore.PendingTrust || st.Declarations[1].TrustState != truststore.TrustedPersistent {
		t.Fatalf("after the refused grant: %s %q %+v", st.StoreStatus, st.StoreError, st.Declarations)
	}
}
