package exec

import (
	"context"
	"errors"
	"fmt"
	"os"
	osexec "os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/hookside/hookside/internal/proc"
	"github.com/hookside/hookside/internal/steps"
)

// Run runs one hook process and always returns by
// Timeout + KillGrace + PipeDrainTimeout (plus scheduling slack), with no
// process of the hook's group left and no goroutine of its own left.
//
// On Linux (pidfd: kernel 5.3 or later) the calling goroutine does all of
// it, like a C runner: the hook is started with syscall.StartProcess in
// its own process group (Setpgid; Pdeathsig SIGKILL) with a pidfd, and one
// poll(2) over the pidfd and the three pipes writes stdin, drains stdout
// and stderr into buffers capped at MaxOutputBytes and sees the leader
// exit; no waiter or reader goroutines, no runtime poller. The rules are
// those of runPortable: the deadline and ctx end the run with SIGTERM
// (and SIGCONT) to the group and SIGKILL after KillGrace (from timer
// callbacks, which signal the group only while its leader is unreaped);
// once the leader has exited the rest of its group is SIGKILLed before
// the leader is reaped, so the group id cannot have been reused; pipes
// held after that by a process that left the group are read for at most
// PipeDrainTimeout more; every hook gets a fresh run token
// (proc.TokenVar), and with a janitor its group is recorded from the start
// until the group kill. Without pidfd, and in tests that run the macOS
// cleanup (portableCleanup), Run is runPortable.
//
// Cost: three pipes and a pidfd, two timers that fire only on a timeout or
// cancellation, and about two poll calls for a hook that prints a line
// and exits.
func Run(ctx context.Context, spec Spec) Result {
	if portableCleanup.Load() || !pidfdWorks() {
		return runPortable(ctx, spec)
	}
	return runPoll(ctx, spec)
}

// pidfdWorks reports whether pidfd_open works here (Linux 5.3; clone's
// CLONE_PIDFD is 5.2).
var pidfdWorks = sync.OnceValue(func() bool {
	fd, err := unix.PidfdOpen(os.Getpid(), 0)
	if err != nil {
		return false
	}
	_ = unix.Close(fd)
	return true
})

// pollRun is the state of one runPoll.
type pollRun struct {
	pid, pidfd      int
	in, out, errOut int // parent ends of the pipes; -1 once closed
	stdin           []byte
	stdout, stderr  execStream
	grace           time.Duration

	mu       sync.Mutex
	reaping  bool // the leader has exited: its group id is about to be freed
	timedOut bool
	canceled bool
	kill     *time.Timer // SIGKILL after grace, once terminated
}

func runPoll(ctx context.Context, spec Spec) Result {
	start := time.Now()
	res, lim, ok := begin(ctx, spec)
	if !ok {
		return res
	}
	fail := func(err error) Result {
		return notStarted(res, start, fmt.Errorf("start hook %q: %w", spec.Argv[0], err))
	}
	path := spec.Argv[0]
	if spec.Path != "" {
		path = spec.Path
	} else if !strings.Contains(path, "/") {
		// exec.Command's rule: a bare name is looked up in hookside's PATH.
		lp, err := osexec.LookPath(path)
		if err != nil {
			return fail(err)
		}
		path = lp
	}
	ensureJanitor()
	token := proc.NewToken()
	env, err := hookEnv(spec.Env, token)
	if err != nil {
		return fail(err)
	}
	var fds [6]int // stdin r/w, stdout r/w, stderr r/w
	if err := openPipes(&fds); err != nil {
		return fail(err)
	}
	r := &pollRun{pidfd: -1, in: fds[1], out: fds[2], errOut: fds[4], stdin: spec.Stdin, grace: lim.grace,
		stdout: execStream{max: lim.maxOut, onLine: spec.OnFirstLine}, stderr: execStream{max: lim.maxOut}}
	sys := sysProcAttr()
	sys.PidFD = &r.pidfd
	steps.Mark(steps.Piped)
	register := beginStart()
	pid, _, err := syscall.StartProcess(path, spec.Argv, &syscall.ProcAttr{
		Dir: spec.Dir, Env: env, Files: []uintptr{uintptr(fds[0]), uintptr(fds[3]), uintptr(fds[5])}, Sys: sys,
	})
	if err != nil {
		pid = 0
	}
	steps.Mark(steps.Spawned)
	register(pid)
	closeFDs(fds[0], fds[3], fds[5])
	if err != nil {
		closeFDs(r.in, r.out, r.errOut)
		return notStarted(res, start, execStartError(spec, &os.PathError{Op: "fork/exec", Path: path, Err: err}))
	}
	r.pid, res.PID = pid, pid
	janitorTrack(pid, token)
	var watchErr error
	if r.pidfd < 0 {
		// No CLONE_PIDFD although pidfd_open works: open one (the leader
		// is not reaped yet, so pid is still it); failing that, the hook
		// cannot be watched and is killed (StartErr says so).
		if r.pidfd, watchErr = unix.PidfdOpen(pid, 0); watchErr != nil {
			r.pidfd = -1
		}
	}

	// Phase 1: write stdin, drain the pipes, until the leader exits. The
	// deadline and ctx terminate the group from timer callbacks.
	r.writeStdin()
	deadline := time.AfterFunc(lim.timeout, func() { r.terminate(&r.timedOut) })
	stopCtx := context.AfterFunc(ctx, func() { r.terminate(&r.canceled) })
	r.untilExit()
	steps.Mark(steps.Exited)

	// Phase 2: the leader is a zombie, so pid is still its group's id. No
	// more signals from the callbacks; kill the rest of the group, tell
	// the janitor, then reap.
	r.mu.Lock()
	r.reaping = true
	if r.kill != nil {
		r.kill.Stop()
	}
	res.TimedOut, res.Canceled = r.timedOut, r.canceled
	r.mu.Unlock()
	deadline.Stop()
	stopCtx()
	endGroup(pid, token, start)
	var ws syscall.WaitStatus
	for {
		if _, err := syscall.Wait4(pid, &ws, 0, nil); err != syscall.EINTR {
			if err == nil {
				res.ExitCode = ws.ExitStatus() // -1 when killed by a signal
			}
			break
		}
	}
	reaped(pid)
	reapAfterHook()
	closeFDs(r.pidfd, r.in)
	r.in = -1

	// Phase 3: what is left in the pipes, bounded by PipeDrainTimeout.
	r.drainAfterExit()
	if watchErr != nil {
		res.StartErr = fmt.Errorf("start hook %q: cannot watch the process, killed it: pidfd_open: %w", spec.Argv[0], watchErr)
	}
	res.Stdout, res.StdoutTruncated = r.stdout.result()
	res.Stderr, res.StderrTruncated = r.stderr.result()
	steps.Mark(steps.Reaped)
	res.Duration = time.Since(start)
	return res
}

