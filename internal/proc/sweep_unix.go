//go:build linux || darwin || freebsd

package proc

import (
	"time"

	"golang.org/x/sys/unix"
)

// Sweep kills (SIGKILL) every process other than the caller whose
// environment holds TokenVar=token, the processes a hook started and that
// left its process group, and returns their pids. It reads the process
// list (Linux /proc, macOS sysctl kern.proc.all + KERN_PROCARGS2, FreeBSD
// kern.proc.proc + kern.proc.env) until a listing finds nobody new.
// Best effort, as Jenkins' ProcessTreeKiller: a process that rewrote or
// cleared its environment, or runs as another user, is not found. Errors:
// ErrBadToken, or a failed process listing (with the pids killed so far).
func Sweep(token string) ([]int, error) { return sysSweeper.sweep(token, time.Time{}) }

// SweepSince is Sweep of a hook that started at started: where the process
// list says when each process started (macOS), only the processes that
// started after started − SweepStartSlack have their environments read, a
// handful where Sweep reads every process of the user.
func SweepSince(token string, started time.Time) ([]int, error) {
	return sysSweeper.sweep(token, started.Add(-SweepStartSlack))
}

func killPID(pid int) error { return unix.Kill(pid, unix.SIGKILL) }
