//go:build unix && !linux

package exec

import (
	"os"
	"syscall"
)

// execPipe returns a pipe; os.Pipe makes both ends non-blocking and
// pollable, and exec.Cmd switches the child's end back to blocking.
func execPipe(parentReads bool) (r, w *os.File, err error) {
	return os.Pipe()
}

// execAwaitExit waits for the leader p and reaps it. Without Linux's
// waitid(WNOWAIT) the group kill that follows has a tiny window in which
// the PID, if the group is already empty, could have been reused.
func execAwaitExit(p *os.Process) execExit {
	st, _ := p.Wait()
	return execExit{state: st}
}

// sysProcAttr puts the hook in its own process group.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
