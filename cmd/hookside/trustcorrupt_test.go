package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/hookside/hookside/truststore"
)

// corruptEnv is trustCLIEnv with both declarations granted, and the path
// of its trust file.
func corruptEnv(t *testing.T) (cliEnv, string) {
	t.Helper()
	e, _ := trustCLIEnv(t)
	st := e.trustStatusJSON(t)
	if code, _, errs := e.hookside(t, "", "hooks", "trust", "grant", "--home", e.home, "--digest", "1", "--digest", "2", "--bundle-digest", st.BundleDigest); code != 0 {
		t.Fatalf("grant: %d %s", code, errs)
	}
	return e, filepath.Join(e.home, "security", truststore.FileName)
}

// movedAside returns the one .corrupt-<timestamp> copy of p.
func movedAside(t *testing.T, p string) string {
	t.Helper()
	m, _ := filepath.Glob(p + ".corrupt-*")
	if len(m) != 1 {
		t.Fatalf("corrupt copies %v, want one", m)
	}
	return m[0]
}

// TestTrustStatusNamesCorruptReason: `hooks trust status` on a trust file
// with mode 0644 says which file, why, and that it was left in place, in
// the human output and as storeError in --json; it moves nothing.
func TestTrustStatusNamesCorruptReason(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("windows: Unix mode bits do not make a trust file corrupt there (its DACL does: truststore's Windows tests)")
	}
	e, p := corruptEnv(t)
	if err := os.Chmod(p, 0o644); err != nil {
		t.Fatal(err)
	}
	want := "the workspace hook trust file " + p + " is corrupt (mode 0644: permission bits beyond 0600): left in place"
	code, out, errs := e.hookside(t, "", "hooks", "trust", "status", "--home", e.home)
	if code != 0 || !strings.Contains(out, want) || !strings.Contains(out, "blocked_untrusted (store_corrupt)") || errs != "" {
		t.Fatalf("status: exit %d\n%s\nstderr %s\nwant a line %q", code, out, errs, want)
	}
	st := e.trustStatusJSON(t)
	if st.StoreStatus != string(truststore.StatusCorrupt) || !strings.HasPrefix(st.StoreError, want) {
		t.Fatalf("status --json: storeStatus %s, storeError %q; want %q", st.StoreStatus, st.StoreError, want)
	}
	if m, _ := filepath.Glob(p + ".corrupt-*"); len(m) != 0 {
		t.Fatalf("status moved the file aside: %v", m)
	}
	if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o644 {
		t.Fatalf("status touched the trust file: %v %v", fi, err)
	}
}

