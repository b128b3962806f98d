//go:build unix

package proc

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// Janitor is hookside's side of its janitor: one small process per
// hookside, started in its own session, that holds the read end of a pipe
// from hookside and is told the process group (and run token) of every
// running hook. When the pipe closes — hookside exited, crashed or was
// SIGKILLed — the janitor SIGKILLs every group still recorded and sweeps
// their run tokens (Sweep), then exits. It stands in for Linux's Pdeathsig
// and subreaper where the kernel has neither (macOS), at the cost of one
// process per hookside, not one per hook. A Janitor is safe for
// concurrent use.
//
// The janitor process is the running binary re-executed (JanitorCmd), or
// any command whose main calls RunJanitor(os.Stdin).
type Janitor struct {
	mu  sync.Mutex
	w   *os.File // write end of the pipe; nil once closed
	cmd *exec.Cmd
}

// JanitorArg0 is the argv[0] that makes any binary linking this package run
// as a janitor instead of its main: this package's init then runs
// RunJanitor on stdin and exits. JanitorCmd re-executes the running binary
// with it, so starting a janitor needs nothing of the binary's command
// line (hookside, a test binary, an embedder's program). It is also the
// name ps shows.
const JanitorArg0 = "hookside-janitor"

func init() {
	if len(os.Args) == 0 || os.Args[0] != JanitorArg0 {
		return
	}
	if err := RunJanitor(os.Stdin); err != nil {
		fmt.Fprintln(os.Stderr, JanitorArg0+":", err)
		os.Exit(1)
	}
	os.Exit(0)
}

// JanitorCmd returns the command that runs this very binary as the janitor
// (argv[0] JanitorArg0; on Linux through /proc/self/exe, so a binary
// replaced or removed since it started still works), for StartJanitor. It
// gets an empty environment and "/" as its working directory: it holds no
// workspace directory and carries none of hookside's variables. Errors:
// the running binary cannot be found (os.Executable).
func JanitorCmd() (*exec.Cmd, error) {
	exe := "/proc/self/exe"
	if runtime.GOOS != "linux" {
		var err error
		if exe, err = os.Executable(); err != nil {
			return nil, fmt.Errorf("proc: janitor: find the running binary: %w", err)
		}
	}
	return &exec.Cmd{Path: exe, Args: []string{JanitorArg0}, Env: []string{}, Dir: "/"}, nil
}

// ErrJanitorClosed is returned by Track and Untrack after Close.
var ErrJanitorClosed = errors.New("proc: janitor closed")

// StartJanitor starts cmd, which must run RunJanitor on its stdin, as the
// janitor: in a new session (so signals to hookside's process group or
// terminal do not reach it) with a pipe from this process on its stdin.
// cmd's Stdin and SysProcAttr are set here; leave Stdout nil (never the
// host's protocol stream). The pipe's write end is close-on-exec, so no
// hook inherits it and only this process's exit closes it.
func StartJanitor(cmd *exec.Cmd) (*Janitor, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("proc: janitor pipe: %w", err)
	}
	cmd.Stdin = r
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	err = cmd.Start()
	r.Close()
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("proc: start janitor: %w", err)
	}
	return &Janitor{w: w, cmd: cmd}, nil
}

// Track records a running hook's process group pgid (> 1) and its run
// token ("" for none). Call it right after the hook started, before
// waiting for it. An error means the janitor is gone (hookside may start a
// new one) or the arguments are invalid.
func (j *Janitor) Track(pgid int, token string) error {
	if pgid <= 1 {
		return fmt.Errorf("proc: janitor: invalid process group %d", pgid)
	}
	if strings.ContainsAny(token, " \n\x00=") {
		return fmt.Errorf("%w: %q", ErrBadToken, token)
	}
	line := "+" + strconv.Itoa(pgid)
	if token != "" {
		line += " " + token
	}
	return j.send(line + "\n")
}

// Untrack forgets pgid. Call it after the hook's group was killed and
// before its leader is reaped, while the group id cannot have been reused.
func (j *Janitor) Untrack(pgid int) error {
	return j.send("-" + strconv.Itoa(pgid) + "\n")
}

func (j *Janitor) send(line string) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.w == nil {
		return ErrJanitorClosed
	}
	if _, err := io.WriteString(j.w, line); err != nil {
		return fmt.Errorf("proc: janitor: %w", err)
	}
	return nil
}

// Close closes the pipe, which makes the janitor kill whatever is still
// tracked and exit, and waits for it. The error is the janitor's exit.
func (j *Janitor) Close() error {
	j.mu.Lock()
	w := j.w
	j.w = nil
	j.mu.Unlock()
	if w == nil {
		return nil
	}
	w.Close()
	return j.cmd.Wait()
}

// Pid returns the janitor process's pid.
func (j *Janitor) Pid() int { return j.cmd.Process.Pid }

// RunJanitor is the janitor's main loop: it reads hookside's lines from r
// ("+<pgid> [<token>]" records a group, "-<pgid>" forgets it) until EOF or
// a read error, then SIGKILLs every recorded group, sweeps their tokens,
// and returns nil. Malformed lines are logged and skipped: the janitor
// never stops early. It ignores SIGHUP, SIGINT and SIGQUIT (terminal
// signals); SIGKILL and SIGTERM still end it.
func RunJanitor(r io.Reader) error {
	signal.Ignore(syscall.SIGHUP, syscall.SIGINT, syscall.SIGQUIT)
	return janitorLoop(r)
}

// janitorLoop is RunJanitor without the signal dispositions.
func janitorLoop(r io.Reader) error {
	groups := map[int]string{}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		if err := janitorApply(groups, line); err != nil {
			slog.Warn("janitor: skipped line", "line", line, "err", err)
		}
	}
	for pgid, token := range groups {
		_ = unix.Kill(-pgid, unix.SIGKILL)
		if token != "" {
			if _, err := Sweep(token); err != nil {
				slog.Warn("janitor: sweep", "pgid", pgid, "err", err)
			}
		}
	}
	return nil
}

// janitorApply applies one protocol line to groups.
func janitorApply(groups map[int]string, line string) error {
	if line == "" {
		return errors.New("empty line")
	}
	op, rest := line[0], line[1:]
	if op != '+' && op != '-' {
		return fmt.Errorf("unknown operation %q", op)
	}
	id, token, _ := strings.Cut(rest, " ")
	pgid, err := strconv.Atoi(id)
	if err != nil || pgid <= 1 {
		return fmt.Errorf("bad process group %q", id)
	}
	switch op {
	case '+':
		groups[pgid] = token
	case '-':
		delete(groups, pgid)
	}
	return nil
}
