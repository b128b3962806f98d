//go:build linux

package exec

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	osexec "os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hookside/hookside/internal/hook"
)

// The tests below start real processes (shell scripts in testdata/exec/)
// and check, for every misbehaviour a hook can show, the Reliability rules
// of ARCHITECTURE.md: Run returns by its deadline, reports the right
// outcome, leaves no process of the hook's group and no goroutine behind.
// They run one after another so goroutine counts mean something.

const (
	execTestTimeout = 300 * time.Millisecond
	execTestGrace   = 200 * time.Millisecond
	// execTestSlack absorbs a loaded 2-core machine under -race.
	execTestSlack = 1500 * time.Millisecond
)

// execTestScript returns the absolute path of testdata/exec/name.
func execTestScript(t *testing.T, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("testdata", "exec", name))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// execTestSh runs a testdata script through /bin/sh, so the tests do not
// depend on the executable bit surviving a checkout.
func execTestSh(t *testing.T, name string, args ...string) []string {
	return append([]string{"/bin/sh", execTestScript(t, name)}, args...)
}

// execTestRun runs Run and checks the invariants every case shares: it
// returned by Timeout + KillGrace + PipeDrainTimeout + slack, no
// process of the hook's group is left, no goroutine leaked.
func execTestRun(t *testing.T, ctx context.Context, spec Spec) (Result, time.Duration) {
	t.Helper()
	if spec.KillGrace == 0 {
		spec.KillGrace = execTestGrace
	}
	before := runtime.NumGoroutine()
	t0 := time.Now()
	res := Run(ctx, spec)
	elapsed := time.Since(t0)
	timeout := spec.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	if limit := timeout + spec.KillGrace + PipeDrainTimeout + execTestSlack; elapsed > limit {
		t.Errorf("Exec returned after %v, want <= %v", elapsed, limit)
	}
	if res.PID > 0 {
		execTestNoGroup(t, res.PID)
	}
	execTestNoGoroutineLeak(t, before)
	return res, elapsed
}

// execTestNoGroup fails unless no live (non-zombie) process has process
// group pgid, allowing SIGKILLed members a moment to die. Zombies are
// ignored: orphans are reaped by PID 1, which in a container may never do it.
func execTestNoGroup(t *testing.T, pgid int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second) // SIGKILLed members die at once; the bound is a guard under load
	for {
		live := execTestGroupMembers(pgid)
		if len(live) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("process group %d still has live members: %v", pgid, live)
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// execTestGroupMembers scans /proc for processes in group pgid that are
// not zombies ("pid:comm:state").
func execTestGroupMembers(pgid int) []string {
	ents, _ := os.ReadDir("/proc")
	var live []string
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ...; comm may hold spaces and parens.
		i := bytes.LastIndexByte(b, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(b[i+1:]))
		if len(f) < 3 || f[0] == "Z" || f[0] == "X" {
			continue
		}
		if g, _ := strconv.Atoi(f[2]); g == pgid {
			open := bytes.IndexByte(b, '(')
			live = append(live, e.Name()+":"+string(b[open+1:i])+":"+f[0])
		}
	}
	return live
}

