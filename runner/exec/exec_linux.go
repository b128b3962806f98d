// Linux specifics of Run: cheaper pipes and waitid(WNOWAIT).

package exec

import (
	"os"
	"sync/atomic"
	"syscall"
	"unsafe"
)

// execPipe returns a pipe whose parent end (the read end when parentReads,
// else the write end) is non-blocking and registered with the runtime
// poller, and whose child end stays blocking and outside the poller (what
// the child expects of its stdio, and two syscalls cheaper than os.Pipe,
// which registers both ends).
func execPipe(parentReads bool) (r, w *os.File, err error) {
	var fds [2]int
	if err := syscall.Pipe2(fds[:], syscall.O_CLOEXEC); err != nil {
		return nil, nil, os.NewSyscallError("pipe2", err)
	}
	parent := fds[1]
	if parentReads {
		parent = fds[0]
	}
	if err := syscall.SetNonblock(parent, true); err != nil {
		syscall.Close(fds[0])
		syscall.Close(fds[1])
		return nil, nil, os.NewSyscallError("fcntl", err)
	}
	return os.NewFile(uintptr(fds[0]), "|0"), os.NewFile(uintptr(fds[1]), "|1"), nil
}

// execAwaitExit blocks until the leader p has exited but does not reap it
// (waitid with WNOWAIT): while it is a zombie its PID, which is also its
// process group id, cannot be reused, so Run can SIGKILL the rest of the
// group without hitting a stranger. Run reaps it with p.Wait afterwards.
func execAwaitExit(p *os.Process) execExit {
	const pPID = 1     // P_PID
	var info [128]byte // siginfo_t
	for {
		_, _, errno := syscall.Syscall6(syscall.SYS_WAITID, pPID, uintptr(p.Pid),
			uintptr(unsafe.Pointer(&info[0])), syscall.WEXITED|syscall.WNOWAIT, 0, 0)
		if errno != syscall.EINTR {
			// Success, or ECHILD (someone else reaped it): either way it
			// has exited; p.Wait reports what is left to know.
			return execExit{}
		}
	}
}

// sysProcAttr puts the hook in its own process group and asks the kernel to
// SIGKILL it if hookside dies without cleaning up (kill -9): the hook's
// leader never outlives the runner. (Pdeathsig fires when the forking OS
// thread exits; the Go runtime does not retire threads that did not lock
// themselves, so in practice that is the process.)
func sysProcAttr() *syscall.SysProcAttr {
	if portableCleanup.Load() {
		return &syscall.SysProcAttr{Setpgid: true}
	}
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// portableCleanup switches Linux to the cleanup macOS has: no Pdeathsig,
// and a sweep by run token after every hook (with the subreaper not
// enabled, the janitor is then all that cleans up after hookside's death).
// Only tests set it, so the Linux suite runs the macOS code paths.
var portableCleanup atomic.Bool

// sweepAfterRun reports whether Run sweeps a finished hook's run token:
// while this process is not the subreaper of its hooks (EnableSubreaper,
// whose reaper kills what left a hook's group), and always with
// portableCleanup. A process that runs hooks without the subreaper (a
// program embedding runner/exec, a command that did not enable it) then
// still kills a hook's escapees (setsid, a double fork), at the cost of a
// listing of /proc after each hook.
func sweepAfterRun() bool {
	return portableCleanup.Load() || !subreaperEnabled() && !benchAsSubreaper.Load()
}

// benchAsSubreaper makes sweepAfterRun answer as in a subreaper (no sweep)
// without making the process one: set only by the benchmarks of Run, which
// measure it as app-server runs it (a test process must not be the
// subreaper: every child that is not a hook would be killed).
var benchAsSubreaper atomic.Bool
