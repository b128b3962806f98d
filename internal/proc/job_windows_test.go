package proc

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

// Bounds of the tree tests: the hook's deadline (long enough for a Go
// helper to start and print under a loaded Wine before it passes), the
// grace before the job is terminated, how long output is drained after
// that, and the scheduling slack Wine needs on a loaded machine.
const (
	testTimeout = 4 * time.Second
	testGrace   = 500 * time.Millisecond
	testDrain   = 100 * time.Millisecond
	testSlack   = 10 * time.Second
	// testNoDeadline is the deadline of hooks that end by themselves: far
	// beyond what starting a Go binary under a loaded Wine takes.
	testNoDeadline = time.Minute
)

// treeRun is what runTree observed.
type treeRun struct {
	stdout   []byte
	exitCode int
	timedOut bool
	took     time.Duration
	phases   []string // when each phase ended, for the failure message
}

func (r *treeRun) mark(start time.Time, phase string) {
	r.phases = append(r.phases, fmt.Sprintf("%s %v", phase, time.Since(start).Round(time.Millisecond)))
}

// runTree runs cmd in a fresh job the way the Windows spawner does: stdio
// on Pipe ends, the deadline timeout, CTRL_BREAK when a console is shared (else
// straight to TerminateJobObject after the grace), the rest of the tree
// terminated once the leader exited, output drained for at most
// testDrain. It fails the test unless the job ends up empty.
func runTree(t *testing.T, cmd *exec.Cmd, timeout time.Duration) treeRun {
	t.Helper()
	job, err := NewJob()
	if err != nil {
		t.Fatal(err)
	}
	defer job.Close()
	inR, inW, err := Pipe(false)
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := Pipe(true)
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdin, cmd.Stdout = inR, outW
	start := time.Now()
	if err := job.Start(cmd); err != nil {
		t.Fatal(err)
	}
	inR.Close()
	outW.Close()
	inW.Close()
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	read := make(chan []byte, 1)
	go func() { b, _ := io.ReadAll(outR); read <- b }()

	var res treeRun
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case <-exited:
	case <-timer.C:
		res.timedOut = true
		if err := job.Interrupt(); err == nil {
			timer.Reset(testGrace)
			select {
			case <-exited:
			case <-timer.C:
			}
		} else if !errors.Is(err, ErrNoConsole) {
			t.Errorf("Interrupt: %v", err)
		}
		res.mark(start, "deadline")
		if err := job.Terminate(1); err != nil {
			t.Errorf("Terminate: %v", err)
		}
		<-exited
	}
	res.mark(start, "leader exited")
	// The leader is gone: end what is left of its tree.
	if err := job.Terminate(1); err != nil {
		t.Errorf("Terminate after exit: %v", err)
	}
	if err := job.Wait(testSlack); err != nil {
		pids, _ := job.PIDs()
		t.Fatalf("job not empty: %v (pids %v)", err, pids)
	}
	if pids, err := job.PIDs(); err != nil || len(pids) != 0 {
		t.Fatalf("job process list after the run: %v, %v", pids, err)
	}
	res.mark(start, "job empty")
	select {
	case res.stdout = <-read:
	case <-time.After(testDrain):
		_ = outR.SetReadDeadline(time.Unix(1, 0))
		res.stdout = <-read
	}
	outR.Close()
	res.mark(start, "drained")
	res.took = time.Since(start)
	res.exitCode = cmd.ProcessState.ExitCode()
	return res
}

// pidsOf parses the "pids <leader> <grandchild>" line of a tree helper.
func pidsOf(t *testing.T, out []byte) []uint32 {
	t.Helper()
	var a, b uint32
	if _, err := fmt.Sscanf(string(bytes.TrimSpace(out)), "pids %d %d", &a, &b); err != nil {
		t.Fatalf("helper output %q: %v", out, err)
	}
	return []uint32{a, b}
}

func TestJobTreeGrandchildHoldingStdout(t *testing.T) {
	for _, tc := range []struct {
		name     string
		args     []string
		timeout  time.Duration
		timedOut bool
	}{
		{"leader_exits_at_once", []string{"exit"}, testNoDeadline, false},
		{"leader_blocks_past_the_deadline", nil, testTimeout, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := runTree(t, helperCmd("tree", tc.args...), tc.timeout)
			if res.timedOut != tc.timedOut {
				t.Errorf("timedOut = %v, want %v", res.timedOut, tc.timedOut)
			}
			if bound := tc.timeout + testGrace + testDrain + testSlack; res.took > bound {
				t.Errorf("took %v, bound %v (%s)", res.took, bound, strings.Join(res.phases, ", "))
			}
			for _, pid := range pidsOf(t, res.stdout) {
				if Alive(int(pid)) {
					t.Errorf("pid %d of the tree still running", pid)
				}
			}
			t.Logf("took %v, stdout %q, exit %d", res.took, res.stdout, res.exitCode)
		})
	}
}

