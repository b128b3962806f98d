package proc

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// procctl(2) arguments (sys/procctl.h, sys/wait.h); x/sys/unix has
// neither the call nor the constants for FreeBSD.
const (
	idtypePID       = 0 // P_PID
	procReapAcquire = 2 // PROC_REAP_ACQUIRE
	procReapRelease = 3 // PROC_REAP_RELEASE
)

// AcquireReaper makes this process the reaper of its descendants
// (procctl PROC_REAP_ACQUIRE): a process that leaves a hook's process
// group and outlives its parent is re-parented here instead of to init,
// where ChildPIDs finds it. The caller must then reap such children (they
// are not hook leaders) or they stay zombies.
func AcquireReaper() error {
	return procctl(procReapAcquire)
}

// ReleaseReaper undoes AcquireReaper (PROC_REAP_RELEASE).
func ReleaseReaper() error {
	return procctl(procReapRelease)
}

func procctl(cmd int) error {
	_, _, errno := unix.Syscall6(unix.SYS_PROCCTL, idtypePID, uintptr(unix.Getpid()), uintptr(cmd), 0, 0, 0)
	if errno != 0 {
		return fmt.Errorf("proc: procctl %d: %w", cmd, errno)
	}
	return nil
}
