//go:build unix

package exec

import (
	"context"
	"fmt"
	"os"
	"syscall"
	"time"

	"github.com/hookside/hookside/internal/proc"
)

// runPortable is Run on every Unix: os/exec to start the hook, a waiter
// goroutine and two reader goroutines. It always returns by
// Timeout + KillGrace + PipeDrainTimeout (plus scheduling slack), with
// no process of the hook's group left and no goroutine of its own left.
//
// How (the idea of lefthook's exec_unix.go, taken further):
//
//   - The child leads its own process group (Setpgid), so its PID is the
//     group id and every process it forks without setsid is reachable
//     with one kill(-pgid).
//
//   - Stdin is written without blocking when it fits the pipe (the usual
//     one line of JSON), else by a goroutine; then it is closed. EPIPE
//     from a child that never reads is ignored.
//
//   - Stdout and stderr are drained concurrently into buffers capped at
//     MaxOutputBytes; past the cap they are read and discarded.
//
//   - On Timeout or ctx done: SIGTERM (then SIGCONT, for stopped
//     members) to the group, SIGKILL to the group and the leader after
//     KillGrace.
//
//   - Once the leader has exited — normally or not — the rest of its
//     group is SIGKILLed: a hook's background children (`sleep 30 &`) do
//     not outlive it and cannot hold its pipes open. On Linux the leader
//     is observed with waitid(WNOWAIT), on macOS and FreeBSD with kqueue
//     NOTE_EXIT, and reaped only after that kill, so the group id cannot
//     have been reused by then.
//
//   - Pipes still open after that (a process that escaped the group) are
//     read for at most PipeDrainTimeout more.
//
//   - Every hook gets a fresh run token in its environment
//     (proc.TokenVar); where no subreaper catches processes that left the
//     group (setsid, a double fork: macOS), they are found by it and
//     killed once the leader has exited (proc.Sweep).
//
//   - The process's janitor (started before its first hook, see
//     EnableJanitor) records the group and token from the start until the
//     group kill, so they die with hookside too, even on SIGKILL.
//
// It waits for the leader after SIGKILL, which the kernel delivers except
// to a process stuck in uninterruptible I/O.
//
// Cost: three pipes, a waiter and two reader goroutines per call, one
// timer; no goroutine for stdin up to the pipe's capacity (64 KiB); with a
// janitor, a poll and two table writes; on macOS a process-list sweep.
func runPortable(ctx context.Context, spec Spec) Result {
	start := time.Now()
	res, lim, ok := begin(ctx, spec)
	if !ok {
		return res
	}

	var p execPipes
	if err := p.open(); err != nil {
		p.closeAll()
		return notStarted(res, start, fmt.Errorf("start hook %q: %w", spec.Argv[0], err))
	}
	ensureJanitor()
	token := proc.NewToken()
	cmd := newCmd(spec, &p)
	cmd.Env = runEnv(spec.Env, token)
	cmd.SysProcAttr = sysProcAttr()
	register := beginStart()
	err := cmd.Start()
	if err != nil {
		register(0)
	} else {
		register(cmd.Process.Pid)
	}
	p.closeChildEnds()
	if err != nil {
		p.closeAll()
		return notStarted(res, start, execStartError(spec, err))
	}
	leader := cmd.Process
	pid := leader.Pid
	res.PID = pid
	janitorTrack(pid, token)

	exited := make(chan execExit, 1)
	go func() { exited <- execAwaitExit(leader) }()
	stdout, stderr, readDone, stdinDone := startIO(&p, spec, lim.maxOut)

	// Phase 1: the leader exits, or the deadline/ctx ends the run.
	timer := time.NewTimer(lim.timeout)
	var ex execExit
	select {
	case ex = <-exited:
	case <-timer.C:
		res.TimedOut = true
	case <-ctx.Done():
		res.Canceled = true
	}
	if res.TimedOut || res.Canceled {
		// Phase 2: SIGTERM the group (and SIGCONT, so stopped members
		// see it); SIGKILL the group and the leader after grace.
		_ = syscall.Kill(-pid, syscall.SIGTERM)
		_ = syscall.Kill(-pid, syscall.SIGCONT)
		timer.Reset(lim.grace)
		select {
		case ex = <-exited:
		case <-timer.C:
			_ = syscall.Kill(-pid, syscall.SIGKILL)
			_ = leader.Kill()
			ex = <-exited
		}
	}

	// Phase 3: the leader is gone (a zombie, so pid is still its group's
	// id). Kill what is left of the group and, without a subreaper, the
	// escapees carrying the run's token; tell the janitor; then reap the
	// leader.
	endGroup(pid, token, start)
	state := ex.state
	if state == nil {
		state, _ = leader.Wait()
	}
	reaped(pid)
	reapAfterHook()
	if state != nil {
		res.ExitCode = state.ExitCode()
	}
	stopStdin(p.inW, stdinDone)

	// Phase 4: collect output, bounded by PipeDrainTimeout.
	collect(&res, &p, stdout, stderr, readDone, timer)
	res.Duration = time.Since(start)
	return res
}

// execWriteStdin writes b to w and closes w. It tries one non-blocking
// write first; when that does not take everything (more than the pipe
// holds, or the child has not read yet), a goroutine writes the rest and
// the returned channel is closed when it is done (writeAsync). nil means
// done already. Write errors (EPIPE: the child is gone or closed stdin)
// are ignored.
func execWriteStdin(w *os.File, b []byte) chan struct{} {
	if len(b) > 0 {
		if rc, err := w.SyscallConn(); err == nil {
			var n int
			var werr error
			_ = rc.Write(func(fd uintptr) bool {
				n, werr = syscall.Write(int(fd), b)
				return true // one attempt, never wait in the poller
			})
			switch {
			case werr == nil && n > 0:
				b = b[n:]
			case werr == syscall.EAGAIN || werr == syscall.EINTR:
			default: // EPIPE and other real errors: nobody will read it
				b = nil
			}
		}
	}
	return writeAsync(w, b)
}

// drainBuffered takes what is already in the pipe after the read deadline
// passed (the poller refuses reads past a deadline even when data is
// waiting), with non-blocking reads, bounded so a writer that keeps
// writing cannot hold us.
func (s *execStream) drainBuffered() {
	if s.f.SetReadDeadline(time.Time{}) != nil {
		return
	}
	rc, err := s.f.SyscallConn()
	if err != nil {
		return
	}
	for range 16 {
		p := s.next()
		var n int
		var rerr error
		if rc.Read(func(fd uintptr) bool {
			n, rerr = syscall.Read(int(fd), p)
			return true
		}) != nil || rerr != nil || n <= 0 {
			return
		}
		s.took(n)
	}
}
