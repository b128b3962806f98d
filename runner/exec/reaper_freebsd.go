package exec

import (
	"log/slog"

	"github.com/hookside/hookside/internal/proc"
)

// acquireSubreaper makes this process the reaper of its descendants
// (procctl PROC_REAP_ACQUIRE).
func acquireSubreaper() error { return proc.AcquireReaper() }

// reapOnSIGCHLD is true: listing children takes a scan of the process
// table here, so the reaper runs on SIGCHLD (and on its tick) rather than
// after every hook.
const reapOnSIGCHLD = true

// reapAfterHook does nothing here: the reaper runs on SIGCHLD.
func reapAfterHook() {}

// childPIDs lists this process's children (kern.proc.proc, ki_ppid); the
// kernel has one list per process, so mainOnly changes nothing.
func childPIDs(mainOnly bool) []int {
	pids, err := proc.ChildPIDs()
	if err != nil {
		slog.Warn("cannot list child processes to reap escaped hook processes", "err", err)
	}
	return pids
}

// sweepAfterRun reports whether Run sweeps a finished hook's run token:
// only while this process is not the reaper of its descendants
// (EnableSubreaper), whose reaper kills what left a hook's group.
func sweepAfterRun() bool { return !subreaperEnabled() }
