//go:build unix

package exec

import (
	"context"
	"errors"
	"fmt"
	"os"
	osexec "os/exec"
	"syscall"
	"time"
)

// Run runs one hook process and always returns by
// Timeout + KillGrace + PipeDrainTimeout (plus scheduling slack), with
// no process of the hook's group left and no goroutine of its own left.
//
// How (the idea of lefthook's exec_unix.go, taken further):
//   - The child leads its own process group (Setpgid), so its PID is the
//     group id and every process it forks without setsid is reachable
//     with one kill(-pgid).
//   - Stdin is written without blocking when it fits the pipe (the usual
//     one line of JSON), else by a goroutine; then it is closed. EPIPE
//     from a child that never reads is ignored.
//   - Stdout and stderr are drained concurrently into buffers capped at
//     MaxOutputBytes; past the cap they are read and discarded.
//   - On Timeout or ctx done: SIGTERM (then SIGCONT, for stopped
//     members) to the group, SIGKILL to the group and the leader after
//     KillGrace.
//   - Once the leader has exited — normally or not — the rest of its
//     group is SIGKILLed: a hook's background children (`sleep 30 &`) do
//     not outlive it and cannot hold its pipes open. On Linux the leader
//     is observed with waitid(WNOWAIT) and reaped only after that kill,
//     so the group id cannot have been reused by then.
//   - Pipes still open after that (a process that escaped the group) are
//     read for at most PipeDrainTimeout more.
//
// Run cannot reach processes that left the group (setsid/setpgid); and it
// waits for the leader after SIGKILL, which the kernel delivers except to
// a process stuck in uninterruptible I/O.
//
// Cost: three pipes, a waiter and two reader goroutines per call, one
// timer; no goroutine for stdin up to the pipe's capacity (64 KiB).
func Run(ctx context.Context, spec Spec) Result {
	start := time.Now()
	res := Result{ExitCode: -1}
	if len(spec.Argv) == 0 || spec.Argv[0] == "" {
		res.StartErr = ErrEmptyArgv
		return res
	}
	if err := ctx.Err(); err != nil {
		res.Canceled = true
		res.StartErr = fmt.Errorf("start hook %q: not started: %w", spec.Argv[0], err)
		return res
	}
	timeout := spec.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	grace := spec.KillGrace
	if grace <= 0 {
		grace = KillGrace
	}
	maxOut := spec.MaxOutputBytes
	if maxOut <= 0 {
		maxOut = DefaultMaxOutputBytes
	}

	var p execPipes
	if err := p.open(); err != nil {
		p.closeAll()
		res.StartErr = fmt.Errorf("start hook %q: %w", spec.Argv[0], err)
		res.Duration = time.Since(start)
		return res
	}
	cmd := osexec.Command(spec.Argv[0], spec.Argv[1:]...)
	cmd.Dir = spec.Dir
	cmd.Env = spec.Env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = p.inR, p.outW, p.errW
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
		res.StartErr = execStartError(spec, err)
		res.Duration = time.Since(start)
		return res
	}
	proc := cmd.Process
	pid := proc.Pid
	res.PID = pid

	exited := make(chan execExit, 1)
	go func() { exited <- execAwaitExit(proc) }()
	readDone := make(chan struct{}, 2)
	stdout := execStream{f: p.outR, max: maxOut}
	stderr := execStream{f: p.errR, max: maxOut}
	go stdout.drain(readDone)
	go stderr.drain(readDone)
	stdinDone := execWriteStdin(p.inW, spec.Stdin)

	// Phase 1: the leader exits, or the deadline/ctx ends the run.
	timer := time.NewTimer(timeout)
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
		timer.Reset(grace)
		select {
		case ex = <-exited:
		case <-timer.C:
			_ = syscall.Kill(-pid, syscall.SIGKILL)
			_ = proc.Kill()
			ex = <-exited
		}
	}

	// Phase 3: the leader is gone (a zombie on Linux, so pid is still its
	// group's id). Kill what is left of the group, then reap the leader.
	_ = syscall.Kill(-pid, syscall.SIGKILL)
	state := ex.state
	if state == nil {
		state, _ = proc.Wait()
	}
	reaped(pid)
	if state != nil {
		res.ExitCode = state.ExitCode()
	}
	if stdinDone != nil {
		// Nobody left to read stdin (but an escapee): stop writing.
		select {
		case <-stdinDone:
		default:
			_ = p.inW.SetWriteDeadline(execPast)
			<-stdinDone
		}
	}

	// Phase 4: collect output, bounded by PipeDrainTimeout.
	timer.Reset(PipeDrainTimeout)
	for n := 0; n < 2; {
		select {
		case <-readDone:
			n++
		case <-timer.C:
			_ = p.outR.SetReadDeadline(execPast)
			_ = p.errR.SetReadDeadline(execPast)
		}
	}
	timer.Stop()
	_ = p.outR.Close()
	_ = p.errR.Close()

	res.Stdout, res.StdoutTruncated = stdout.result()
	res.Stderr, res.StderrTruncated = stderr.result()
	res.Duration = time.Since(start)
	return res
}

