package exec

import (
	"context"
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"

	"github.com/hookside/hookside/internal/proc"
)

// Run runs one hook process and always returns by
// Timeout + KillGrace + PipeDrainTimeout (plus scheduling slack), with no
// process of the hook's tree left and no goroutine of its own left.
//
// How, on Windows:
//   - The hook runs in a Job Object of its own (proc.Job): created
//     suspended, assigned to the job, then resumed, so every process it
//     starts is in the job and cannot break away. The job is
//     kill-on-close: if hookside dies, the kernel ends the tree.
//   - Stdio are named pipes whose parent ends are overlapped (proc.Pipe),
//     so read and write deadlines work as on Unix; output is capped at
//     MaxOutputBytes per stream and drained concurrently.
//   - On Timeout or ctx done: CTRL_BREAK to the hook's process group when
//     hookside shares a console with it, then TerminateJobObject after
//     KillGrace; without a console (the hook was started with
//     CREATE_NO_WINDOW) no event can reach it, so the job is terminated at
//     once and the grace is not used.
//   - Once the leader has exited the rest of the job is terminated: a
//     hook's background children do not outlive it.
//   - Spec.CmdLine, when set, is the leader's command line as given
//     (SysProcAttr.CmdLine), for cmd.exe; else Go quotes Argv.
//   - The hook's environment carries a fresh run token (proc.TokenVar),
//     as on Unix; nothing sweeps by it here, since the job is the
//     guarantee: a process in it cannot leave it (no breakaway).
//
// ExitCode is the leader's full 32-bit exit code (3221225477 for
// STATUS_ACCESS_VIOLATION), or -1 when Run terminated it. Result.PID is
// the leader's process id.
func Run(ctx context.Context, spec Spec) Result {
	start := time.Now()
	res, lim, ok := begin(ctx, spec)
	if !ok {
		return res
	}
	job, err := proc.NewJob()
	if err != nil {
		return notStarted(res, start, fmt.Errorf("start hook %q: %w", spec.Argv[0], err))
	}
	defer job.Close()
	var p execPipes
	if err := p.open(); err != nil {
		p.closeAll()
		return notStarted(res, start, fmt.Errorf("start hook %q: %w", spec.Argv[0], err))
	}
	cmd := newCmd(spec, &p)
	cmd.Env = runEnv(spec.Env, proc.NewToken())
	if spec.CmdLine != "" {
		cmd.SysProcAttr = &syscall.SysProcAttr{CmdLine: spec.CmdLine}
	}
	err = job.Start(cmd)
	p.closeChildEnds()
	if err != nil {
		p.closeAll()
		return notStarted(res, start, execStartError(spec, err))
	}
	leader := cmd.Process
	res.PID = leader.Pid

	exited := make(chan *os.ProcessState, 1)
	go func() { st, _ := leader.Wait(); exited <- st }()
	stdout, stderr, readDone, stdinDone := startIO(&p, spec, lim.maxOut)

	// Phase 1: the leader exits, or the deadline/ctx ends the run.
	timer := time.NewTimer(lim.timeout)
	var state *os.ProcessState
	select {
	case state = <-exited:
	case <-timer.C:
		res.TimedOut = true
	case <-ctx.Done():
		res.Canceled = true
	}
	if res.TimedOut || res.Canceled {
		// Phase 2: CTRL_BREAK when a console is shared, then the job.
		terminated := true
		if job.Interrupt() == nil {
			timer.Reset(lim.grace)
			select {
			case state = <-exited:
				terminated = false
			case <-timer.C:
			}
		}
		if terminated {
			_ = job.Terminate(1)
			state = <-exited
			state = nil // killed by Run: no exit code of its own
		}
	}

	// Phase 3: the leader is gone; end what is left of its tree.
	_ = job.Terminate(1)
	if state != nil {
		res.ExitCode = state.ExitCode()
	}
	stopStdin(p.inW, stdinDone)

	// Phase 4: collect output, bounded by PipeDrainTimeout.
	collect(&res, &p, stdout, stderr, readDone, timer)
	res.Duration = time.Since(start)
	return res
}

// execPipe returns one stdio pipe whose parent end is overlapped.
func execPipe(parentReads bool) (r, w *os.File, err error) {
	return proc.Pipe(parentReads)
}

// execWriteStdin writes b to w from a goroutine and closes w (writeAsync).
func execWriteStdin(w *os.File, b []byte) chan struct{} { return writeAsync(w, b) }

// drainBuffered takes what is already in the pipe after the read deadline
// passed: PeekNamedPipe says how much is waiting, and a read of at most
// that much cannot block. Bounded, so a writer that keeps writing cannot
// hold us.
func (s *execStream) drainBuffered() {
	if s.f.SetReadDeadline(time.Time{}) != nil {
		return
	}
	for range 16 {
		avail, err := proc.Buffered(s.f)
		if err != nil || avail == 0 {
			return
		}
		p := s.next()
		if len(p) > avail {
			p = p[:avail]
		}
		n, rerr := s.f.Read(p)
		s.took(n)
		if rerr != nil && !errors.Is(rerr, os.ErrDeadlineExceeded) {
			return
		}
	}
}