func TestJobTreeIgnoringEverything(t *testing.T) {
	res := runTree(t, helperCmd("ignore"), testTimeout)
	if !res.timedOut {
		t.Fatalf("hook ended by itself: %+v", res)
	}
	if bound := testTimeout + testGrace + testDrain + testSlack; res.took > bound {
		t.Errorf("took %v, bound %v (%s)", res.took, bound, strings.Join(res.phases, ", "))
	}
	if got := strings.TrimSpace(string(res.stdout)); got != "ignoring" {
		t.Errorf("stdout %q", res.stdout)
	}
	if res.exitCode != 1 {
		t.Errorf("exit code %d, want 1 (TerminateJobObject's)", res.exitCode)
	}
	t.Logf("console shared: %v; took %v", HasConsole(), res.took)
}

func TestJobExitCodeIs32Bit(t *testing.T) {
	const code = 0xC0000005 // STATUS_ACCESS_VIOLATION
	res := runTree(t, helperCmd("exit", fmt.Sprint(uint32(code))), testNoDeadline)
	if res.exitCode != code {
		t.Errorf("exit code %d, want %d", res.exitCode, code)
	}
}

func TestJobRefusesBreakaway(t *testing.T) {
	res := runTree(t, helperCmd("breakaway"), testNoDeadline)
	if !bytes.HasPrefix(res.stdout, []byte("refused")) {
		t.Errorf("a child left the job: %q", res.stdout)
	}
}

func TestJobKilledWithHookside(t *testing.T) {
	hs := helperCmd("hookside")
	hs.Stderr = os.Stderr
	line := strings.Join(startPrinting(t, hs), " ")
	var handles []windows.Handle
	for _, pid := range pidsOf(t, []byte(line)) {
		h, err := windows.OpenProcess(windows.SYNCHRONIZE|windows.PROCESS_QUERY_LIMITED_INFORMATION, false, pid)
		if err != nil {
			t.Fatalf("open hook process %d: %v", pid, err)
		}
		defer windows.CloseHandle(h)
		handles = append(handles, h)
	}
	// The Windows kill -9: TerminateProcess, no cleanup runs in hookside.
	if err := hs.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = hs.Wait()
	for i, h := range handles {
		ev, err := windows.WaitForSingleObject(h, uint32(testSlack.Milliseconds()))
		if err != nil || ev != windows.WAIT_OBJECT_0 {
			t.Errorf("hook process %d still running %v after hookside was killed (%v)", i, testSlack, err)
		}
	}
}

func TestPipeDeadlines(t *testing.T) {
	t.Run("read", func(t *testing.T) {
		r, w, err := Pipe(true)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		defer w.Close()
		if _, err := w.Write([]byte("x")); err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 8)
		if n, err := r.Read(buf); err != nil || string(buf[:n]) != "x" {
			t.Fatalf("read %q, %v", buf[:n], err)
		}
		_ = r.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
		if _, err := r.Read(buf); !errors.Is(err, os.ErrDeadlineExceeded) {
			t.Fatalf("read past the deadline: %v", err)
		}
		w.Close()
		_ = r.SetReadDeadline(time.Time{})
		if _, err := r.Read(buf); err != io.EOF {
			t.Fatalf("read after the child end closed: %v, want EOF", err)
		}
	})
	t.Run("write", func(t *testing.T) {
		r, w, err := Pipe(false)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		defer w.Close()
		_ = w.SetWriteDeadline(time.Now().Add(50 * time.Millisecond))
		if _, err := w.Write(make([]byte, 4*pipeBuffer)); !errors.Is(err, os.ErrDeadlineExceeded) {
			t.Fatalf("write to a pipe nobody reads: %v", err)
		}
	})
}

// TestJobLimitFlags: the job kills its processes when its last handle
// closes and allows no breakaway, silent or asked for
// (JOB_OBJECT_LIMIT_BREAKAWAY_OK / SILENT_BREAKAWAY_OK are what would let
// a process leave it). TestJobRefusesBreakaway checks the behaviour.
func TestJobLimitFlags(t *testing.T) {
	const breakaway = windows.JOB_OBJECT_LIMIT_BREAKAWAY_OK | windows.JOB_OBJECT_LIMIT_SILENT_BREAKAWAY_OK
	if jobLimitFlags&windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE == 0 || jobLimitFlags&breakaway != 0 {
		t.Fatalf("jobLimitFlags %#x: want KILL_ON_JOB_CLOSE and no breakaway", jobLimitFlags)
	}
	job, err := NewJob()
	if err != nil {
		t.Fatal(err)
	}
	defer job.Close()
	var info windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION
	if err := windows.QueryInformationJobObject(job.h, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info)), nil); err != nil {
		t.Fatal(err)
	}
	flags := info.BasicLimitInformation.LimitFlags
	if flags == 0 {
		t.Logf("QueryInformationJobObject reports no limit flags (Wine 8.0 answers this query with zeros): only the flags NewJob sets were checked")
		return
	}
	if flags != jobLimitFlags {
		t.Errorf("job limit flags %#x, want %#x", flags, uint32(jobLimitFlags))
	}
}
