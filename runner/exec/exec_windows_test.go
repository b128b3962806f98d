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
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/windows"

	"github.com/hookside/hookside/internal/hook"
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
		gc, err := startSleeper()
		if err != nil {
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
	case "pid":
		fmt.Println("pid", os.Getpid())
		time.Sleep(time.Hour)
	case "hookside":
		// A hookside running one "tree-ready" hook through Run, until it
		// is killed.
		exe, _ := os.Executable()
		res := Run(context.Background(), Spec{Argv: []string{exe}, Env: append(os.Environ(), execHelperVar+"=tree-ready")})
		fmt.Fprintf(os.Stderr, "hook ended before hookside was killed: %+v\n", res)
		return 2
	case "tree-ready":
		// Starts a grandchild holding stdout, writes both pids to
		// $HOOK_PIDS, sets the event named $HOOK_READY, and blocks.
		gc, err := startSleeper()
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		if err := os.WriteFile(os.Getenv("HOOK_PIDS"), fmt.Appendf(nil, "%d %d", os.Getpid(), gc.Process.Pid), 0o600); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		name, _ := windows.UTF16PtrFromString(os.Getenv("HOOK_READY"))
		ev, err := windows.OpenEvent(windows.EVENT_MODIFY_STATE, false, name)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		_ = windows.SetEvent(ev)
		time.Sleep(time.Hour)
	case "token":
		fmt.Print(os.Getenv(proc.TokenVar))
	case "breakaway":
		// Starts a grandchild asking to leave the job; prints whether
		// that was refused, or the grandchild's pid, and exits (the
		// grandchild, if any, sleeps on).
		exe, _ := os.Executable()
		gc := osexec.Command(exe)
		gc.Env = append(os.Environ(), execHelperVar+"=sleep")
		gc.SysProcAttr = &syscall.SysProcAttr{CreationFlags: windows.CREATE_BREAKAWAY_FROM_JOB}
		if err := gc.Start(); err != nil {
			fmt.Println("refused:", err)
			return 0
		}
		fmt.Println("started", gc.Process.Pid)
	}
	return 0
}

// startSleeper starts a grandchild that sleeps with this helper's stdout.
func startSleeper() (*osexec.Cmd, error) {
	exe, _ := os.Executable()
	gc := osexec.Command(exe)
	gc.Env = append(os.Environ(), execHelperVar+"=sleep")
	gc.Stdout = os.Stdout
	return gc, gc.Start()
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

// TestRunWindowsHookEnvironmentCarriesFreshRunToken: every run gets its
// own token, also replacing one inherited from the environment, as on
// Unix.
func TestRunWindowsHookEnvironmentCarriesFreshRunToken(t *testing.T) {
	spec := helperSpec(t, "token")
	spec.Env = append(spec.Env, proc.TokenVar+"=inherited")
	a := Run(context.Background(), spec)
	b := Run(context.Background(), spec)
	if len(a.Stdout) != 32 || bytes.Equal(a.Stdout, b.Stdout) {
		t.Fatalf("tokens %q and %q: want two different 32-digit tokens (%v, %v)", a.Stdout, b.Stdout, a.StartErr, b.StartErr)
	}
}

// TestRunWindowsBreakawayIsRefused: a hook's child asking for
// CREATE_BREAKAWAY_FROM_JOB is refused (the job has no
// JOB_OBJECT_LIMIT_BREAKAWAY_OK); were it started, it would have to be
// gone when Run returns.
func TestRunWindowsBreakawayIsRefused(t *testing.T) {
	res := Run(context.Background(), helperSpec(t, "breakaway"))
	if res.StartErr != nil || res.ExitCode != 0 {
		t.Fatalf("%+v", res)
	}
	out := strings.TrimSpace(string(res.Stdout))
	var pid int
	if _, err := fmt.Sscanf(out, "started %d", &pid); err == nil {
		if proc.Alive(pid) {
			t.Errorf("grandchild %d left the job and outlived its hook", pid)
			_ = windowsKill(pid)
		}
		t.Fatalf("breakaway was not refused: %q", out)
	}
	if !strings.HasPrefix(out, "refused:") {
		t.Fatalf("stdout %q", out)
	}
	t.Log(out)
}

func windowsKill(pid int) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	return p.Kill()
}

// cmdSpec is the Spec of a `shell: "cmd"` command hook, built as the
// runner builds it (hook.Shell.WindowsArgv with %ComSpec%).
func cmdSpec(t *testing.T, command string) Spec {
	t.Helper()
	wc, err := hook.ShellProgram("cmd").WindowsArgv(command, "", os.Getenv("ComSpec"))
	if err != nil {
		t.Fatal(err)
	}
	if wc.CmdLine == "" {
		t.Fatalf("no raw command line for cmd: %+v", wc)
	}
	return Spec{Argv: wc.Argv, CmdLine: wc.CmdLine, Env: append(os.Environ(), "HOOK_VAR=v 1&2"), Timeout: time.Minute}
}

