//go:build unix

package runner

import (
	"bytes"
	"context"
	"os/exec"
	"testing"
	"time"
)

// The two benchmarks below sit side by side so one run gives the overhead
// of Exec over a bare fork/exec (the performance floor: < 20%):
//
//	go test -run x -bench Exec -benchtime 300x ./runner/

var execBenchStdin = []byte(`{"hookEventName":"PreToolUse","sessionId":"s1","toolName":"Bash","toolInput":{"command":"ls -la"}}` + "\n")

func BenchmarkExecTrue(b *testing.B) {
	ctx := context.Background()
	spec := ExecSpec{Argv: []string{"/bin/true"}, Stdin: execBenchStdin, Timeout: 10 * time.Second}
	b.ReportAllocs()
	for b.Loop() {
		res := Exec(ctx, spec)
		if res.ExitCode != 0 {
			b.Fatalf("ExitCode=%d StartErr=%v", res.ExitCode, res.StartErr)
		}
	}
}

func BenchmarkBareForkExec(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		cmd := exec.Command("/bin/true")
		cmd.Stdin = bytes.NewReader(execBenchStdin)
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
	}
}
