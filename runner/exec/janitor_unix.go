//go:build unix

package exec

import (
	"io"
	"log/slog"
	"os"
	osexec "os/exec"
	"sync/atomic"

	"github.com/hookside/hookside/internal/proc"
)

// janitor is this process's janitor (proc.Janitor), nil until
// EnableJanitor started one.
var janitor atomic.Pointer[proc.Janitor]

// EnableJanitor starts the janitor of this process: one process, in its
// own session, that Run tells the process group and run token of every
// hook it starts (and forgets once the group is killed), and that SIGKILLs
// every group still recorded, then sweeps their tokens (proc.Sweep), when
// this process dies in any way, SIGKILL included. argv runs
// proc.RunJanitor on its stdin: hookside's own binary in its hidden
// janitor mode. It is the parent-death cleanup where the kernel has no
// Pdeathsig (macOS), and on Linux it reaches the rest of a hook's group,
// which Pdeathsig (the leader only) does not. Call it once, early, from a
// command; CloseJanitor ends it. Errors: ErrEmptyArgv, or the janitor could
// not be started (hooks then run without it).
func EnableJanitor(argv []string) error {
	if len(argv) == 0 || argv[0] == "" {
		return ErrEmptyArgv
	}
	cmd := osexec.Command(argv[0], argv[1:]...)
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
	if old := janitor.Swap(j); old != nil {
		closeJanitor(old)
	}
	return nil
}

// CloseJanitor closes the pipe to the janitor (which then kills whatever
// hook group is still recorded and exits) and waits for it. Without a
// janitor it does nothing. The error is the janitor's exit.
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

// janitorTrack records a started hook's group with the janitor, if any:
// one pipe write.
func janitorTrack(pgid int, token string) {
	if j := janitor.Load(); j != nil {
		if err := j.Track(pgid, token); err != nil {
			slog.Warn("janitor: cannot record hook process group: it is not killed if hookside dies", "pgid", pgid, "err", err)
		}
	}
}

// janitorUntrack forgets a hook's group once it is killed, before its
// leader is reaped (so the group id cannot have been reused).
func janitorUntrack(pgid int) {
	if j := janitor.Load(); j != nil {
		_ = j.Untrack(pgid)
	}
}

// sweepEscapees kills the processes carrying token (proc.Sweep) where no
// subreaper catches the processes that left the hook's group.
func sweepEscapees(token string) {
	if !sweepAfterRun() {
		return
	}
	if _, err := proc.Sweep(token); err != nil {
		slog.Warn("cannot sweep the processes of a hook run by its token", "err", err)
	}
}
