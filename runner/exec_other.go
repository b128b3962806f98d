//go:build !unix

package runner

import (
	"context"
	"errors"
)

// Exec refuses to start hooks on this platform (hookside's process-group
// handling is Unix-only): it starts nothing and reports StartErr.
func Exec(ctx context.Context, spec ExecSpec) ExecResult {
	return ExecResult{ExitCode: -1, StartErr: errors.New("runner: starting hook processes is only supported on Unix")}
}
