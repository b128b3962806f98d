package exec

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/hookside/hookside/internal/proc"
)

// The tests below run the cleanup macOS has on Linux (portableCleanup: no
// Pdeathsig, and the subreaper not enabled): the janitor and the sweep by
// run token must kill what Pdeathsig and the subreaper otherwise would.

// janitorHelperVar selects the role of the test binary re-executed by
// TestExecHelperProcess: "runner" (a hookside running one hook) or
// "janitor" (its janitor).
const janitorHelperVar = "HOOKSIDE_EXEC_TEST_HELPER"

// janitorTestMarker is in the environment of every process of the test's
// hook tree; its value is the test's temporary directory.
const janitorTestMarker = "HOOKSIDE_EXEC_TEST_MARKER"

// janitorTestHook starts a background child in its group and a setsid
// escapee, records the three pids in $1, signals readiness through the
// FIFO $2 and waits.
const janitorTestHook = `cat >/dev/null
sleep 301 &
echo $! >> "$1"
setsid sh -c 'echo $$ >> "$0"; exec sleep 302' "$1" </dev/null >/dev/null 2>&1 &
echo $$ >> "$1"
while [ "$(wc -l < "$1")" -lt 3 ]; do sleep 0.01; done
echo ready > "$2"
wait
`

// TestExecHelperProcess is not a test: it is the body of the re-executed
// test binary in the roles of janitorHelperVar.
func TestExecHelperProcess(t *testing.T) {
	switch os.Getenv(janitorHelperVar) {
	case "janitor":
		if err := RunJanitor(os.Stdin); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	case "runner":
		portableCleanup.Store(true)
		os.Setenv(janitorHelperVar, "janitor")
		if err := EnableJanitor([]string{os.Args[0], "-test.run=^TestExecHelperProcess$"}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Println(janitor.Load().Pid())
		dir := os.Getenv(janitorTestMarker)
		res := Run(context.Background(), Spec{
			Argv:    []string{"/bin/sh", "-c", janitorTestHook, "hook", filepath.Join(dir, "pids"), filepath.Join(dir, "ready")},
			Env:     []string{"PATH=" + os.Getenv("PATH"), janitorTestMarker + "=" + dir},
			Stdin:   []byte("{}\n"),
			Timeout: time.Minute,
		})
		fmt.Fprintf(os.Stderr, "hook ended before the runner was killed: %+v\n", res)
		os.Exit(1)
	}
}

// TestExecJanitorKillsHookTreeWhenRunnerIsKilled: a hookside running a
// hook (leader, a background child in its group, a setsid escapee) is
// SIGKILLed with Pdeathsig off and no subreaper; its janitor kills the
// group and sweeps the escapee by token, then exits itself.
func TestExecJanitorKillsHookTreeWhenRunnerIsKilled(t *testing.T) {
	dir := t.TempDir()
	ready := filepath.Join(dir, "ready")
	if err := unix.Mkfifo(ready, 0o600); err != nil {
		t.Fatal(err)
	}
	runner := osexec.Command(os.Args[0], "-test.run=^TestExecHelperProcess$")
	runner.Env = append(os.Environ(), janitorHelperVar+"=runner", janitorTestMarker+"="+dir)
	runner.Stderr = os.Stderr
	out, err := runner.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := runner.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = runner.Process.Kill(); _ = runner.Wait(); janitorTestKillMarked(dir) })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("janitor pid: %v", err)
	}
	janitorPID, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		t.Fatalf("janitor pid %q: %v", line, err)
	}
	janitorFD := janitorTestPidfd(t, janitorPID)

	// Opening the FIFO blocks until the hook has recorded its three pids.
	f, err := os.Open(ready)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = f.Read(make([]byte, 8))
	f.Close()
	b, err := os.ReadFile(filepath.Join(dir, "pids"))
	if err != nil {
		t.Fatal(err)
	}
	var fds []int
	for _, s := range strings.Fields(string(b)) {
		pid, err := strconv.Atoi(s)
		if err != nil {
			t.Fatalf("pids file %q: %v", b, err)
		}
		fds = append(fds, janitorTestPidfd(t, pid))
	}
	if len(fds) != 3 {
		t.Fatalf("pids file %q: want 3 pids", b)
	}

	if err := runner.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = runner.Wait()
	for i, fd := range append(fds, janitorFD) {
		if !janitorTestExited(fd, 5*time.Second) {
			t.Errorf("process %d of %v (janitor last) still alive 5 s after the runner's SIGKILL", i, append(strings.Fields(string(b)), "janitor"))
		}
	}
	if left := janitorTestMarked(dir); len(left) > 0 {
		t.Errorf("processes of the hook tree left: %v", left)
	}
}