// execTestNoGoroutineLeak waits briefly for the goroutine count to fall
// back to before (a goroutine that has just signalled may not have
// returned yet).
func execTestNoGoroutineLeak(t *testing.T, before int) {
	t.Helper()
	deadline := time.Now().Add(time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			t.Errorf("goroutines: %d before Exec, %d after", before, runtime.NumGoroutine())
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestExecNeverExitsIsTerminatedAtTimeout(t *testing.T) {
	res, elapsed := execTestRun(t, context.Background(), Spec{
		Argv: execTestSh(t, "loop.sh"), Timeout: execTestTimeout,
	})
	if !res.TimedOut || res.Canceled || res.StartErr != nil {
		t.Fatalf("TimedOut=%v Canceled=%v StartErr=%v, want a timeout", res.TimedOut, res.Canceled, res.StartErr)
	}
	if res.ExitCode != -1 {
		t.Errorf("ExitCode = %d, want -1 (killed by SIGTERM)", res.ExitCode)
	}
	if string(res.Stdout) != "ready\n" {
		t.Errorf("Stdout = %q", res.Stdout)
	}
	if elapsed < execTestTimeout {
		t.Errorf("returned after %v, before the timeout", elapsed)
	}
}

func TestExecPrintsEndlesslyIsCappedAndTerminated(t *testing.T) {
	// A longer deadline than the other cases': the cap must be reached
	// before it, also when a loaded machine (make test's parallel
	// packages) is slow to start sh and then yes.
	res, _ := execTestRun(t, context.Background(), Spec{
		Argv: execTestSh(t, "spew.sh"), Timeout: 2 * time.Second, MaxOutputBytes: 1000,
	})
	if !res.TimedOut || res.ExitCode != -1 {
		t.Errorf("TimedOut=%v ExitCode=%d, want true, -1", res.TimedOut, res.ExitCode)
	}
	if len(res.Stdout) != 1000 || cap(res.Stdout) > 1000 || !res.StdoutTruncated {
		t.Errorf("Stdout len %d cap %d truncated %v, want 1000, <= 1000, true", len(res.Stdout), cap(res.Stdout), res.StdoutTruncated)
	}
	if !bytes.HasPrefix(res.Stdout, []byte("hookside\nhookside\n")) {
		t.Errorf("Stdout starts %q", res.Stdout[:min(len(res.Stdout), 20)])
	}
}

func TestExecBackgroundChildHoldingStdoutDoesNotDelayResult(t *testing.T) {
	res, elapsed := execTestRun(t, context.Background(), Spec{
		Argv: execTestSh(t, "fork_keep_stdout.sh"), Timeout: 10 * time.Second,
	})
	if res.TimedOut || res.ExitCode != 0 || res.StartErr != nil {
		t.Errorf("TimedOut=%v ExitCode=%d StartErr=%v, want false, 0, nil", res.TimedOut, res.ExitCode, res.StartErr)
	}
	if string(res.Stdout) != "started\n" {
		t.Errorf("Stdout = %q", res.Stdout)
	}
	// The leader exits at once; its `sleep 30 &` is killed with the group.
	if elapsed > execTestSlack {
		t.Errorf("returned after %v, want quickly (the background child must not hold the pipes)", elapsed)
	}
}

func TestExecTrapsSIGTERMIsKilledAfterGrace(t *testing.T) {
	const grace = 300 * time.Millisecond
	res, elapsed := execTestRun(t, context.Background(), Spec{
		Argv: execTestSh(t, "trap_term.sh"), Timeout: execTestTimeout, KillGrace: grace,
	})
	if !res.TimedOut || res.ExitCode != -1 {
		t.Errorf("TimedOut=%v ExitCode=%d, want true, -1", res.TimedOut, res.ExitCode)
	}
	if elapsed < execTestTimeout+grace {
		t.Errorf("returned after %v, before timeout+grace %v: SIGTERM should have been ignored", elapsed, execTestTimeout+grace)
	}
	if !strings.Contains(string(res.Stdout), "got-term") {
		t.Errorf("Stdout = %q, want the trap's got-term", res.Stdout)
	}
}

func TestExecExitsBeforeReadingLargeStdin(t *testing.T) {
	res, _ := execTestRun(t, context.Background(), Spec{
		Argv:    execTestSh(t, "no_stdin.sh"),
		Stdin:   bytes.Repeat([]byte("x"), 1<<20),
		Timeout: 5 * time.Second,
	})
	if res.StartErr != nil || res.ExitCode != 0 || res.TimedOut {
		t.Errorf("StartErr=%v ExitCode=%d TimedOut=%v, want nil, 0, false", res.StartErr, res.ExitCode, res.TimedOut)
	}
}

func TestExecLargeStdinIsDeliveredWhileOutputDrains(t *testing.T) {
	in := bytes.Repeat([]byte("0123456789abcdef"), 1<<16) // 1 MiB
	res, _ := execTestRun(t, context.Background(), Spec{
		Argv: execTestSh(t, "echo_stdin.sh"), Stdin: in, Timeout: 5 * time.Second, MaxOutputBytes: 2 << 20,
	})
	if res.ExitCode != 0 || !bytes.Equal(res.Stdout, in) || res.StdoutTruncated {
		t.Errorf("ExitCode=%d, echoed %d bytes (equal %v, truncated %v), want 0 and the 1 MiB input",
			res.ExitCode, len(res.Stdout), bytes.Equal(res.Stdout, in), res.StdoutTruncated)
	}
}

func TestExecClosesStdoutEarlyThenKeepsRunning(t *testing.T) {
	res, elapsed := execTestRun(t, context.Background(), Spec{
		Argv: execTestSh(t, "close_stdout.sh"), Timeout: 5 * time.Second,
	})
	if res.ExitCode != 0 || res.TimedOut {
		t.Errorf("ExitCode=%d TimedOut=%v, want 0, false", res.ExitCode, res.TimedOut)
	}
	if string(res.Stdout) != "early" || string(res.Stderr) != "late\n" {
		t.Errorf("Stdout=%q Stderr=%q, want early / late", res.Stdout, res.Stderr)
	}
	if elapsed < 200*time.Millisecond {
		t.Errorf("returned after %v: EOF on stdout must not end the run", elapsed)
	}
}

func TestExecInvalidUTF8IsPreserved(t *testing.T) {
	res, _ := execTestRun(t, context.Background(), Spec{
		Argv: execTestSh(t, "invalid_utf8.sh"), Timeout: 5 * time.Second,
	})
	if want := "\xff\xfeok\xc0\n"; string(res.Stdout) != want {
		t.Errorf("Stdout = %q, want %q", res.Stdout, want)
	}
	if want := "\xed\xa0\x80"; string(res.Stderr) != want {
		t.Errorf("Stderr = %q, want %q", res.Stderr, want)
	}
}

func TestExecMegabyteOnBothStreamsIsCapped(t *testing.T) {
	const max = 64 << 10
	res, _ := execTestRun(t, context.Background(), Spec{
		Argv: execTestSh(t, "big_output.sh"), Timeout: 5 * time.Second, MaxOutputBytes: max,
	})
	if res.ExitCode != 0 || res.TimedOut {
		t.Fatalf("ExitCode=%d TimedOut=%v: the child must finish because both pipes are drained", res.ExitCode, res.TimedOut)
	}
	if len(res.Stdout) != max || cap(res.Stdout) > max || !res.StdoutTruncated || len(bytes.Trim(res.Stdout, "o")) != 0 {
		t.Errorf("Stdout len %d cap %d truncated %v", len(res.Stdout), cap(res.Stdout), res.StdoutTruncated)
	}
	if len(res.Stderr) != max || cap(res.Stderr) > max || !res.StderrTruncated || len(bytes.Trim(res.Stderr, "e")) != 0 {
		t.Errorf("Stderr len %d cap %d truncated %v", len(res.Stderr), cap(res.Stderr), res.StderrTruncated)
	}
}

func TestExecOutputExactlyAtCapIsNotTruncated(t *testing.T) {
	res, _ := execTestRun(t, context.Background(), Spec{
		Argv: []string{"printf", "abcd"}, Timeout: 5 * time.Second, MaxOutputBytes: 4,
	})
	if string(res.Stdout) != "abcd" || res.StdoutTruncated {
		t.Errorf("Stdout=%q truncated=%v, want abcd, false", res.Stdout, res.StdoutTruncated)
	}
}

func TestExecCommandDoesNotExist(t *testing.T) {
	for _, tc := range []struct {
		name, argv0 string
		want        error
	}{
		{"absolute_path_is_ENOENT", "/nonexistent/hookside-hook", fs.ErrNotExist},
		{"bare_name_is_not_in_PATH", "hookside-no-such-command", osexec.ErrNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, _ := execTestRun(t, context.Background(), Spec{Argv: []string{tc.argv0}, Timeout: time.Second})
			if !errors.Is(res.StartErr, tc.want) {
				t.Fatalf("StartErr = %v, want it to wrap %v", res.StartErr, tc.want)
			}
			if !strings.Contains(res.StartErr.Error(), tc.argv0) {
				t.Errorf("StartErr %q does not name %s", res.StartErr, tc.argv0)
			}
			if res.ExitCode != -1 || res.PID != 0 {
				t.Errorf("ExitCode=%d PID=%d, want -1, 0", res.ExitCode, res.PID)
			}
		})
	}
}

func TestExecFileNotExecutableIsEACCES(t *testing.T) {
	b, err := os.ReadFile(execTestScript(t, "not_executable.sh"))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "not_executable.sh")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	res, _ := execTestRun(t, context.Background(), Spec{Argv: []string{p}, Timeout: time.Second})
	if !errors.Is(res.StartErr, fs.ErrPermission) || res.ExitCode != -1 {
		t.Fatalf("StartErr=%v ExitCode=%d, want permission denied, -1", res.StartErr, res.ExitCode)
	}
	t.Logf("StartErr: %v", res.StartErr)
}

