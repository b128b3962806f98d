package exec

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	osexec "os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hookside/hookside/internal/proc"
)

// The Windows tests start this test binary as the hook (there is no sh):
// with execHelperVar set it runs the helper named there instead.
const execHelperVar = "HOOKSIDE_EXEC_HELPER"

const (
	winTimeout = 4 * time.Second // long enough for a helper to start under a loaded Wine
	winGrace   = 200 * time.Millisecond
	winSlack   = 10 * time.Second
)

func TestMain(m *testing.M) {
	if mode := os.Getenv(execHelperVar); mode != "" {
		os.Exit(execHelper(mode, os.Args[1:]))
	}
	os.Exit(m.Run())
}

func execHelper(mode string, args []string) int {
	switch mode {
	case "sleep":
		time.Sleep(time.Hour)
	case "tree":
		// Starts a grandchild holding stdout, prints both pids, exits.
		exe, _ := os.Executable()
		gc := osexec.Command(exe)
		gc.Env = append(os.Environ(), execHelperVar+"=sleep")
		gc.Stdout = os.Stdout
		if err := gc.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		fmt.Printf("%d %d\n", os.Getpid(), gc.Process.Pid)
	case "ignore":
		fmt.Println("ignoring")
		time.Sleep(time.Hour)
	case "echo":
		_, _ = io.Copy(os.Stdout, os.Stdin)
		fmt.Fprint(os.Stderr, os.Getenv("HOOK_VAR"))
	case "exit":
		code, _ := strconv.ParseUint(args[0], 0, 32)
		os.Exit(int(code))
	}
	return 0
}

// helperSpec is a Spec running helper mode with args.
func helperSpec(t *testing.T, mode string, args ...string) Spec {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return Spec{
		Argv:    append([]string{exe}, args...),
		Env:     append(os.Environ(), execHelperVar+"="+mode),
		Timeout: time.Minute,
	}
}

func TestRunWindowsGrandchildHoldingStdoutDoesNotDelayResult(t *testing.T) {
	res := Run(context.Background(), helperSpec(t, "tree"))
	if res.StartErr != nil || res.ExitCode != 0 || res.TimedOut {
		t.Fatalf("%+v", res)
	}
	var leader, gc int
	if _, err := fmt.Sscanf(string(res.Stdout), "%d %d", &leader, &gc); err != nil {
		t.Fatalf("stdout %q: %v", res.Stdout, err)
	}
	if proc.Alive(gc) {
		t.Errorf("grandchild %d outlived its hook", gc)
	}
	if res.Duration > winSlack {
		t.Errorf("took %v", res.Duration)
	}
}

func TestRunWindowsIgnoringHookEndsByDeadline(t *testing.T) {
	spec := helperSpec(t, "ignore")
	spec.Timeout, spec.KillGrace = winTimeout, winGrace
	res := Run(context.Background(), spec)
	if !res.TimedOut || res.ExitCode != -1 || res.StartErr != nil {
		t.Fatalf("%+v", res)
	}
	if bound := winTimeout + winGrace + PipeDrainTimeout + winSlack; res.Duration > bound {
		t.Errorf("took %v, bound %v", res.Duration, bound)
	}
	if strings.TrimSpace(string(res.Stdout)) != "ignoring" {
		t.Errorf("stdout %q", res.Stdout)
	}
	if proc.Alive(res.PID) {
		t.Errorf("hook %d still running", res.PID)
	}
}

func TestRunWindowsContextCancellationEndsTree(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(winTimeout, cancel)
	res := Run(ctx, helperSpec(t, "ignore"))
	if !res.Canceled || res.TimedOut || res.ExitCode != -1 {
		t.Fatalf("%+v", res)
	}
	if proc.Alive(res.PID) {
		t.Errorf("hook %d still running", res.PID)
	}
}

func TestRunWindowsExitCodeIs32Bit(t *testing.T) {
	const code = 0xC0000005 // STATUS_ACCESS_VIOLATION
	res := Run(context.Background(), helperSpec(t, "exit", fmt.Sprint(uint32(code))))
	if res.ExitCode != code {
		t.Fatalf("exit code %d, want %d (%+v)", res.ExitCode, code, res)
	}
}

func TestRunWindowsStdinEnvAndCap(t *testing.T) {
	spec := helperSpec(t, "echo")
	spec.Env = append(spec.Env, "HOOK_VAR=v1")
	in := []byte(`{"hook_event_name":"Stop"}` + "\n")
	spec.Stdin = in
	res := Run(context.Background(), spec)
	if !bytes.Equal(res.Stdout, in) || string(res.Stderr) != "v1" || res.ExitCode != 0 {
		t.Fatalf("%+v", res)
	}
	big := bytes.Repeat([]byte("x"), 200<<10) // past the pipe buffer
	spec.Stdin, spec.MaxOutputBytes = big, 1000
	res = Run(context.Background(), spec)
	if len(res.Stdout) != 1000 || !res.StdoutTruncated || res.ExitCode != 0 {
		t.Fatalf("capped run: %d bytes, truncated %v, %+v", len(res.Stdout), res.StdoutTruncated, res.StartErr)
	}
}

func TestRunWindowsMissingExecutable(t *testing.T) {
	res := Run(context.Background(), Spec{Argv: []string{`C:\no\such\hook.exe`}})
	if res.StartErr == nil || !errors.Is(res.StartErr, os.ErrNotExist) || res.PID != 0 {
		t.Fatalf("%+v", res)
	}
	res = Run(context.Background(), Spec{Argv: []string{"no-such-hook-xyz"}})
	if !errors.Is(res.StartErr, osexec.ErrNotFound) {
		t.Fatalf("%+v", res)
	}
}
