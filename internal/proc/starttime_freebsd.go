package proc

import (
	"errors"
	"fmt"
	"time"

	"golang.org/x/sys/unix"
)

// ProcStartTime returns when process pid started: ki_start of its
// kinfo_proc (sysctl kern.proc.pid.<pid>), to the microsecond. With the
// pid it names one process across pid reuse. Errors wrap ErrNoProcess for
// a pid that does not exist.
func ProcStartTime(pid int) (time.Time, error) {
	b, err := unix.SysctlRaw("kern.proc.pid", pid)
	if errors.Is(err, unix.ESRCH) || (err == nil && len(b) == 0) {
		return time.Time{}, fmt.Errorf("%w: pid %d", ErrNoProcess, pid)
	}
	if err != nil {
		return time.Time{}, fmt.Errorf("proc: sysctl kern.proc.pid.%d: %w", pid, err)
	}
	recs, err := kinfoRecords(b)
	if err != nil {
		return time.Time{}, err
	}
	if len(recs) == 0 || kinfoInt32(recs[0], kinfoOffPID) != pid {
		return time.Time{}, fmt.Errorf("%w: pid %d", ErrNoProcess, pid)
	}
	return kinfoStart(recs[0]), nil
}
