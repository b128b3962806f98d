package conformance

import (
	"os"
	"os/exec"

	"golang.org/x/sys/windows"
)

// killPID terminates pid (TerminateProcess).
func killPID(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		_ = p.Kill()
		_ = p.Release()
	}
}

// exists reports whether pid names a process that has not exited.
func exists(pid int) bool {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return false
	}
	defer windows.CloseHandle(h)
	var code uint32
	const stillActive = 259
	return windows.GetExitCodeProcess(h, &code) == nil && code == stillActive
}

// ownGroup leaves cmd as os/exec starts it: its context's cancellation
// terminates the process itself; Windows has no process groups to kill.
func ownGroup(cmd *exec.Cmd) {}