// TestTrustReviewCorruptExits3: review on a corrupt store (not a
// terminal) exits 3 with the reason and the real .corrupt-<timestamp> name
// on stderr and prints no grant commands; with --json it prints the status
// with storeError and exits 3 too. A review after that starts afresh.
func TestTrustReviewCorruptExits3(t *testing.T) {
	e, p := corruptEnv(t)
	if err := os.WriteFile(p, []byte(`{"version":1,"records":[`), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errs := e.hookside(t, "", "hooks", "trust", "review", "--home", e.home)
	moved := movedAside(t, p)
	want := "hookside hooks trust review: the workspace hook trust file " + p + " is corrupt (truncated JSON: it ends inside a value, at line 1, column 25: unexpected end of JSON input): moved aside to " + moved +
		"; every workspace hook is untrusted until granted again: a grant from a new session or from hookside hooks trust grant starts a fresh trust file" +
		" (to keep the earlier grants instead, repair the moved file and move it back)"
	if code != exitCorrupt || !strings.Contains(errs, want) || strings.Contains(out, "grant") {
		t.Fatalf("review: exit %d, want 3\nstdout %s\nstderr %s\nwant %q", code, out, errs, want)
	}
	if err := os.WriteFile(p, []byte(`{"version":7,"records":[]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errs = e.hookside(t, "", "hooks", "trust", "review", "--json", "--home", e.home)
	if code != exitCorrupt || !strings.Contains(out, `"storeError": "the workspace hook trust file `) || !strings.Contains(out, "unsupported version 7, want 1") {
		t.Fatalf("review --json: exit %d\n%s\n%s", code, out, errs)
	}
	code, out, errs = e.hookside(t, "", "hooks", "trust", "review", "--home", e.home)
	// No store error; the copies moved aside are pointed at.
	if code != 0 || !strings.Contains(out, "hookside hooks trust grant") || strings.Contains(out, "is corrupt (") ||
		!strings.Contains(out, "an earlier trust file was found corrupt and moved aside on ") || !strings.Contains(out, "(and 1 older)") {
		t.Fatalf("review on a fresh store: exit %d\n%s\n%s", code, out, errs)
	}
}

// TestHooksRunCorruptWarnsOnce: `hooks run` on a corrupt store treats the
// workspace hooks as untrusted and logs exactly one warning naming the
// file, the reason and the new name; the next run finds no file and logs
// nothing.
func TestHooksRunCorruptWarnsOnce(t *testing.T) {
	e, p := corruptEnv(t)
	if err := os.WriteFile(p, []byte("[]"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errs := e.hookside(t, "", "hooks", "run", "--event", "Stop", "--home", e.home)
	moved := movedAside(t, p)
	if code != 0 || strings.Count(out, "(blocked_untrusted: store_corrupt)") != 2 || !strings.Contains(out, "0 hook(s) ran") {
		t.Fatalf("hooks run: exit %d\n%s\n%s", code, out, errs)
	}
	if n := strings.Count(errs, "level=WARN"); n != 1 || !strings.Contains(errs, "file="+p+" ") ||
		!strings.Contains(errs, `reason="wrong shape: the top level is a JSON array, want an object"`) || !strings.Contains(errs, "movedTo="+moved) {
		t.Fatalf("hooks run stderr (%d warnings):\n%s", n, errs)
	}
	code, out, errs = e.hookside(t, "", "hooks", "run", "--event", "Stop", "--home", e.home)
	if code != 0 || strings.Contains(errs, "WARN") || strings.Count(out, "pending_trust") != 2 {
		t.Fatalf("second hooks run: exit %d\n%s\n%s", code, out, errs)
	}
}

// TestTrustGrantCorruptNamesFile: grant and revoke on a corrupt store name
// the trust file, the reason and the real .corrupt-<timestamp> name.
func TestTrustGrantCorruptNamesFile(t *testing.T) {
	e, p := corruptEnv(t)
	d1 := e.trustStatusJSON(t).Declarations[0].Digest
	for _, action := range []string{"grant", "revoke"} {
		if err := os.WriteFile(p, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		code, _, errs := e.hookside(t, "", "hooks", "trust", action, "--home", e.home, "--digest", d1)
		moved := movedAside(t, p)
		want := "hookside hooks trust " + action + ": the workspace hook trust file " + p + " is corrupt (empty file): moved aside to " + moved +
			"; every workspace hook is untrusted until granted again: a grant from a new session or from hookside hooks trust grant starts a fresh trust file" +
			" (to keep the earlier grants instead, repair the moved file and move it back); nothing was written"
		if code != exitCorrupt || !strings.Contains(errs, want) || strings.Contains(errs, "<timestamp>") {
			t.Fatalf("%s: exit %d\n%s\nwant %q", action, code, errs, want)
		}
		if err := os.Remove(moved); err != nil {
			t.Fatal(err)
		}
	}
}

// TestTrustRefusedCommandLeavesCorruptStore: on a corrupt trust file
// (mode 0644 where the OS makes it corrupt, and truncated JSON), a grant or
// revoke that its own arguments refuse — a wrong --bundle-digest, a list
// number the list does not have, a list number without --bundle-digest, a
// digest that names nothing, a malformed --digest, a --run-cwd without the
// claude profile — exits with its own status (1 or 2) and leaves the file
// where it is, byte for byte; the same grant with the right bundle digest
// then exits 3 naming the real .corrupt-<timestamp> name.
func TestTrustRefusedCommandLeavesCorruptStore(t *testing.T) {
	e, p := corruptEnv(t)
	st := e.trustStatusJSON(t)
	d1 := st.Declarations[0].Digest
	refused := []struct {
		args []string
		code int
	}{
		{[]string{"grant", "--digest", d1[:8], "--bundle-digest", strings.Repeat("ab", 32)}, exitError},
		{[]string{"grant", "--all", "--bundle-digest", strings.Repeat("0", 64)}, exitError},
		{[]string{"grant", "--digest", "9", "--bundle-digest", st.BundleDigest}, exitError},
		{[]string{"grant", "--digest", "1"}, exitUsage},
		{[]string{"grant", "--digest", "abcdef12", "--bundle-digest", st.BundleDigest}, exitError},
		{[]string{"grant", "--digest", d1, "--run-cwd", e.ws}, exitUsage},
		{[]string{"revoke", "--digest", "9"}, exitError},
		{[]string{"revoke", "--digest", "1x"}, exitUsage},
		{[]string{"review", "--run-cwd", e.ws}, exitUsage},
	}
	kinds := []struct {
		name, content string
		mode          os.FileMode
	}{{"truncated", `{"version":1,"records":[`, 0o600}}
	if runtime.GOOS != "windows" {
		kinds = append(kinds, struct {
			name, content string
			mode          os.FileMode
		}{"mode 0644", `{"version":1,"records":[]}`, 0o644})
	}
	for _, k := range kinds {
		if err := os.WriteFile(p, []byte(k.content), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, k.mode); err != nil {
			t.Fatal(err)
		}
		for _, c := range refused {
			args := append([]string{"hooks", "trust"}, append(c.args, "--home", e.home)...)
			code, _, errs := e.hookside(t, "", args...)
			if code != c.code || strings.Contains(errs, "moved aside") || strings.Contains(errs, "corrupt") {
				t.Fatalf("%s: %v: exit %d, want %d without a word of the store\n%s", k.name, c.args, code, c.code, errs)
			}
			if m, _ := filepath.Glob(p + ".corrupt-*"); len(m) != 0 {
				t.Fatalf("%s: %v moved the trust file aside: %v", k.name, c.args, m)
			}
			if b, err := os.ReadFile(p); err != nil || string(b) != k.content {
				t.Fatalf("%s: %v changed the trust file: %q %v", k.name, c.args, b, err)
			}
		}
		code, _, errs := e.hookside(t, "", "hooks", "trust", "grant", "--digest", d1[:8], "--bundle-digest", st.BundleDigest, "--home", e.home)
		moved := movedAside(t, p)
		if code != exitCorrupt || !strings.Contains(errs, "is corrupt (") || !strings.Contains(errs, "moved aside to "+moved+";") || !strings.HasSuffix(strings.TrimSpace(errs), "; nothing was written") {
			t.Fatalf("%s: grant with the right bundle digest: exit %d, want 3 naming %s\n%s", k.name, code, moved, errs)
		}
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Fatalf("%s: the refused grant started a trust file: %v", k.name, err)
		}
		if err := os.Remove(moved); err != nil {
			t.Fatal(err)
		}
	}
}

// TestListExplainLeaveCorruptStore: `hooks list` and `hooks explain` only
// show what would run: on a corrupt trust file they report every workspace
// hook blocked_untrusted (store_corrupt), say on stderr which file is
// corrupt, why, and that it was left in place, and move nothing; `hooks
// run`, a session that runs hooks, then moves it aside.
func TestListExplainLeaveCorruptStore(t *testing.T) {
	e, p := corruptEnv(t)
	const junk = `{"version":1,"records":[`
	if err := os.WriteFile(p, []byte(junk), 0o600); err != nil {
		t.Fatal(err)
	}
	want := "warning: the workspace hook trust file " + p + " is corrupt (truncated JSON: it ends inside a value, at line 1, column 25: unexpected end of JSON input): left in place"
	for _, args := range [][]string{
		{"hooks", "list"}, {"hooks", "list", "--json"}, {"hooks", "list", "--event", "Stop"},
		{"hooks", "explain", "--event", "Stop"}, {"hooks", "explain", "--event", "Stop", "--json"},
	} {
		code, out, errs := e.hookside(t, "", append(args, "--home", e.home)...)
		if code != 0 || !strings.Contains(out, "store_corrupt") || !strings.Contains(errs, "hookside "+args[0]+" "+args[1]+": "+want) || strings.Contains(errs, "level=WARN") {
			t.Fatalf("%v: exit %d\nstdout %s\nstderr %s\nwant store_corrupt and %q", args, code, out, errs, want)
		}
		if m, _ := filepath.Glob(p + ".corrupt-*"); len(m) != 0 {
			t.Fatalf("%v moved the trust file aside: %v", args, m)
		}
		if b, err := os.ReadFile(p); err != nil || string(b) != junk {
			t.Fatalf("%v changed the trust file: %q %v", args, b, err)
		}
	}
	if code, out, errs := e.hookside(t, "", "hooks", "run", "--event", "Stop", "--home", e.home); code != 0 {
		t.Fatalf("hooks run: exit %d\n%s\n%s", code, out, errs)
	}
	movedAside(t, p)
}

// TestMovedAsideTrustFileIsPointedAt: once a corrupt trust file is moved
// aside, the grant that starts a fresh one says on stderr where the earlier
// grants went, and `hooks trust status` says so too (movedAside in --json,
// newest first); a grant into the existing fresh file says nothing more.
func TestMovedAsideTrustFileIsPointedAt(t *testing.T) {
	e, p := corruptEnv(t)
	st := e.trustStatusJSON(t)
	if len(st.MovedAside) != 0 {
		t.Fatalf("movedAside before any corruption: %v", st.MovedAside)
	}
	if err := os.WriteFile(p, []byte(`{"version":1,"records":[`), 0o600); err != nil {
		t.Fatal(err)
	}
	grant := func(n string) (int, string) {
		code, _, errs := e.hookside(t, "", "hooks", "trust", "grant", "--digest", n, "--bundle-digest", st.BundleDigest, "--home", e.home)
		return code, errs
	}
	if code, errs := grant("1"); code != exitCorrupt { // moves it aside, writes nothing
		t.Fatalf("grant on the corrupt file: exit %d\n%s", code, errs)
	}
	moved := movedAside(t, p)
	code, errs := grant("1")
	want := "hookside hooks trust grant: note: this grant started a fresh trust file; an earlier trust file was found corrupt and moved aside on "
	if code != 0 || !strings.HasPrefix(errs, want) || !strings.Contains(errs, ": "+moved+" (24 bytes); its grants are not used: to keep them, repair it and move it over "+p+"\n") {
		t.Fatalf("fresh grant: exit %d\nstderr %q\nwant %q… naming %s", code, errs, want, moved)
	}
	if code, errs := grant("2"); code != 0 || errs != "" {
		t.Fatalf("second grant into the fresh file: exit %d, stderr %q; want no note", code, errs)
	}
	code, out, errs := e.hookside(t, "", "hooks", "trust", "status", "--home", e.home)
	if code != 0 || !strings.Contains(out, "an earlier trust file was found corrupt and moved aside on ") || !strings.Contains(out, moved) {
		t.Fatalf("status: exit %d\n%s\nstderr %s", code, out, errs)
	}
	st = e.trustStatusJSON(t)
	if len(st.MovedAside) != 1 || st.MovedAside[0].Path != moved || st.MovedAside[0].Bytes != 24 || st.MovedAside[0].MovedAt.IsZero() {
		t.Fatalf("status --json movedAside = %+v, want %s", st.MovedAside, moved)
	}
}

// TestMovedAsideSymlinkIsPointedAt: a trust file that is a symlink (a
// dotfile manager's) is moved aside as it is, and status names that copy
// as a symlink (kind in --json), as it names a corrupt regular file.
func TestMovedAsideSymlinkIsPointedAt(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("windows: creating a symlink needs a privilege the tests do not assume")
	}
	e, p := corruptEnv(t)
	real := filepath.Join(t.TempDir(), "real.json")
	if err := os.Rename(p, real); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, p); err != nil {
		t.Fatal(err)
	}
	st := e.trustStatusJSON(t)
	if code, _, errs := e.hookside(t, "", "hooks", "trust", "grant", "--digest", "1", "--bundle-digest", st.BundleDigest, "--home", e.home); code != exitCorrupt {
		t.Fatalf("grant on the symlink: exit %d\n%s", code, errs)
	}
	moved := movedAside(t, p)
	code, out, _ := e.hookside(t, "", "hooks", "trust", "status", "--home", e.home)
	if code != 0 || !strings.Contains(out, ": "+moved+" (a symlink); its grants are not used") {
		t.Fatalf("status: exit %d\n%s", code, out)
	}
	if st := e.trustStatusJSON(t); len(st.MovedAside) != 1 || st.MovedAside[0].Kind != "symlink" || st.MovedAside[0].Path != moved {
		t.Fatalf("movedAside = %+v", st.MovedAside)
	}
}
