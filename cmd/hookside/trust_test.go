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
	if want := fmt.Sprintf("locked by pid %d (started ", holder.Process.Pid); !strings.Contains(errs, want) {
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
