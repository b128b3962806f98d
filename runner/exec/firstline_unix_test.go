//go:build unix

package exec

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// execFirstLineRuns are the implementations Run chooses between here.
func execFirstLineRuns() map[string]func(context.Context, Spec) Result {
	runs := map[string]func(context.Context, Spec) Result{"Run": Run}
	if runtime.GOOS == "linux" {
		runs["runPortable"] = runPortable
	}
	return runs
}

// TestExecOnFirstLineWhileRunning: the first non-blank stdout line reaches
// OnFirstLine while the hook is still blocked (it waits on a FIFO the test
// opens only after the line arrived), and the whole stdout is still in
// the Result.
func TestExecOnFirstLineWhileRunning(t *testing.T) {
	for name, run := range execFirstLineRuns() {
		t.Run(name, func(t *testing.T) {
			fifo := filepath.Join(t.TempDir(), "go")
			if err := syscall.Mkfifo(fifo, 0o600); err != nil {
				t.Skipf("no FIFO on this system: %v", err)
			}
			lines := make(chan string, 2)
			script := `printf '\n  \n {"async":true} \n'; read x < "$1"; echo second`
			done := make(chan Result, 1)
			go func() {
				done <- run(context.Background(), Spec{
					Argv: []string{"/bin/sh", "-c", script, "sh", fifo}, Timeout: 30 * time.Second,
					OnFirstLine: func(b []byte) { lines <- string(b) },
				})
			}()
			select {
			case l := <-lines:
				if l != `{"async":true}` {
					t.Fatalf("first line %q", l)
				}
			case res := <-done:
				t.Fatalf("hook ended before its first line was reported: %+v", res)
			}
			f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			_, _ = f.WriteString("go\n")
			_ = f.Close()
			res := <-done
			if res.ExitCode != 0 || !strings.HasSuffix(string(res.Stdout), "\nsecond\n") {
				t.Fatalf("result %+v stdout %q", res, res.Stdout)
			}
			if len(lines) != 0 {
				t.Fatalf("OnFirstLine called again: %q", <-lines)
			}
		})
	}
}

// TestExecOnFirstLineNotCalledWithoutALine: output without a newline, or
// a first line longer than the cap, never reaches OnFirstLine.
func TestExecOnFirstLineNotCalledWithoutALine(t *testing.T) {
	for name, run := range execFirstLineRuns() {
		t.Run(name, func(t *testing.T) {
			for _, script := range []string{`printf '{"async":true}'`, `printf '%0100d\nshort\n' 0`, `printf '\n \n'`} {
				called := false
				res := run(context.Background(), Spec{Argv: []string{"/bin/sh", "-c", script}, MaxOutputBytes: 64,
					OnFirstLine: func([]byte) { called = true }})
				if res.ExitCode != 0 || called {
					t.Fatalf("%s: exit %d, OnFirstLine called %v", script, res.ExitCode, called)
				}
			}
		})
	}
}
