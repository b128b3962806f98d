package proc

import (
	"errors"
	"os"
)

// errDeadline is wrapped by the errors of waits that ran out of time, so
// errors.Is(err, os.ErrDeadlineExceeded) holds for them.
var errDeadline = os.ErrDeadlineExceeded

// ErrUnsupported is wrapped by the errors of functions that have no
// implementation on this operating system.
var ErrUnsupported = errors.ErrUnsupported
