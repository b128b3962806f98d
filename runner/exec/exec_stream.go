package exec

// The platform-independent parts of Run: limits, the stdio pipes, output
// collection with its cap and the drain bound.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	osexec "os/exec"
	"runtime"
	"time"
)

// limits are a Spec's bounds with the defaults applied.
type limits struct {
	timeout, grace time.Duration
	maxOut         int
}

// begin checks spec and ctx before anything is started and applies the
// defaults. ok is false when Run must return res as it is: empty argv
// (ErrEmptyArgv), a CmdLine off Windows (ErrCmdLine) or ctx already done
// (Canceled, not started).
func begin(ctx context.Context, spec Spec) (res Result, lim limits, ok bool) {
	res = Result{ExitCode: -1}
	if len(spec.Argv) == 0 || spec.Argv[0] == "" {
		res.StartErr = ErrEmptyArgv
		return res, lim, false
	}
	if spec.CmdLine != "" && runtime.GOOS != "windows" {
		res.StartErr = ErrCmdLine
		return res, lim, false
	}
	if err := ctx.Err(); err != nil {
		res.Canceled = true
		res.StartErr = fmt.Errorf("start hook %q: not started: %w", spec.Argv[0], err)
		return res, lim, false
	}
	lim = limits{timeout: spec.Timeout, grace: spec.KillGrace, maxOut: spec.MaxOutputBytes}
	if lim.timeout <= 0 {
		lim.timeout = DefaultTimeout
	}
	if lim.grace <= 0 {
		lim.grace = KillGrace
	}
	if lim.maxOut <= 0 {
		lim.maxOut = DefaultMaxOutputBytes
	}
	return res, lim, true
}

// newCmd returns the command that runs spec with the child ends of p as
// its stdin, stdout and stderr.
func newCmd(spec Spec, p *execPipes) *osexec.Cmd {
	var cmd *osexec.Cmd
	if spec.Path != "" {
		// Already resolved: exec.Command would search PATH for Argv[0] again.
		cmd = &osexec.Cmd{Path: spec.Path, Args: spec.Argv}
	} else {
		cmd = osexec.Command(spec.Argv[0], spec.Argv[1:]...)
	}
	cmd.Dir = spec.Dir
	cmd.Env = spec.Env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = p.inR, p.outW, p.errW
	return cmd
}

// startIO starts draining stdout and stderr into buffers capped at maxOut
// (readDone gets one value per stream when it is done; stdout reports its
// first line to spec.OnFirstLine) and writing spec.Stdin (stdinDone as
// execWriteStdin returns it).
func startIO(p *execPipes, spec Spec, maxOut int) (stdout, stderr *execStream, readDone, stdinDone chan struct{}) {
	readDone = make(chan struct{}, 2)
	stdout = &execStream{f: p.outR, max: maxOut, onLine: spec.OnFirstLine}
	stderr = &execStream{f: p.errR, max: maxOut}
	go stdout.drain(readDone)
	go stderr.drain(readDone)
	return stdout, stderr, readDone, execWriteStdin(p.inW, spec.Stdin)
}

// collect waits for both output readers, at most PipeDrainTimeout (then
// their read deadlines are set to the past), closes the read ends and
// stores the output in res. timer is stopped or expired and drained.
func collect(res *Result, p *execPipes, stdout, stderr *execStream, readDone <-chan struct{}, timer *time.Timer) {
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
}

// stopStdin ends a stdin write still in progress (stdinDone open) once
// nobody is left to read it but an escapee, and waits for the writer.
func stopStdin(w *os.File, stdinDone chan struct{}) {
	if stdinDone == nil {
		return
	}
	select {
	case <-stdinDone:
	default:
		_ = w.SetWriteDeadline(execPast)
		<-stdinDone
	}
}

// writeAsync closes w at once when b is empty (returning nil); else a
// goroutine writes b to w and closes it, and the returned channel is
// closed when that is done. Write errors (the child is gone or closed
// stdin) are ignored.
func writeAsync(w *os.File, b []byte) chan struct{} {
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

// execPast is a deadline that has always passed.
var execPast = time.Unix(1, 0)

// execExit is what the waiter goroutine reports: state is nil when the
// leader has exited but is not reaped yet (Linux waitid WNOWAIT, kqueue
// NOTE_EXIT on macOS and FreeBSD).
type execExit struct {
	state *os.ProcessState
}

// notStarted is what Run returns for a hook that did not start: res
// with StartErr err and the time spent since start.
func notStarted(res Result, start time.Time, err error) Result {
	res.StartErr, res.Duration = err, time.Since(start)
	return res
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
// outR, errR) use the runtime poller (non-blocking pipes on Unix,
// overlapped named pipes on Windows), so deadlines can interrupt them; the
// child ends are handed to the child as its stdin, stdout and stderr and
// closed in the parent right after the start.
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

// execStream collects one output pipe into a buffer capped at max bytes.
type execStream struct {
	f         *os.File
	max       int
	buf       []byte
	truncated bool
	scratch   []byte       // discard buffer once buf is full
	onLine    func([]byte) // Spec.OnFirstLine until it was called or cannot be
	lineAt    int          // where the search for onLine's newline resumes
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
		s.scratch = make([]byte, 64<<10) // a whole pipe buffer per read
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
		if s.onLine != nil {
			s.firstLine()
		}
	} else {
		s.truncated = true
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

// firstLine hands the first non-blank complete line of buf to onLine and
// clears onLine, which it also clears once buf is full without one.
func (s *execStream) firstLine() {
	for {
		i := bytes.IndexByte(s.buf[s.lineAt:], '\n')
		if i < 0 {
			if len(s.buf) >= s.max {
				s.onLine = nil
			}
			return
		}
		line := bytes.TrimSpace(s.buf[s.lineAt : s.lineAt+i])
		s.lineAt += i + 1
		if len(line) > 0 {
			f := s.onLine
			s.onLine = nil
			f(bytes.Clone(line))
			return
		}
	}
}
