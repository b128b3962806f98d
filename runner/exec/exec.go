// Package exec is the spawner: the one place in hookside that starts hook
// processes. Run takes a Spec (argv, directory, environment, stdin,
// deadline, output cap) and reports a Result; the hook leads its own
// process group, which is killed on timeout, cancellation and exit
// (KillGrace between SIGTERM and SIGKILL). EnableSubreaper makes hookside
// the subreaper of what hooks start, so a process that escaped its group is
// killed too (Linux, FreeBSD; macOS finds it by the run's token instead).
// On Unix the first hook of a process starts its janitor (EnableJanitor),
// the one process that kills every running hook's group when hookside
// dies; on Windows each hook runs in a Job Object that dies with it. The
// runner session and the V2 worker both spawn through Run; the session
// takes it as a Spawner so tests can fake it.
package exec

import (
	"context"
	"errors"
	"time"

	"github.com/hookside/hookside/internal/hook"
)

// Defaults Run applies to zero fields of a Spec.
const (
	// DefaultTimeout is used when Spec.Timeout <= 0 (the spec's
	// timeoutMs default, 60000 ms). A hook never runs without a deadline.
	DefaultTimeout = time.Duration(hook.DefaultTimeoutMs) * time.Millisecond
	// KillGrace is the time between SIGTERM and SIGKILL to a hook's
	// process group once its deadline passed or its run was cancelled;
	// Run uses it when Spec.KillGrace <= 0.
	KillGrace = 500 * time.Millisecond
	// DefaultMaxOutputBytes is used when Spec.MaxOutputBytes <= 0
	// (the spec's maxOutputBytes default, 32768 bytes per stream).
	DefaultMaxOutputBytes = hook.DefaultMaxOutputBytes
	// PipeDrainTimeout bounds how long Run keeps reading stdout and
	// stderr after the hook's process group has been killed. Only a process
	// that left the group (setsid, setpgid) and still holds the pipes can
	// make Run wait this long; whatever it writes later is dropped.
	PipeDrainTimeout = 100 * time.Millisecond
)

// ErrEmptyArgv is the StartErr of a Spec without an executable.
var ErrEmptyArgv = errors.New("exec: empty argv: no executable to start")

// ErrCmdLine is the StartErr of a Spec with a CmdLine outside Windows.
var ErrCmdLine = errors.New("exec: a raw command line (Spec.CmdLine) exists only on Windows; give Argv")

// Spec is one hook process to run.
type Spec struct {
	// Argv is the executable and its arguments. Argv[0] is looked up in
	// the PATH of the hookside process (not of Env) when it has no "/",
	// exactly like exec.Command; it is never split or handed to a shell.
	Argv []string
	// Path, when not "", is the executable to start, already resolved:
	// Argv[0] is then passed to the process as it is and not looked up.
	Path string
	// CmdLine, when not "", is on Windows the whole command line the
	// process receives (SysProcAttr.CmdLine) instead of one quoted from
	// Argv; Argv[0] still names the executable, Argv[1:] are then only
	// descriptive. It is how cmd.exe, whose unquoting differs from
	// CommandLineToArgvW, gets `"cmd.exe" /d /s /c "<command>"` as written
	// (hook.CmdLine). Unix processes take an argv only: there a Spec with
	// CmdLine is refused with ErrCmdLine.
	CmdLine string
	// Dir is the working directory ("" = hookside's own).
	Dir string
	// Env is the complete environment as KEY=VALUE entries. nil inherits
	// hookside's environment (os/exec semantics); an empty non-nil slice
	// means an empty environment.
	Env []string
	// Stdin is written to the child's stdin, which is then closed (EOF).
	// A child that exits or closes stdin without reading it is normal:
	// the unwritten rest is dropped silently (EPIPE is not an error).
	Stdin []byte
	// Timeout is the deadline enforced by the parent, measured from the
	// start; <= 0 means DefaultTimeout (60 s).
	Timeout time.Duration
	// KillGrace is the time between SIGTERM and SIGKILL to the process
	// group on timeout or cancellation; <= 0 means KillGrace
	// (500 ms).
	KillGrace time.Duration
	// MaxOutputBytes caps stdout and stderr, each, in bytes; <= 0 means
	// DefaultMaxOutputBytes (32768). Output past the cap is read and
	// discarded (the child never blocks on a full pipe) and flagged in
	// Result.StdoutTruncated / StderrTruncated.
	MaxOutputBytes int
	// OnFirstLine, when set, is called once with the first non-blank line
	// of stdout (surrounding whitespace trimmed, without its newline) as
	// soon as that newline has been read, while the hook still runs. It is
	// called from the goroutine that reads the hook's output, so it must
	// return quickly (hand the line to a buffered channel); the slice is
	// its own. It is not called when stdout ends, or reaches
	// MaxOutputBytes, before a non-blank line is complete. Claude Code's
	// runtime async marker is read this way. nil costs nothing.
	OnFirstLine func(line []byte)
}

// Result is what one Run observed. Run reports every failure here;
// it has no error return.
type Result struct {
	// ExitCode is the leader's exit status (0–255), or -1 when it was
	// killed by a signal (timeouts, cancellation) or never started.
	ExitCode int
	// Stdout and Stderr hold at most MaxOutputBytes bytes each, exactly as
	// written (no UTF-8 validation or trimming); nil when empty.
	Stdout, Stderr []byte
	// StdoutTruncated / StderrTruncated: the stream had more bytes than
	// MaxOutputBytes; the rest was read and discarded.
	StdoutTruncated, StderrTruncated bool
	// TimedOut: Spec.Timeout expired and the group was terminated.
	TimedOut bool
	// Canceled: ctx was done (cancelled or its own deadline passed) before
	// the hook finished, and the group was terminated; or ctx was already
	// done and nothing was started. Never set together with TimedOut.
	Canceled bool
	// StartErr is non-nil when no process ran: it wraps the os/exec error
	// (errors.Is(err, fs.ErrNotExist) for a missing file,
	// fs.ErrPermission for a file that is not executable,
	// exec.ErrNotFound for a name not in PATH), ErrEmptyArgv, ErrCmdLine,
	// or ctx.Err().
	StartErr error
	// Duration is the wall time from just before the start until Run had
	// collected the output (includes termination and pipe draining).
	Duration time.Duration
	// PID is the leader's process id, which is also the process group id
	// of the hook (0 when nothing started).
	PID int
}

// Spawner starts hook processes: the one dependency of the runner session
// on the operating system (like lefthook's one-method Executor). Run must
// behave like the package's Run: every failure reported in the Result, and
// it returns once the hook and its process group are gone. Tests give a
// session a fake one so orchestration (ordering, parallel groups,
// cancellation) is checked without real processes and wall-clock bounds.
type Spawner interface {
	Run(ctx context.Context, spec Spec) Result
}

// SpawnerFunc adapts a function to a Spawner.
type SpawnerFunc func(ctx context.Context, spec Spec) Result

// Run calls f.
func (f SpawnerFunc) Run(ctx context.Context, spec Spec) Result { return f(ctx, spec) }

// Processes is the Spawner that starts real processes with Run.
var Processes Spawner = SpawnerFunc(Run)