// openPipes makes the three pipes (close-on-exec) with non-blocking parent
// ends: fds[1] (stdin), fds[2] (stdout), fds[4] (stderr). The child ends
// stay blocking, as a child expects of its stdio.
func openPipes(fds *[6]int) error {
	for i := range fds {
		fds[i] = -1
	}
	for i := 0; i < 6; i += 2 {
		if err := unix.Pipe2(fds[i:i+2], unix.O_CLOEXEC); err != nil {
			closeFDs(fds[:]...)
			return os.NewSyscallError("pipe2", err)
		}
	}
	for _, fd := range []int{fds[1], fds[2], fds[4]} {
		if _, err := unix.FcntlInt(uintptr(fd), unix.F_SETFL, unix.O_NONBLOCK); err != nil {
			closeFDs(fds[:]...)
			return os.NewSyscallError("fcntl", err)
		}
	}
	return nil
}

func closeFDs(fds ...int) {
	for _, fd := range fds {
		if fd >= 0 {
			_ = unix.Close(fd)
		}
	}
}

// terminate ends the run for the deadline or ctx (flag is timedOut or
// canceled; the first one wins): SIGTERM and SIGCONT to the group now,
// SIGKILL to the group and the leader after grace. Nothing is sent once
// the leader is being reaped.
func (r *pollRun) terminate(flag *bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.reaping || r.timedOut || r.canceled {
		return
	}
	*flag = true
	_ = syscall.Kill(-r.pid, syscall.SIGTERM)
	_ = syscall.Kill(-r.pid, syscall.SIGCONT)
	r.kill = time.AfterFunc(r.grace, r.terminateNow)
}

// terminateNow SIGKILLs the group and the leader unless it is being reaped.
func (r *pollRun) terminateNow() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.reaping {
		_ = syscall.Kill(-r.pid, syscall.SIGKILL)
		_ = syscall.Kill(r.pid, syscall.SIGKILL)
	}
}

// writeStdin writes what the pipe takes of the rest of stdin without
// blocking, and closes it when all is written or the child will not read
// (EPIPE and other errors drop the rest).
func (r *pollRun) writeStdin() {
	for r.in >= 0 && len(r.stdin) > 0 {
		n, err := syscall.Write(r.in, r.stdin)
		if err == syscall.EINTR {
			continue
		}
		if err == syscall.EAGAIN {
			return
		}
		if err != nil || n <= 0 {
			break
		}
		r.stdin = r.stdin[n:]
	}
	closeFDs(r.in)
	r.in = -1
}

// read reads the pipe *fd into s until a read comes back short (the pipe is
// drained for now), at most 16 reads (a writer that keeps the pipe full
// cannot hold it), and closes it at EOF or on an error other than EAGAIN.
func read(fd *int, s *execStream) {
	for range 16 {
		p := s.next()
		n, err := syscall.Read(*fd, p)
		if err == syscall.EINTR {
			continue
		}
		if n > 0 {
			s.took(n)
			if n < len(p) {
				return
			}
			continue
		}
		if err != syscall.EAGAIN {
			closeFDs(*fd)
			*fd = -1
		}
		return
	}
}

