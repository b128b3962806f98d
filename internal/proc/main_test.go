package proc

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The test binary is also every helper program the tests start (there is
// no sh on Windows): with helperVar set it runs that helper instead of the
// tests. Helpers block with sleeps of an hour, so only a kill ends them.
const helperVar = "HOOKSIDE_PROC_HELPER"

func TestMain(m *testing.M) {
	if mode := os.Getenv(helperVar); mode != "" {
		os.Exit(runHelper(mode, os.Args[1:]))
	}
	os.Exit(m.Run())
}

// helperCmd returns a command running this test binary as helper mode.
func helperCmd(mode string, args ...string) *exec.Cmd {
	exe, err := os.Executable()
	if err != nil {
		panic(err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), helperVar+"="+mode)
	return cmd
}

func runHelper(mode string, args []string) int {
	switch mode {
	case "sleep":
		time.Sleep(time.Hour)
	case "ignore":
		// Every catchable signal (on Windows: CTRL_C and CTRL_BREAK).
		signal.Ignore()
		fmt.Println("ignoring")
		time.Sleep(time.Hour)
	case "tree":
		// A hook that starts a background grandchild holding its stdout,
		// prints both pids, then exits ("exit") or blocks.
		gc := helperCmd("sleep")
		gc.Stdout = os.Stdout
		if err := gc.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		fmt.Printf("pids %d %d\n", os.Getpid(), gc.Process.Pid)
		if len(args) > 0 && args[0] == "exit" {
			return 0
		}
		time.Sleep(time.Hour)
	case "exit":
		// Exits with the status in args[0] (on Windows a full 32-bit code).
		code, err := strconv.ParseUint(args[0], 0, 32)
		if err != nil {
			return 2
		}
		os.Exit(int(code))
	default:
		if run, ok := osHelpers[mode]; ok {
			return run(args)
		}
		fmt.Fprintf(os.Stderr, "unknown helper mode %q\n", mode)
		return 2
	}
	return 0
}

// startPrinting starts cmd and parses the first line of its stdout as
// space-separated fields.
func startPrinting(t *testing.T, cmd *exec.Cmd) []string {
	t.Helper()
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		t.Fatalf("helper: %v", err)
	}
	go func() { _, _ = io.Copy(io.Discard, out) }()
	return strings.Fields(line)
}
