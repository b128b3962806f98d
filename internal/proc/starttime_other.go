//go:build !linux && !darwin && !freebsd && !windows

package proc

import (
	"fmt"
	"time"
)

// ProcStartTime is unavailable here and returns an ErrUnsupported error.
func ProcStartTime(pid int) (time.Time, error) {
	return time.Time{}, fmt.Errorf("%w: process start time", ErrUnsupported)
}
