//go:build !linux && !darwin && !freebsd

package proc

import "fmt"

// Sweep is unavailable here and returns an ErrUnsupported error. On
// Windows no sweep is needed: a hook's Job Object holds every process it
// starts (see Job).
func Sweep(token string) ([]int, error) {
	return nil, fmt.Errorf("%w: process sweep by run token", ErrUnsupported)
}
