//go:build !unix

package exec

import (
	"fmt"
	"io"

	"github.com/hookside/hookside/internal/proc"
)

// EnableJanitor does nothing here: on Windows every hook runs in a Job
// Object that dies with hookside (kill-on-close), so no janitor is needed.
func EnableJanitor(argv []string) error { return nil }

// CloseJanitor does nothing without a janitor.
func CloseJanitor() error { return nil }

// RunJanitor is unavailable here and returns an ErrUnsupported error.
func RunJanitor(r io.Reader) error {
	return fmt.Errorf("%w: janitor process", proc.ErrUnsupported)
}
