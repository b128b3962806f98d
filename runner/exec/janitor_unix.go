//go:build unix

package exec

import (
	"io"
	"log/slog"
	"os"
	osexec "os/exec"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/hookside/hookside/internal/proc"
)

// janitor is this process's janitor (proc.Janitor), nil until one is
// started (ensureJanitor on the first hook, or EnableJanitor).
var janitor atomic.Pointer[proc.Janitor]

// janitorStart serialises starting the janitor; failed is set when the
// janitor the spawner starts itself could not be started (hooks then run
// without one; the warning is logged once).
var janitorStart struct {
	sync.Mutex
	failed bool
}

// noLazyJanitor keeps Run from starting a janitor; only benchmarks set it,
// to measure Run without one.
var noLazyJanitor atomic.Bool

// EnableJanitor starts the janitor of this process now, unless one runs:
// one process, in its own session, that Run tells the process group and
// run token of every hook it starts (and forgets once the group is
// killed), and that SIGKILLs every group still recorded, then sweeps their
// tokens (proc.Sweep), when this process dies in any way, SIGKILL
// included. It is the parent-death cleanup where the kernel has no
// Pdeathsig (macOS), and on Linux and FreeBSD it reaches the rest of a
// hook's group, which Pdeathsig (the leader only) does not.
//
// Run starts it by itself before the first hook of the process, so calling
// this is needed only to have it running earlier. argv nil re-executes
// this binary as the janitor (proc.JanitorCmd: nothing of its main is
// needed); otherwise argv must run proc.RunJanitor on its stdin. One
// janitor per process: the cost per hook is a poll(2) and two pwrite(2)s
// to the table it shares with the janitor, which wakes no process.
// CloseJanitor ends it. Errors: ErrEmptyArgv for a non-nil empty argv, or
// the janitor could not be started (hooks then run without it).
func EnableJanitor(argv []string) error {
	if argv != nil && (len(argv) == 0 || argv[0] == "") {
		return ErrEmptyArgv
	}
	janitorStart.Lock()
	defer janitorStart.Unlock()
	if janitor.Load() != nil {
		return nil
	}
	return startJanitor(argv)
}

// ensureJanitor starts this process's janitor before its first hook,
// unless one runs or starting one failed before. The common case is one
// atomic load.
func ensureJanitor() {
	if janitor.Load() != nil || noLazyJanitor.Load() {
		return
	}
	janitorStart.Lock()
	defer janitorStart.Unlock()
	if janitor.Load() != nil || janitorStart.failed {
		return
	}
	if err := startJanitor(nil); err != nil {
		janitorStart.failed = true
		slog.Warn("cannot start the janitor: a hook's processes may outlive hookside if it is killed", "err", err)
	}
}

// startJanitor starts a janitor running argv (nil: proc.JanitorCmd) and
// makes it this process's. Call it with janitorStart held.
func startJanitor(argv []string) error {
	var cmd *osexec.Cmd
	if argv == nil {
		var err error
		if cmd, err = proc.JanitorCmd(); err != nil {
			return err
		}
	} else {
		cmd = osexec.Command(argv[0], argv[1:]...)
	}
	cmd.Stderr = os.Stderr
	// Registered like a hook leader, so the subreaper's reaper never
	// takes the janitor for an escapee.
	register := beginStart()
	j, err := proc.StartJanitor(cmd)
	if err != nil {
		register(0)
		return err
	}
	register(j.Pid())
	janitor.Store(j)
	return nil
}

// CloseJanitor closes the pipe to the janitor (which then kills whatever
// hook group is still recorded and exits) and waits for it; a later hook
// starts a new one. Without a janitor it does nothing. The error is the
// janitor's exit. A process that just exits needs not call it: the pipe
// closes with it.
func CloseJanitor() error {
	j := janitor.Swap(nil)
	if j == nil {
		return nil
	}
	return closeJanitor(j)
}

func closeJanitor(j *proc.Janitor) error {
	err := j.Close()
	reaped(j.Pid())
	return err
}

// RunJanitor is the main of the janitor process (proc.RunJanitor): it
// reads the pipe on r until EOF, then kills what is recorded.
func RunJanitor(r io.Reader) error { return proc.RunJanitor(r) }

// janitorTrack records a started hook's group with the janitor, if any
// (proc.Janitor.Track). A janitor that is gone (killed by someone) is dropped
// and reaped, so the next hook starts a new one.
func janitorTrack(pgid int, token string) {
	if j := janitor.Load(); j != nil {
		if err := j.Track(pgid, token); err != nil {
			slog.Warn("janitor: cannot record hook process group: it is not killed if hookside dies", "pgid", pgid, "err", err)
			if janitor.CompareAndSwap(j, nil) {
				go func() { _ = closeJanitor(j) }()
			}
		}
	}
}

// endGroup ends what is left of a hook's process group once its leader
// has exited but is not reaped yet (pid is still the group's id): SIGKILL
// to the group, the run's escapees swept by token where no subreaper
// catches them (among the processes started since the hook was, started),
// and the janitor told.
func endGroup(pid int, token string, started time.Time) {
	_ = syscall.Kill(-pid, syscall.SIGKILL)
	sweepEscapees(token, started)
	janitorUntrack(pid)
}

// janitorUntrack forgets a hook's group once it is killed, before its
// leader is reaped (so the group id cannot have been reused).
func janitorUntrack(pgid int) {
	if j := janitor.Load(); j != nil {
		_ = j.Untrack(pgid)
	}
}

// sweepEscapees kills the processes carrying token (proc.SweepSince) where no
// subreaper catches the processes that left the hook's group.
func sweepEscapees(token string, started time.Time) {
	if !sweepAfterRun() {
		return
	}
	if _, err := proc.SweepSince(token, started); err != nil {
		slog.Warn("cannot sweep the processes of a hook run by its token", "err", err)
	}
}
