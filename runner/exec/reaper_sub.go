//go:build linux || freebsd

package exec

import (
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// ReapInterval is how often the reaper looks for escaped processes besides
// the SIGCHLD that normally wakes it.
const ReapInterval = time.Second

var subreaperOnce sync.Once

// EnableSubreaper makes this process the subreaper of everything its
// hooks start (Linux prctl PR_SET_CHILD_SUBREAPER, FreeBSD procctl
// PROC_REAP_ACQUIRE) and starts the reaper: a
// process that leaves its hook's process group and outlives its parent —
// `setsid cmd &`, a double fork into a new session — is re-parented to
// hookside instead of init, and the reaper kills it (SIGKILL to it and to
// its process group) and reaps it, as soon as the hook's leader has exited
// or at its next tick (ReapInterval). The rule it enforces: nothing a hook
// started outlives the hook's process group. Call it once, early, from a
// command (never from library code or tests: every child of the process
// that is not a hook leader started by Run is treated as an escapee).
func EnableSubreaper() error {
	var err error
	subreaperOnce.Do(func() {
		if err = acquireSubreaper(); err != nil {
			return
		}
		subreaperOn.Store(true)
		go reapLoop()
	})
	return err
}

// reapLoop scans for escapees every ReapInterval, and on SIGCHLD where
// reapOnSIGCHLD (elsewhere Run calls reapAfterHook when a hook ends).
func reapLoop() {
	sigs := make(chan os.Signal, 1)
	if reapOnSIGCHLD {
		signal.Notify(sigs, syscall.SIGCHLD)
	}
	tick := time.NewTicker(ReapInterval)
	defer tick.Stop()
	for {
		select {
		case <-sigs:
			reapFrom(childPIDs(true))
		case <-tick.C:
			reapFrom(childPIDs(false))
		}
	}
}

// reapEscapees kills and reaps every child that is not a hook leader.
func reapEscapees() { reapFrom(childPIDs(false)) }

// reapFrom kills and reaps the children pids that are not hook leaders
// (or the janitor). The common
// case (every child is a running hook) takes no lock, so starting hooks is
// never held up; candidates are re-checked under the exclusive lock, when
// no hook is between fork and registration.
func reapFrom(pids []int) {
	var candidates []int
	for _, pid := range pids {
		if !isHook(pid) {
			candidates = append(candidates, pid)
		}
	}
	if len(candidates) == 0 {
		return
	}
	hookPIDs.starting.Lock()
	var victims []int
	for _, pid := range candidates {
		if !isHook(pid) {
			victims = append(victims, pid)
			_ = syscall.Kill(-pid, syscall.SIGKILL) // its own group, if it leads one
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
	hookPIDs.starting.Unlock()
	for _, pid := range victims {
		var ws syscall.WaitStatus
		// SIGKILLed: returns promptly (ECHILD if someone else reaped it).
		_, _ = syscall.Wait4(pid, &ws, 0, nil)
	}
}

// ReapEscapees kills and reaps, right now, every child that escaped its
// hook. A short-lived command (hooks run) calls it before it exits, since
// its orphans would otherwise pass to init when it is gone. It does
// nothing unless EnableSubreaper was called.
func ReapEscapees() {
	if subreaperEnabled() {
		reapEscapees()
	}
}

func subreaperEnabled() bool { return subreaperOn.Load() }

var subreaperOn atomic.Bool
