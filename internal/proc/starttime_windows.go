package proc

import (
	"errors"
	"fmt"
	"time"

	"golang.org/x/sys/windows"
)

// ProcStartTime returns when process pid was created (GetProcessTimes), to
// 100 ns. With the pid it names one process across pid reuse. Errors wrap
// ErrNoProcess for a pid that names no process.
func ProcStartTime(pid int) (time.Time, error) {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if errors.Is(err, windows.ERROR_INVALID_PARAMETER) {
		return time.Time{}, fmt.Errorf("%w: pid %d", ErrNoProcess, pid)
	}
	if err != nil {
		return time.Time{}, fmt.Errorf("proc: open process %d: %w", pid, err)
	}
	defer windows.CloseHandle(h)
	var created, exited, kernel, user windows.Filetime
	if err := windows.GetProcessTimes(h, &created, &exited, &kernel, &user); err != nil {
		return time.Time{}, fmt.Errorf("proc: GetProcessTimes(%d): %w", pid, err)
	}
	return time.Unix(0, created.Nanoseconds()), nil
}