// execPast is a deadline that has always passed.
var execPast = time.Unix(1, 0)

// execExit is what the waiter goroutine reports: state is nil when the
// leader has exited but is not reaped yet (Linux waitid WNOWAIT).
type execExit struct {
	state *os.ProcessState
}

// execStartError wraps a failed cmd.Start with the executable's name and,
// when the working directory is the problem, says so (the kernel's ENOENT
// from chdir reads like a missing executable).
func execStartError(spec Spec, err error) error {
	if spec.Dir != "" {
		if _, serr := os.Stat(spec.Dir); serr != nil {
			return fmt.Errorf("start hook %q: working directory: %w", spec.Argv[0], serr)
		}
	}
	return fmt.Errorf("start hook %q: %w", spec.Argv[0], err)
}

// execPipes are the three stdio pipes of one hook. The parent ends (inW,
// outR, errR) are non-blocking and use the runtime poller, so deadlines
// can interrupt them; the child ends are handed to the child as its fds
// 0, 1, 2 and closed in the parent right after the start.
type execPipes struct {
	inR, inW, outR, outW, errR, errW *os.File
}

func (p *execPipes) open() (err error) {
	if p.inR, p.inW, err = execPipe(false); err != nil {
		return err
	}
	if p.outR, p.outW, err = execPipe(true); err != nil {
		return err
	}
	p.errR, p.errW, err = execPipe(true)
	return err
}

func (p *execPipes) closeChildEnds() {
	for _, f := range []*os.File{p.inR, p.outW, p.errW} {
		if f != nil {
			_ = f.Close()
		}
	}
}

func (p *execPipes) closeAll() {
	for _, f := range []*os.File{p.inR, p.inW, p.outR, p.outW, p.errR, p.errW} {
		if f != nil {
			_ = f.Close()
		}
	}
}

// execWriteStdin writes b to w and closes w. It tries one non-blocking
// write first; when that does not take everything (more than the pipe
// holds, or the child has not read yet), a goroutine writes the rest and
// the returned channel is closed when it is done. nil means done already.
// Write errors (EPIPE: the child is gone or closed stdin) are ignored.
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
	if len(b) == 0 {
		_ = w.Close()
		return nil
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = w.Write(b)
		_ = w.Close()
	}()
	return done
}

// execStream collects one output pipe into a buffer capped at max bytes.
type execStream struct {
	f         *os.File
	max       int
	buf       []byte
	truncated bool
	scratch   []byte // discard buffer once buf is full
}

// execInitialBuf is the first buffer size for a stream with output; it
// doubles up to the cap, so short outputs cost one small allocation.
const execInitialBuf = 512

// drain reads s.f to EOF (or until its read deadline is set to the past)
// and reports on done.
func (s *execStream) drain(done chan<- struct{}) {
	defer func() { done <- struct{}{} }()
	for {
		n, err := s.f.Read(s.next())
		s.took(n)
		if err == nil {
			continue
		}
		if errors.Is(err, os.ErrDeadlineExceeded) {
			s.drainBuffered()
		}
		return
	}
}

// next returns the slice the next read goes into: the free part of buf
// while under the cap, else the discard buffer.
func (s *execStream) next() []byte {
	if len(s.buf) < s.max {
		if len(s.buf) == cap(s.buf) {
			nb := make([]byte, len(s.buf), min(max(2*cap(s.buf), execInitialBuf), s.max))
			copy(nb, s.buf)
			s.buf = nb
		}
		return s.buf[len(s.buf):cap(s.buf)]
	}
	if s.scratch == nil {
		s.scratch = make([]byte, 32<<10)
	}
	return s.scratch
}

// took accounts for n bytes read into the slice next returned.
func (s *execStream) took(n int) {
	if n <= 0 {
		return
	}
	if len(s.buf) < s.max {
		s.buf = s.buf[:len(s.buf)+n]
	} else {
		s.truncated = true
	}
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

// result returns the collected bytes (nil when empty) and the truncation
// flag.
func (s *execStream) result() ([]byte, bool) {
	if len(s.buf) == 0 {
		return nil, s.truncated
	}
	return s.buf, s.truncated
}