func TestExecMissingWorkingDirectoryIsNamed(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "gone")
	res, _ := execTestRun(t, context.Background(), Spec{Argv: []string{"/bin/true"}, Dir: dir, Timeout: time.Second})
	if !errors.Is(res.StartErr, fs.ErrNotExist) || !strings.Contains(res.StartErr.Error(), "working directory") {
		t.Fatalf("StartErr = %v, want a missing working directory", res.StartErr)
	}
}

func TestExecScriptInDirectoryWithSpaces(t *testing.T) {
	b, err := os.ReadFile(execTestScript(t, "echo_stdin.sh"))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "dir with spaces")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(dir, "my hook.sh")
	if err := os.WriteFile(script, b, 0o755); err != nil {
		t.Fatal(err)
	}
	shellArgv, err := hook.Shell{}.Argv(`"` + script + `"`)
	if err != nil {
		t.Fatal(err)
	}
	for name, argv := range map[string][]string{
		"process_hook_argv": {script},
		"command_hook_sh_c": shellArgv,
	} {
		t.Run(name, func(t *testing.T) {
			res, _ := execTestRun(t, context.Background(), Spec{
				Argv: argv, Dir: dir, Stdin: []byte("hi\n"), Timeout: 5 * time.Second,
			})
			if res.StartErr != nil || res.ExitCode != 0 {
				t.Fatalf("StartErr=%v ExitCode=%d", res.StartErr, res.ExitCode)
			}
			if string(res.Stdout) != "hi\n" || !strings.HasPrefix(string(res.Stderr), dir+"|") {
				t.Errorf("Stdout=%q Stderr=%q, want hi and the working directory %q", res.Stdout, res.Stderr, dir)
			}
		})
	}
}

