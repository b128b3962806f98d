package proc

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// goneBound is how long a killed process may take to exit.
const goneBound = 10 * time.Second

// pidfds opens a pidfd for each pid, so a later wait names exactly these
// processes even if their pids were reused.
func pidfds(t *testing.T, pids []int) []int {
	t.Helper()
	fds := make([]int, len(pids))
	for i, pid := range pids {
		fd, err := unix.PidfdOpen(pid, 0)
		if err != nil {
			t.Fatalf("pidfd_open(%d): %v", pid, err)
		}
		t.Cleanup(func() { unix.Close(fd) })
		fds[i] = fd
	}
	return fds
}

// exitedWithin waits (poll on the pidfd: readable once the process has
// exited, reaped or not) at most d and reports whether it exited.
func exitedWithin(fd int, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for {
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		n, err := unix.Poll(fds, int(time.Until(deadline).Milliseconds()))
		if errors.Is(err, unix.EINTR) {
			continue
		}
		return err == nil && n > 0
	}
}

// killAll SIGKILLs what a failed test left behind.
func killAll(pids []int) {
	for _, pid := range pids {
		_ = unix.Kill(pid, unix.SIGKILL)
	}
}

func atois(t *testing.T, ss []string) []int {
	t.Helper()
	out := make([]int, len(ss))
	for i, s := range ss {
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatalf("pid %q: %v", s, err)
		}
		out[i] = n
	}
	return out
}

// TestJanitorKillsHookGroupsWhenHooksideIsKilled: with no Pdeathsig and no
// subreaper (the macOS situation), SIGKILL to hookside closes its pipe to
// the janitor, which kills both hooks' groups (leaders and a background
// child holding stdout) and, by run token, the child that escaped with
// setsid; then it exits.
func TestJanitorKillsHookGroupsWhenHooksideIsKilled(t *testing.T) {
	hs := helperCmd("hookside")
	f := startPrinting(t, hs)
	if len(f) != 6 || f[0] != "janitor" {
		t.Fatalf("helper printed %q", f)
	}
	pids := atois(t, f[1:]) // janitor, tree leader, tree child, escape leader, escapee
	t.Cleanup(func() { killAll(pids) })
	fds := pidfds(t, pids)
	for i, fd := range fds {
		if exitedWithin(fd, 0) {
			t.Fatalf("pid %d exited before hookside was killed", pids[i])
		}
	}
	if err := hs.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = hs.Wait()
	names := []string{"janitor", "tree leader", "tree background child", "escape leader", "setsid escapee"}
	for i, fd := range fds {
		if !exitedWithin(fd, goneBound) {
			t.Errorf("%s (pid %d) still running %v after hookside was SIGKILLed", names[i], pids[i], goneBound)
		}
	}
}

func TestJanitorUntrackedGroupSurvives(t *testing.T) {
	hook := helperCmd("sleep")
	hook.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := hook.Start(); err != nil {
		t.Fatal(err)
	}
	pid := hook.Process.Pid
	defer func() { _ = hook.Process.Kill(); _ = hook.Wait() }()
	fd := pidfds(t, []int{pid})[0]
	tab, err := newTable()
	if err != nil {
		t.Fatal(err)
	}
	defer tab.f.Close()
	if err := tab.track(pid, ""); err != nil {
		t.Fatal(err)
	}
	if err := tab.untrack(pid); err != nil {
		t.Fatal(err)
	}
	if err := janitorLoop(strings.NewReader("anything hookside wrote is ignored\n"), tab.f); err != nil {
		t.Fatal(err)
	}
	if exitedWithin(fd, 100*time.Millisecond) {
		t.Fatal("untracked group was killed")
	}
	if err := tab.track(pid, ""); err != nil {
		t.Fatal(err)
	}
	if err := janitorLoop(strings.NewReader(""), tab.f); err != nil {
		t.Fatal(err)
	}
	if !exitedWithin(fd, goneBound) {
		t.Fatal("tracked group survived EOF")
	}
}

func TestJanitorRejectsBadArguments(t *testing.T) {
	j := &Janitor{}
	if err := j.Track(1, ""); err == nil {
		t.Error("pgid 1 accepted")
	}
	if err := j.Track(100, "a b"); !errors.Is(err, ErrBadToken) {
		t.Errorf("token with a blank: %v", err)
	}
	if err := j.Track(100, strings.Repeat("t", tableTokenMax+1)); !errors.Is(err, ErrBadToken) {
		t.Errorf("token longer than a table record takes: %v", err)
	}
	if err := j.Track(100, "ok"); !errors.Is(err, ErrJanitorClosed) {
		t.Errorf("closed janitor: %v", err)
	}
}

// TestSweepKillsEscapees: a hook's child that left the hook's process
// group and session is found by the run token and killed; a process
// without the token is left alone.
func TestSweepKillsEscapees(t *testing.T) {
	tok := NewToken()
	hook := helperCmd("escape")
	hook.Env = append(hook.Env, TokenVar+"="+tok)
	hook.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	pids := atois(t, startPrinting(t, hook)[1:])
	t.Cleanup(func() { killAll(pids) })
	bystander := helperCmd("sleep")
	if err := bystander.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = bystander.Process.Kill(); _ = bystander.Wait() }()
	fds := pidfds(t, append(slices.Clone(pids), bystander.Process.Pid))

	killed, err := Sweep(tok)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(killed)
	want := slices.Sorted(slices.Values(pids))
	if !slices.Equal(killed, want) {
		t.Errorf("Sweep killed %v, want %v", killed, want)
	}
	for i, pid := range pids {
		if !exitedWithin(fds[i], goneBound) {
			t.Errorf("pid %d survived the sweep", pid)
		}
	}
	if exitedWithin(fds[len(pids)], 0) {
		t.Error("the bystander without the token was killed")
	}
	_ = hook.Wait()
	if again, err := Sweep(tok); err != nil || len(again) != 0 {
		t.Errorf("second sweep: %v, %v", again, err)
	}
}
