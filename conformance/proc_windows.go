package conformance

import (
	"os"
	"os/exec"

	"github.com/hookside/hookside/internal/proc"
)

// killPID terminates pid (TerminateProcess).
func killPID(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		_ = p.Kill()
		_ = p.Release()
	}
}

// exists reports whether pid names a process that has not exited.
func exists(pid int) bool { return proc.Alive(pid) }

// ownGroup leaves cmd as os/exec starts it: its context's cancellation
// terminates the process itself; Windows has no process groups to kill.
func ownGroup(cmd *exec.Cmd) {}
