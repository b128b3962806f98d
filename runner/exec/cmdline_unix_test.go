//go:build unix

package exec

import (
	"context"
	"errors"
	"testing"
)

// TestExecCmdLineRefusedOffWindows: a raw command line exists on Windows
// only; elsewhere the Spec is refused before anything starts.
func TestExecCmdLineRefusedOffWindows(t *testing.T) {
	res := Run(context.Background(), Spec{Argv: []string{"/bin/true"}, CmdLine: `"cmd.exe" /d /s /c "echo x"`})
	if !errors.Is(res.StartErr, ErrCmdLine) || res.PID != 0 || res.ExitCode != -1 {
		t.Fatalf("StartErr=%v PID=%d ExitCode=%d; want ErrCmdLine and nothing started", res.StartErr, res.PID, res.ExitCode)
	}
}