// TestExecSweepsEscapeeByTokenWithoutSubreaper: with the macOS cleanup, a
// hook's setsid escapee is killed when Run returns.
func TestExecSweepsEscapeeByTokenWithoutSubreaper(t *testing.T) {
	portableCleanup.Store(true)
	defer portableCleanup.Store(false)
	dir := t.TempDir()
	pids := filepath.Join(dir, "pids")
	script := `setsid sh -c 'echo $$ >> "$0"; exec sleep 303' "$1" </dev/null >/dev/null 2>&1 &
while [ ! -s "$1" ]; do sleep 0.01; done
`
	t.Cleanup(func() { janitorTestKillMarked(dir) })
	res, _ := execTestRun(t, context.Background(), Spec{
		Argv:    []string{"/bin/sh", "-c", script, "hook", pids},
		Env:     []string{"PATH=" + os.Getenv("PATH"), janitorTestMarker + "=" + dir},
		Timeout: 5 * time.Second,
	})
	if res.ExitCode != 0 || res.StartErr != nil {
		t.Fatalf("hook: %+v", res)
	}
	b, err := os.ReadFile(pids)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatalf("pids file %q: %v", b, err)
	}
	fd, err := unix.PidfdOpen(pid, 0)
	if err == unix.ESRCH {
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	if !janitorTestExited(fd, 5*time.Second) {
		t.Fatalf("escapee %d still alive after Run returned", pid)
	}
}

// TestExecHookEnvironmentCarriesFreshRunToken: every run gets its own
// token, also replacing one inherited from the environment.
func TestExecHookEnvironmentCarriesFreshRunToken(t *testing.T) {
	spec := Spec{
		Argv:    []string{"/bin/sh", "-c", `printf %s "$` + proc.TokenVar + `"`},
		Env:     []string{proc.TokenVar + "=inherited"},
		Timeout: 5 * time.Second,
	}
	a, _ := execTestRun(t, context.Background(), spec)
	b, _ := execTestRun(t, context.Background(), spec)
	if len(a.Stdout) != 32 || bytes.Equal(a.Stdout, b.Stdout) {
		t.Fatalf("tokens %q and %q: want two different 32-digit tokens", a.Stdout, b.Stdout)
	}
}

// janitorTestPidfd opens a pidfd for pid (closed at the end of the test).
func janitorTestPidfd(t *testing.T, pid int) int {
	t.Helper()
	fd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		t.Fatalf("pidfd_open(%d): %v", pid, err)
	}
	t.Cleanup(func() { unix.Close(fd) })
	return fd
}

// janitorTestExited waits up to d for the process behind pidfd fd to exit
// (the pidfd becomes readable; a zombie counts as exited).
func janitorTestExited(fd int, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for {
		pfd := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		n, err := unix.Poll(pfd, int(time.Until(deadline).Milliseconds()))
		if err == unix.EINTR && time.Now().Before(deadline) {
			continue
		}
		return err == nil && n > 0
	}
}

// janitorTestMarked lists the live processes whose environment carries the
// test's marker.
func janitorTestMarked(dir string) []string {
	entries, _ := os.ReadDir("/proc")
	entry := []byte(janitorTestMarker + "=" + dir + "\x00")
	var out []string
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		st, _ := os.ReadFile("/proc/" + e.Name() + "/stat")
		if i := bytes.LastIndexByte(st, ')'); i >= 0 && bytes.HasPrefix(st[i+1:], []byte(" Z")) {
			continue
		}
		env, _ := os.ReadFile("/proc/" + e.Name() + "/environ")
		if bytes.Contains(env, entry) {
			cmd, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline")
			out = append(out, e.Name()+": "+string(bytes.ReplaceAll(cmd, []byte{0}, []byte{' '})))
		}
	}
	return out
}

// janitorTestKillMarked kills whatever a failed test left behind.
func janitorTestKillMarked(dir string) {
	for _, p := range janitorTestMarked(dir) {
		pid, _ := strconv.Atoi(p[:strings.IndexByte(p, ':')])
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

// BenchmarkExecTrueWithJanitor is BenchmarkExecTrue with a janitor
// recording every run: the difference is the janitor's per-hook cost (two
// pipe writes).
//
//	go test -run x -bench 'ExecTrue' -benchtime 300x ./runner/exec/
func BenchmarkExecTrueWithJanitor(b *testing.B) {
	b.Setenv(janitorHelperVar, "janitor")
	if err := EnableJanitor([]string{os.Args[0], "-test.run=^TestExecHelperProcess$"}); err != nil {
		b.Fatal(err)
	}
	defer CloseJanitor()
	BenchmarkExecTrue(b)
}

// BenchmarkJanitorTrackUntrack is the janitor's cost per hook alone.
func BenchmarkJanitorTrackUntrack(b *testing.B) {
	b.Setenv(janitorHelperVar, "janitor")
	if err := EnableJanitor([]string{os.Args[0], "-test.run=^TestExecHelperProcess$"}); err != nil {
		b.Fatal(err)
	}
	defer CloseJanitor()
	token := proc.NewToken()
	b.ReportAllocs()
	for b.Loop() {
		janitorTrack(1<<22, token)
		janitorUntrack(1 << 22)
	}
}
