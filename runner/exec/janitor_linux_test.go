package exec

import (
	"bytes"
	"context"
	"fmt"
	"io"
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

// janitorHelperVar makes the re-executed test binary of
// TestExecHelperProcess a hookside running one hook ("runner").
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
// test binary in the role of janitorHelperVar. The runner starts no
// janitor itself: Run does, before the hook.
func TestExecHelperProcess(t *testing.T) {
	if os.Getenv(janitorHelperVar) != "runner" {
		return
	}
	portableCleanup.Store(true)
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

// TestExecJanitorKillsHookTreeWhenRunnerIsKilled: a hookside running a
// hook (leader, a background child in its group, a setsid escapee) is
// SIGKILLed with Pdeathsig off and no subreaper; the janitor Run started
// before the hook (this binary as proc.JanitorArg0, empty environment,
// cwd /) kills the group and sweeps the escapee by token, then exits
// itself.
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
	go func() { _, _ = io.Copy(os.Stderr, out) }()

	// Opening the FIFO blocks until the hook has recorded its three pids.
	f, err := os.Open(ready)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = f.Read(make([]byte, 8))
	f.Close()
	janitorFD := janitorTestPidfd(t, janitorTestFind(t, runner.Process.Pid))
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

// TestExecSweepsEscapeeByTokenWithoutSubreaper: with the macOS cleanup,
// and on Linux in a process that is not the subreaper of its hooks (a
// program embedding runner/exec), a hook's setsid escapee is killed by its
// run token when Run returns.
func TestExecSweepsEscapeeByTokenWithoutSubreaper(t *testing.T) {
	for _, portable := range []bool{true, false} {
		t.Run(map[bool]string{true: "macOS cleanup", false: "Linux without the subreaper"}[portable], func(t *testing.T) {
			if subreaperEnabled() {
				t.Fatal("this test process is the subreaper: the sweep it tests would not run")
			}
			portableCleanup.Store(portable)
			defer portableCleanup.Store(false)
			testSweepsEscapee(t)
		})
	}
}

// testSweepsEscapee runs a hook whose child leaves its group (setsid) and
// checks the child is dead once Run returned.
func testSweepsEscapee(t *testing.T) {
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

// janitorTestFind returns the pid of the janitor among parent's children
// (argv[0] proc.JanitorArg0), checking that it carries no environment and
// sits in "/".
func janitorTestFind(t *testing.T, parent int) int {
	t.Helper()
	files, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", parent))
	for _, f := range files {
		b, _ := os.ReadFile(f)
		for _, s := range strings.Fields(string(b)) {
			cmd, _ := os.ReadFile("/proc/" + s + "/cmdline")
			if string(cmd) != proc.JanitorArg0+"\x00" {
				continue
			}
			pid, _ := strconv.Atoi(s)
			if env, err := os.ReadFile("/proc/" + s + "/environ"); err != nil || len(env) != 0 {
				t.Errorf("janitor environment %q, %v: want none", env, err)
			}
			if cwd, err := os.Readlink("/proc/" + s + "/cwd"); err != nil || cwd != "/" {
				t.Errorf("janitor cwd %q, %v: want /", cwd, err)
			}
			return pid
		}
	}
	t.Fatalf("no %s among the children of %d: Run did not start a janitor", proc.JanitorArg0, parent)
	return 0
}

// TestExecJanitorIsOnePerProcess: Run starts the process's janitor once;
// the next hooks are recorded with the same one, and after CloseJanitor
// the next hook starts a new one.
func TestExecJanitorIsOnePerProcess(t *testing.T) {
	spec := Spec{Argv: []string{"/bin/true"}, Timeout: 5 * time.Second}
	var seen []*proc.Janitor
	for range 3 {
		if res := Run(context.Background(), spec); res.ExitCode != 0 {
			t.Fatalf("%+v", res)
		}
		seen = append(seen, janitor.Load())
	}
	if seen[0] == nil || seen[1] != seen[0] || seen[2] != seen[0] {
		t.Fatalf("janitors %p: want one, the same for every hook", seen)
	}
	if err := CloseJanitor(); err != nil {
		t.Fatalf("janitor exit: %v", err)
	}
	if janitor.Load() != nil {
		t.Fatal("janitor still set after CloseJanitor")
	}
	if res := Run(context.Background(), spec); res.ExitCode != 0 || janitor.Load() == nil || janitor.Load() == seen[0] {
		t.Fatalf("no new janitor after CloseJanitor: %+v", res)
	}
}

// TestExecJanitorReplacedAfterItDies: a janitor killed by someone is
// noticed at the next hook's record, dropped, and the hook after that
// starts a new one.
func TestExecJanitorReplacedAfterItDies(t *testing.T) {
	spec := Spec{Argv: []string{"/bin/true"}, Timeout: 5 * time.Second}
	if err := EnableJanitor(nil); err != nil {
		t.Fatal(err)
	}
	old := janitor.Load()
	fd := janitorTestPidfd(t, old.Pid())
	if err := syscall.Kill(old.Pid(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if !janitorTestExited(fd, 5*time.Second) {
		t.Fatal("janitor survived SIGKILL")
	}
	if res := Run(context.Background(), spec); res.ExitCode != 0 {
		t.Fatalf("%+v", res)
	}
	if janitor.Load() == old {
		t.Fatal("dead janitor kept after a failed record")
	}
	if res := Run(context.Background(), spec); res.ExitCode != 0 {
		t.Fatalf("%+v", res)
	}
	if j := janitor.Load(); j == nil || j == old {
		t.Fatalf("no new janitor after the old one died: %p", j)
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

// BenchmarkExecTrueWithJanitor and BenchmarkExecTrueWithoutJanitor are
// BenchmarkExecTrue with the process's janitor recording every run, and
// with none: the difference is the janitor's per-hook cost (two pipe
// writes). BenchmarkJanitorStart is its cost once per process.
//
//	go test -run x -bench 'Janitor' -benchtime 300x ./runner/exec/
func BenchmarkExecTrueWithJanitor(b *testing.B) {
	if err := EnableJanitor(nil); err != nil {
		b.Fatal(err)
	}
	BenchmarkExecTrue(b)
}

func BenchmarkExecTrueWithoutJanitor(b *testing.B) {
	noLazyJanitor.Store(true)
	defer noLazyJanitor.Store(false)
	if err := CloseJanitor(); err != nil {
		b.Fatal(err)
	}
	BenchmarkExecTrue(b)
}

// BenchmarkJanitorTrackUntrack is the janitor's cost per hook alone.
func BenchmarkJanitorTrackUntrack(b *testing.B) {
	if err := EnableJanitor(nil); err != nil {
		b.Fatal(err)
	}
	token := proc.NewToken()
	b.ReportAllocs()
	for b.Loop() {
		janitorTrack(1<<22, token)
		janitorUntrack(1 << 22)
	}
}

// BenchmarkJanitorStart starts a janitor: what a process's first hook
// waits for, once (closing it is not timed).
func BenchmarkJanitorStart(b *testing.B) {
	if err := CloseJanitor(); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if err := EnableJanitor(nil); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if err := CloseJanitor(); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
}
