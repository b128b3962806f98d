//go:build unix && !linux

package exec

import (
	"os"
	"syscall"

	"github.com/hookside/hookside/internal/proc"
)

// execPipe returns a pipe; os.Pipe makes both ends non-blocking and
// pollable, and exec.Cmd switches the child's end back to blocking.
func execPipe(parentReads bool) (r, w *os.File, err error) {
	return os.Pipe()
}

// sysProcAttr puts the hook in its own process group, and on FreeBSD asks
// the kernel to SIGKILL it when hookside dies (Pdeathsig).
func sysProcAttr() *syscall.SysProcAttr { return proc.GroupAttr() }