// untilExit polls the pidfd and the pipes until the leader has exited.
func (r *pollRun) untilExit() {
	if r.pidfd < 0 {
		r.abandon()
		return
	}
	var pfd [4]unix.PollFd
	for {
		pfd[0] = unix.PollFd{Fd: int32(r.pidfd), Events: unix.POLLIN}
		n := r.pollSet(pfd[:], 1)
		if _, err := unix.Poll(pfd[:n], -1); err != nil {
			if err == unix.EINTR {
				continue
			}
			r.abandon()
			return
		}
		r.serve(pfd[1:n])
		if pfd[0].Revents != 0 {
			return
		}
	}
}

// abandon is the way out when the hook cannot be watched: SIGKILL it, drop
// its output and wait (not reap) until the leader has exited.
func (r *pollRun) abandon() {
	r.terminateNow()
	closeFDs(r.out, r.errOut)
	r.out, r.errOut = -1, -1
	var info unix.Siginfo
	for unix.Waitid(unix.P_PID, r.pid, &info, unix.WEXITED|unix.WNOWAIT, nil) == unix.EINTR {
	}
}

// pollSet appends the open pipes to pfd[n:] and returns the new length.
func (r *pollRun) pollSet(pfd []unix.PollFd, n int) int {
	if r.out >= 0 {
		pfd[n] = unix.PollFd{Fd: int32(r.out), Events: unix.POLLIN}
		n++
	}
	if r.errOut >= 0 {
		pfd[n] = unix.PollFd{Fd: int32(r.errOut), Events: unix.POLLIN}
		n++
	}
	if r.in >= 0 {
		pfd[n] = unix.PollFd{Fd: int32(r.in), Events: unix.POLLOUT}
		n++
	}
	return n
}

// serve acts on the pipes poll reported ready.
func (r *pollRun) serve(pfd []unix.PollFd) {
	for _, p := range pfd {
		if p.Revents == 0 {
			continue
		}
		switch int(p.Fd) {
		case r.out:
			read(&r.out, &r.stdout)
		case r.errOut:
			read(&r.errOut, &r.stderr)
		case r.in:
			if p.Revents&unix.POLLOUT != 0 {
				r.writeStdin()
			} else { // POLLERR: the read end is closed
				closeFDs(r.in)
				r.in = -1
			}
		}
	}
}

// drainAfterExit reads stdout and stderr to EOF for at most
// PipeDrainTimeout, then takes what is already buffered (bounded, so a
// writer that keeps writing cannot hold us) and closes them.
func (r *pollRun) drainAfterExit() {
	end := time.Now().Add(PipeDrainTimeout)
	var pfd [2]unix.PollFd
	for r.out >= 0 || r.errOut >= 0 {
		left := time.Until(end)
		if left <= 0 {
			for range 16 {
				if r.out < 0 && r.errOut < 0 {
					break
				}
				if r.out >= 0 {
					read(&r.out, &r.stdout)
				}
				if r.errOut >= 0 {
					read(&r.errOut, &r.stderr)
				}
			}
			break
		}
		n := r.pollSet(pfd[:], 0)
		if _, err := unix.Poll(pfd[:n], int((left+time.Millisecond-1)/time.Millisecond)); err != nil && err != unix.EINTR {
			break
		}
		r.serve(pfd[:n])
	}
	closeFDs(r.out, r.errOut)
	r.out, r.errOut = -1, -1
}

// errEnvNUL is os/exec's refusal of an environment entry holding a NUL.
var errEnvNUL = errors.New("exec: environment variable contains NUL")

// hookEnv is the hook's environment as os/exec would pass env (nil: this
// process's): the last of duplicate keys kept, in order, with
// proc.TokenVar=token replacing any inherited token.
func hookEnv(env []string, token string) ([]string, error) {
	if env == nil {
		env = os.Environ()
	}
	seen := make(map[string]struct{}, len(env)+1)
	seen[proc.TokenVar] = struct{}{}
	out := make([]string, len(env)+1)
	k := len(out) - 1
	out[k] = proc.TokenVar + "=" + token
	for i := len(env) - 1; i >= 0; i-- {
		kv := env[i]
		if strings.IndexByte(kv, 0) >= 0 {
			return nil, errEnvNUL
		}
		key := kv
		if j := strings.IndexByte(kv[min(1, len(kv)):], '='); j >= 0 {
			key = kv[:j+min(1, len(kv))]
		}
		if _, dup := seen[key]; dup {
			continue
		}
		seen[key] = struct{}{}
		k--
		out[k] = kv
	}
	return out[k:], nil
}
