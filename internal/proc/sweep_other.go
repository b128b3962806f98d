//go:build !linux && !darwin && !freebsd

package proc

import (
	"fmt"
	"time"
)

// Sweep is unavailable here and returns an ErrUnsupported error. On
// Windows no sweep is needed: a hook's Job Object holds every process it
// starts (see Job).
func Sweep(token string) ([]int, error) {
	return nil, fmt.Errorf("%w: process sweep by run token", ErrUnsupported)
}

// SweepSince is unavailable here, as Sweep.
func SweepSince(token string, started time.Time) ([]int, error) { return Sweep(token) }