func TestExecExitCodeIsPropagated(t *testing.T) {
	for _, code := range []int{0, 2, 7} {
		t.Run(strconv.Itoa(code), func(t *testing.T) {
			res, _ := execTestRun(t, context.Background(), Spec{
				Argv: execTestSh(t, "exit_code.sh", strconv.Itoa(code)), Timeout: 5 * time.Second,
			})
			if res.ExitCode != code || res.TimedOut || res.StartErr != nil {
				t.Errorf("ExitCode=%d TimedOut=%v StartErr=%v, want %d", res.ExitCode, res.TimedOut, res.StartErr, code)
			}
			if want := "exiting " + strconv.Itoa(code) + "\n"; string(res.Stderr) != want {
				t.Errorf("Stderr = %q, want %q", res.Stderr, want)
			}
			if res.PID <= 0 || res.Duration <= 0 {
				t.Errorf("PID=%d Duration=%v, want both > 0", res.PID, res.Duration)
			}
		})
	}
}

func TestExecStdinJSONAndEnvironmentAreDelivered(t *testing.T) {
	in := []byte(`{"hookEventName":"PreToolUse","toolInput":{"cmd":"echo \"hi\"\n","emoji":"✓ 𝄞"},"n":1}` + "\n")
	dir := t.TempDir()
	res, _ := execTestRun(t, context.Background(), Spec{
		Argv:    execTestSh(t, "echo_stdin.sh"),
		Dir:     dir,
		Env:     []string{"PATH=" + os.Getenv("PATH"), "HOOKSIDE_TEST=v a=l"},
		Stdin:   in,
		Timeout: 5 * time.Second,
	})
	if !bytes.Equal(res.Stdout, in) {
		t.Errorf("Stdout = %q, want the stdin JSON %q", res.Stdout, in)
	}
	if want := dir + "|v a=l"; string(res.Stderr) != want {
		t.Errorf("Stderr = %q, want %q", res.Stderr, want)
	}
}

