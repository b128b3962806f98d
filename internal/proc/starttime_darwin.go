package proc

import (
	"errors"
	"fmt"
	"time"

	"golang.org/x/sys/unix"
)

// ProcStartTime returns when process pid started: p_starttime of its
// kinfo_proc (sysctl kern.proc.pid.<pid>), to the microsecond. With the
// pid it names one process across pid reuse. Errors wrap ErrNoProcess for
// a pid that does not exist (the sysctl then returns no record).
func ProcStartTime(pid int) (time.Time, error) {
	kp, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	if errors.Is(err, unix.EIO) || errors.Is(err, unix.ESRCH) || (err == nil && int(kp.Proc.P_pid) != pid) {
		return time.Time{}, fmt.Errorf("%w: pid %d", ErrNoProcess, pid)
	}
	if err != nil {
		return time.Time{}, fmt.Errorf("proc: sysctl kern.proc.pid.%d: %w", pid, err)
	}
	tv := kp.Proc.P_starttime
	return time.Unix(int64(tv.Sec), int64(tv.Usec)*1000), nil
}
