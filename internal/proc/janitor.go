//go:build unix

package proc

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// Janitor is hookside's side of its janitor: one small process per
// hookside, started in its own session, that holds the read end of a pipe
// from hookside and shares a table with it (janitor_table.go) where
// hookside records the process group (and run token) of every running
// hook. When the pipe closes — hookside exited, crashed or was SIGKILLed —
// the janitor reads the table, SIGKILLs every group still recorded and
// sweeps their run tokens (Sweep), then exits. It stands in for Linux's
// Pdeathsig and subreaper where the kernel has neither (macOS), at the
// cost of one process per hookside, not one per hook; recording a hook is
// a pwrite(2) that wakes no process. A Janitor is safe for concurrent use.
//
// The janitor process is the running binary re-executed (JanitorCmd), or
// any command whose main calls RunJanitor(os.Stdin) with the table as its
// file descriptor 3 (StartJanitor passes it there).
type Janitor struct {
	mu  sync.Mutex
	w   *os.File // write end of the pipe; nil once closed
	t   *table
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

// ErrJanitorGone is returned by Track when the janitor process has exited
// (someone killed it): nothing would kill the hook's group if hookside
// died, so the caller drops this Janitor and starts another.
var ErrJanitorGone = errors.New("proc: janitor: the janitor process has exited")

// StartJanitor starts cmd, which must run RunJanitor on its stdin, as the
// janitor: in a new session (so signals to hookside's process group or
// terminal do not reach it) with a pipe from this process on its stdin and
// the janitor table as its descriptor 3. cmd's Stdin, ExtraFiles and
// SysProcAttr are set here; leave Stdout nil (never the host's protocol
// stream). The pipe's write end and this process's table descriptor are
// close-on-exec, so no hook inherits them and only this process's exit
// closes the pipe.
func StartJanitor(cmd *exec.Cmd) (*Janitor, error) {
	t, err := newTable()
	if err != nil {
		return nil, err
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.f.Close()
		return nil, fmt.Errorf("proc: janitor pipe: %w", err)
	}
	cmd.Stdin = r
	cmd.ExtraFiles = []*os.File{t.f}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	err = cmd.Start()
	r.Close()
	if err != nil {
		w.Close()
		t.f.Close()
		return nil, fmt.Errorf("proc: start janitor: %w", err)
	}
	return &Janitor{w: w, t: t, cmd: cmd}, nil
}

// Track records a running hook's process group pgid (> 1) and its run
// token ("" for none; at most 59 bytes, no blank, '=' or NUL). Call it
// right after the hook started, before waiting for it. It costs a poll(2)
// of the pipe and a pwrite(2) of the table. Errors: ErrJanitorGone (the
// janitor exited; hookside may start a new one), ErrJanitorClosed,
// ErrBadToken, an invalid pgid, or the table write failed.
func (j *Janitor) Track(pgid int, token string) error {
	if pgid <= 1 {
		return fmt.Errorf("proc: janitor: invalid process group %d", pgid)
	}
	if strings.ContainsAny(token, " \n\x00=") || len(token) > tableTokenMax {
		return fmt.Errorf("%w: %q", ErrBadToken, token)
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.w == nil {
		return ErrJanitorClosed
	}
	if gone(j.w) {
		return ErrJanitorGone
	}
	if err := j.t.track(pgid, token); err != nil {
		return fmt.Errorf("proc: janitor: record group %d: %w", pgid, err)
	}
	return nil
}

// Untrack forgets pgid (one pwrite(2)). Call it after the hook's group was
// killed and before its leader is reaped, while the group id cannot have
// been reused.
func (j *Janitor) Untrack(pgid int) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.w == nil {
		return ErrJanitorClosed
	}
	if err := j.t.untrack(pgid); err != nil {
		return fmt.Errorf("proc: janitor: forget group %d: %w", pgid, err)
	}
	return nil
}

// gone reports whether the pipe's read end is closed (the janitor exited):
// poll(2) reports POLLERR (Linux) or POLLHUP (BSDs, macOS) on the write end
// without waiting.
func gone(w *os.File) bool {
	fds := []unix.PollFd{{Fd: int32(w.Fd()), Events: 0}}
	for {
		n, err := unix.Poll(fds, 0)
		if err == unix.EINTR {
			continue
		}
		return err == nil && n > 0 && fds[0].Revents&(unix.POLLERR|unix.POLLHUP|unix.POLLNVAL) != 0
	}
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
	err := j.cmd.Wait()
	j.t.f.Close()
	return err
}

// Pid returns the janitor process's pid.
func (j *Janitor) Pid() int { return j.cmd.Process.Pid }

// RunJanitor is the janitor's main loop: it reads r (hookside's pipe:
// nothing is written to it) until EOF or a read error, then reads the
// janitor table on descriptor 3, SIGKILLs every group recorded there,
// sweeps their tokens, and returns nil. A missing or unreadable table is
// logged; the janitor never stops early. It ignores SIGHUP, SIGINT and
// SIGQUIT (terminal signals); SIGKILL and SIGTERM still end it.
func RunJanitor(r io.Reader) error {
	signal.Ignore(syscall.SIGHUP, syscall.SIGINT, syscall.SIGQUIT)
	return janitorLoop(r, os.NewFile(3, "hookside-janitor-table"))
}

// janitorLoop is RunJanitor without the signal dispositions, with the
// table tab.
func janitorLoop(r io.Reader, tab io.ReaderAt) error {
	_, _ = io.Copy(io.Discard, r)
	groups, err := readTable(tab)
	if err != nil {
		slog.Warn("janitor: cannot read the table of hook process groups", "err", err)
		return nil
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