func TestExecContextCancellationKillsGroup(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	time.AfterFunc(150*time.Millisecond, cancel)
	res, elapsed := execTestRun(t, ctx, Spec{Argv: execTestSh(t, "loop.sh"), Timeout: 10 * time.Second})
	if !res.Canceled || res.TimedOut || res.ExitCode != -1 {
		t.Errorf("Canceled=%v TimedOut=%v ExitCode=%d, want true, false, -1", res.Canceled, res.TimedOut, res.ExitCode)
	}
	if limit := 150*time.Millisecond + execTestGrace + PipeDrainTimeout + execTestSlack; elapsed > limit {
		t.Errorf("returned %v after start, want <= %v", elapsed, limit)
	}
}

func TestExecContextAlreadyDoneStartsNothing(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, _ := execTestRun(t, ctx, Spec{Argv: []string{"/bin/true"}})
	if !res.Canceled || !errors.Is(res.StartErr, context.Canceled) || res.PID != 0 || res.ExitCode != -1 {
		t.Errorf("Canceled=%v StartErr=%v PID=%d ExitCode=%d", res.Canceled, res.StartErr, res.PID, res.ExitCode)
	}
}

func TestExecEmptyArgv(t *testing.T) {
	for _, argv := range [][]string{nil, {""}} {
		res := Run(context.Background(), Spec{Argv: argv})
		if !errors.Is(res.StartErr, ErrEmptyArgv) || res.ExitCode != -1 {
			t.Errorf("argv %q: StartErr=%v ExitCode=%d", argv, res.StartErr, res.ExitCode)
		}
	}
}

func TestExecStoppedHookIsTerminatedWithoutWaitingForSIGKILL(t *testing.T) {
	const grace = 2 * time.Second
	res, elapsed := execTestRun(t, context.Background(), Spec{
		Argv: execTestSh(t, "stop_self.sh"), Timeout: execTestTimeout, KillGrace: grace,
	})
	if !res.TimedOut || res.ExitCode != -1 || string(res.Stdout) != "stopping\n" {
		t.Errorf("TimedOut=%v ExitCode=%d Stdout=%q, want true, -1, stopping", res.TimedOut, res.ExitCode, res.Stdout)
	}
	// SIGCONT after SIGTERM lets the stopped shell die of SIGTERM at once.
	if elapsed >= execTestTimeout+grace {
		t.Errorf("returned after %v: the stopped hook waited for SIGKILL", elapsed)
	}
}

func TestExecChildThatLeftTheGroupCannotHoldThePipes(t *testing.T) {
	res, elapsed := execTestRun(t, context.Background(), Spec{
		Argv: execTestSh(t, "escape_group.sh", filepath.Join(t.TempDir(), "left")), Timeout: 10 * time.Second,
	})
	if res.ExitCode != 0 || string(res.Stdout) != "hi\n" {
		t.Errorf("ExitCode=%d Stdout=%q, want 0, hi", res.ExitCode, res.Stdout)
	}
	// The setsid'd sleep would keep the pipes for 1 s; Run stops reading
	// PipeDrainTimeout after the leader exited, or sooner where the token
	// sweep (sweepAfterRun) has killed the sleep and the pipes closed.
	if elapsed >= 900*time.Millisecond || !sweepAfterRun() && elapsed < PipeDrainTimeout {
		t.Errorf("returned after %v, want about PipeDrainTimeout (%v) at most (sweep after run: %v)", elapsed, PipeDrainTimeout, sweepAfterRun())
	}
}

// TestSpecPathStartsItWithArgvAsGiven checks that Spec.Path names the
// program while Argv[0] reaches it unchanged (a shell found once in PATH
// still sees "sh" as $0), on the pidfd path and on the portable one (the
// only one on macOS).
func TestSpecPathStartsItWithArgvAsGiven(t *testing.T) {
	for _, portable := range []bool{false, true} {
		portableCleanup.Store(portable)
		res := Run(context.Background(), Spec{Path: "/bin/sh", Argv: []string{"not-in-path", "-c", `printf %s "$0"`}})
		portableCleanup.Store(false)
		if res.StartErr != nil || res.ExitCode != 0 || string(res.Stdout) != "not-in-path" {
			t.Fatalf("portable %v: StartErr %v, exit %d, stdout %q; want $0 = not-in-path", portable, res.StartErr, res.ExitCode, res.Stdout)
		}
	}
}
