//go:build !unix && !windows

package exec

import (
	"context"
	"errors"
)

// Run refuses to start hooks on this platform (hookside's process-group
// handling is Unix-only): it starts nothing and reports StartErr.
func Run(ctx context.Context, spec Spec) Result {
	return Result{ExitCode: -1, StartErr: errors.New("exec: starting hook processes is only supported on Unix")}
}