// TestRunWindowsCmdHook runs real cmd.exe hooks (Wine ships one) with the
// raw command line `"cmd.exe" /d /s /c "<command>"`: the command's
// quotes, operators and %VAR% reach cmd.exe as written, its output and
// exit status come back.
func TestRunWindowsCmdHook(t *testing.T) {
	if os.Getenv("ComSpec") == "" {
		t.Skip("no %ComSpec%: no cmd.exe on this Windows")
	}
	tests := []struct {
		name, command, stdout string
		exit                  int
	}{
		{"decision_json_and_exit_code", `echo {"decision":"block","reason":"no & never"}& exit /b 2`, `{"decision":"block","reason":"no & never"}`, 2},
		{"quotes_kept", `echo "a b" "c"`, `"a b" "c"`, 0},
		{"variable_with_metacharacters_in_quotes", `echo "%HOOK_VAR%"`, `"v 1&2"`, 0},
		{"and", `ver >nul && echo yes`, `yes`, 0},
		{"or", `cd C:\no\such\dir 2>nul || exit /b 5`, ``, 5},
		{"redirect_into_a_quoted_path", `echo redirected> "%HOOK_DIR%\out file.txt"& type "%HOOK_DIR%\out file.txt"`, `redirected`, 0},
		{"exit_code_is_32_bit", `exit /b -1073741819`, ``, 0xC0000005},
		{"run_token", `echo %HOOKSIDE_RUN_TOKEN%`, ``, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			spec := cmdSpec(t, tc.command)
			spec.Env = append(spec.Env, "HOOK_DIR="+t.TempDir())
			res := Run(context.Background(), spec)
			if res.StartErr != nil || res.TimedOut {
				t.Fatalf("%+v", res)
			}
			got := strings.TrimRight(string(res.Stdout), "\r\n ")
			if tc.name == "run_token" {
				if len(got) != 32 || strings.Contains(got, "%") {
					t.Fatalf("token %q", got)
				}
			} else if got != tc.stdout {
				t.Errorf("stdout %q, want %q (stderr %q)", got, tc.stdout, res.Stderr)
			}
			if res.ExitCode != tc.exit {
				t.Errorf("exit code %d, want %d", res.ExitCode, tc.exit)
			}
		})
	}
	// The same command quoted by Go's CommandLineToArgvW rules instead:
	// cmd.exe keeps the backslashes, which is why CmdLine exists.
	spec := cmdSpec(t, `echo "a b"`)
	spec.CmdLine = ""
	res := Run(context.Background(), spec)
	if got := strings.TrimSpace(string(res.Stdout)); got == `"a b"` {
		t.Errorf("Go's argv quoting reached cmd.exe intact (%q): the raw command line would not be needed", got)
	} else {
		t.Logf("with Go's quoting cmd.exe printed %q", got)
	}
}

// TestRunWindowsCmdHookEndsByDeadline: a cmd.exe hook that never ends is
// terminated with its tree at the deadline.
func TestRunWindowsCmdHookEndsByDeadline(t *testing.T) {
	if os.Getenv("ComSpec") == "" {
		t.Skip("no %ComSpec%: no cmd.exe on this Windows")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	spec := cmdSpec(t, `echo started& "`+exe+`"`)
	spec.Env = append(spec.Env, execHelperVar+"=pid")
	spec.Timeout, spec.KillGrace = winTimeout, winGrace
	res := Run(context.Background(), spec)
	if !res.TimedOut || res.ExitCode != -1 {
		t.Fatalf("%+v", res)
	}
	if bound := winTimeout + winGrace + PipeDrainTimeout + winSlack; res.Duration > bound {
		t.Errorf("took %v, bound %v", res.Duration, bound)
	}
	var child int
	if _, err := fmt.Sscanf(string(res.Stdout), "started\r\npid %d", &child); err != nil {
		t.Fatalf("stdout %q: %v", res.Stdout, err)
	}
	for _, pid := range []int{res.PID, child} {
		if proc.Alive(pid) {
			t.Errorf("process %d of the cmd.exe hook's tree still running", pid)
		}
	}
}

// TestRunWindowsHooksideKilledLeavesNoHookProcess: a hookside running a
// hook through Run (the hook and a grandchild holding its stdout) is
// killed with TerminateProcess, the Windows kill -9: no cleanup of its
// own runs, and the job's kill-on-close ends the whole tree.
func TestRunWindowsHooksideKilledLeavesNoHookProcess(t *testing.T) {
	dir := t.TempDir()
	pidsFile := dir + `\pids`
	evName := "hookside-test-ready-" + strconv.Itoa(os.Getpid())
	name, _ := windows.UTF16PtrFromString(evName)
	ready, err := windows.CreateEvent(nil, 1, 0, name)
	if err != nil {
		t.Fatal(err)
	}
	defer windows.CloseHandle(ready)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	hs := osexec.Command(exe)
	hs.Env = append(os.Environ(), execHelperVar+"=hookside", "HOOK_PIDS="+pidsFile, "HOOK_READY="+evName)
	hs.Stderr = os.Stderr
	if err := hs.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = hs.Process.Kill(); _ = hs.Wait() }()
	if ev, err := windows.WaitForSingleObject(ready, uint32(time.Minute.Milliseconds())); err != nil || ev != windows.WAIT_OBJECT_0 {
		t.Fatalf("the hook did not get ready: %v", err)
	}
	b, err := os.ReadFile(pidsFile)
	if err != nil {
		t.Fatal(err)
	}
	var pids [2]uint32
	if _, err := fmt.Sscanf(string(b), "%d %d", &pids[0], &pids[1]); err != nil {
		t.Fatalf("pids %q: %v", b, err)
	}
	var handles []windows.Handle
	for _, pid := range pids {
		h, err := windows.OpenProcess(windows.SYNCHRONIZE|windows.PROCESS_QUERY_LIMITED_INFORMATION, false, pid)
		if err != nil {
			t.Fatalf("open hook process %d: %v", pid, err)
		}
		defer windows.CloseHandle(h)
		handles = append(handles, h)
	}
	if err := hs.Process.Kill(); err != nil { // TerminateProcess
		t.Fatal(err)
	}
	_ = hs.Wait()
	for i, h := range handles {
		if ev, err := windows.WaitForSingleObject(h, uint32(winSlack.Milliseconds())); err != nil || ev != windows.WAIT_OBJECT_0 {
			t.Errorf("hook process %d (%s) still running %v after hookside was killed (%v)", pids[i], []string{"leader", "grandchild"}[i], winSlack, err)
		}
	}
}
