//go:build unix

package exec

import (
	"bytes"
	"context"
	osexec "os/exec"
	"testing"
	"time"
)

// The two benchmarks below sit side by side so one run gives the overhead
// of Run over a bare fork/exec (the performance floor: < 20%):
//
//	go test -run x -bench Exec -benchtime 300x ./runner/exec/

var execBenchStdin = []byte(`{"hookEventName":"PreToolUse","sessionId":"s1","toolName":"Bash","toolInput":{"command":"ls -la"}}` + "\n")

func BenchmarkExecTrue(b *testing.B) {
	defer asAppServer()()
	ctx := context.Background()
	spec := Spec{Argv: []string{"/bin/true"}, Stdin: execBenchStdin, Timeout: 10 * time.Second}
	b.ReportAllocs()
	for b.Loop() {
		res := Run(ctx, spec)
		if res.ExitCode != 0 {
			b.Fatalf("ExitCode=%d StartErr=%v", res.ExitCode, res.StartErr)
		}
	}
}

// BenchmarkExecTrueSweeping is BenchmarkExecTrue in a process that is not
// the subreaper of its hooks (as macOS always is): each hook ends with a
// sweep of the process list for its run token.
func BenchmarkExecTrueSweeping(b *testing.B) {
	ctx := context.Background()
	spec := Spec{Argv: []string{"/bin/true"}, Stdin: execBenchStdin, Timeout: 10 * time.Second}
	b.ReportAllocs()
	for b.Loop() {
		if res := Run(ctx, spec); res.ExitCode != 0 {
			b.Fatalf("ExitCode=%d StartErr=%v", res.ExitCode, res.StartErr)
		}
	}
}

func BenchmarkBareForkExec(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		cmd := osexec.Command("/bin/true")
		cmd.Stdin = bytes.NewReader(execBenchStdin)
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
	}
}
