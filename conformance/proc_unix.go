//go:build unix

package conformance

import (
	"os/exec"
	"syscall"
)

// killPID sends SIGKILL to pid.
func killPID(pid int) { _ = syscall.Kill(pid, syscall.SIGKILL) }

// exists reports whether a process pid exists (signal 0).
func exists(pid int) bool { return syscall.Kill(pid, 0) == nil }

// ownGroup starts cmd in its own process group and makes its context's
// cancellation SIGKILL the whole group.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
