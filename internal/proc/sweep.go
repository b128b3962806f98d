package proc

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/hookside/hookside/internal/randid"
)

// TokenVar is the environment variable that carries a hook run's token.
// The spawner sets TokenVar=<token> in every hook's environment; every
// process the hook starts inherits it, also one that left the hook's
// process group (setsid, a double fork), so Sweep can find those by it.
const TokenVar = "HOOKSIDE_RUN_TOKEN"

// ErrBadToken is returned by Sweep for an empty token or one containing
// "=" or NUL (it could never be matched exactly).
var ErrBadToken = errors.New("proc: invalid run token")

// ErrNoProcess is wrapped by the errors for a pid that names no process
// (or one that has already exited and been reaped).
var ErrNoProcess = errors.New("proc: no such process")

// NewToken returns a fresh run token: 32 lowercase hex digits of a random
// (version 4) UUID (internal/randid).
func NewToken() string { return randid.New("") }

// sweepRounds bounds how often Sweep lists the processes again: a process
// it kills may have forked between the listing and the kill, and its child
// carries the token too.
const sweepRounds = 8

// sweeper is a process-list backend: the processes (those of other users
// may be left out: their environments cannot be read), the environment
// block (NUL-separated KEY=VALUE entries) of one, and a kill. Each OS
// supplies one (sysSweeper); tests supply their own.
type sweeper struct {
	procs   func() ([]procEntry, error)
	environ func(pid int) ([]byte, error)
	kill    func(pid int) error
}

// procEntry is one process of a listing: its pid and, where the listing
// gives it at no cost (macOS kern.proc.all), when it started (zero:
// unknown).
type procEntry struct {
	pid   int
	start time.Time
}

// SweepStartSlack is how long before a hook's start Sweep still looks at
// processes that started then (SweepSince): the start times a process list
// gives are wall-clock times, which can step back (NTP, a user setting the
// clock) while the hook runs.
const SweepStartSlack = time.Minute

// sweep kills every process but this one whose environment holds the
// entry TokenVar=token, listing again until a round finds nobody new, and
// returns the pids it killed in the order it killed them. Processes whose
// environment cannot be read (another user's, exited meanwhile) are
// passed over: they cannot be ours. The error reports a failed listing.
//
// A process whose start time the listing gives and that started before
// since is passed over without reading its environment: the processes a
// hook starts start after it (since zero: every process is read). One
// that started after since but whose environment reads as unreadable or
// empty (an exec in progress: macOS's KERN_PROCARGS2, like /proc's
// environ, has none for a moment) is read again, unsureRetries times at
// most, unsureDelay apart.
func (s sweeper) sweep(token string, since time.Time) ([]int, error) {
	if token == "" || strings.ContainsAny(token, "=\x00") {
		return nil, fmt.Errorf("%w: %q", ErrBadToken, token)
	}
	entry := []byte(TokenVar + "=" + token)
	self := os.Getpid()
	killed := map[int]bool{}
	var order []int
	unsure := map[int]int{} // pid → rounds its environment could not be read
	for range sweepRounds {
		procs, err := s.procs()
		if err != nil {
			return order, fmt.Errorf("proc: list processes: %w", err)
		}
		found, again := false, false
		for _, p := range procs {
			pid := p.pid
			if pid == self || pid <= 0 || killed[pid] || !since.IsZero() && !p.start.IsZero() && p.start.Before(since) {
				continue
			}
			env, err := s.environ(pid)
			if (err != nil || len(env) == 0) && !since.IsZero() && !p.start.IsZero() && unsure[pid] < unsureRetries {
				// A process of the run's time whose environment cannot be
				// read now may be in the middle of an exec: read it again.
				unsure[pid]++
				again = true
				continue
			}
			if err != nil || !envHas(env, entry) {
				continue
			}
			found = true
			if s.kill(pid) == nil {
				killed[pid] = true
				order = append(order, pid)
			}
		}
		if !found && !again {
			break
		}
		if again && !found {
			time.Sleep(unsureDelay)
		}
	}
	return order, nil
}

// unsureRetries and unsureDelay bound how often, and after how long, Sweep
// reads again the environment of a process started during the run that it
// could not read (an exec in progress hides it for a moment).
const (
	unsureRetries = 2
	unsureDelay   = 2 * time.Millisecond
)

// envHas reports whether the NUL-separated environment block env has an
// entry exactly equal to entry.
func envHas(env, entry []byte) bool {
	for len(env) > 0 {
		var e []byte
		e, env, _ = bytes.Cut(env, []byte{0})
		if bytes.Equal(e, entry) {
			return true
		}
	}
	return false
}

// procArgs2Env returns the environment block of a macOS KERN_PROCARGS2
// record: a native-endian int32 argc, the executable path and NUL padding,
// argc NUL-terminated arguments, then the NUL-terminated environment
// entries up to an empty string or the end. The result is the entries
// joined by NUL. A record too short for its argc is an error.
func procArgs2Env(b []byte) ([]byte, error) {
	if len(b) < 4 {
		return nil, errors.New("proc: procargs2 record shorter than argc")
	}
	argc := int(int32(binary.NativeEndian.Uint32(b)))
	rest := b[4:]
	i := bytes.IndexByte(rest, 0) // end of the executable path
	if i < 0 {
		return nil, errors.New("proc: procargs2 record without executable path")
	}
	rest = rest[i:]
	for len(rest) > 0 && rest[0] == 0 {
		rest = rest[1:]
	}
	for n := 0; n < argc; n++ {
		i := bytes.IndexByte(rest, 0)
		if i < 0 {
			return nil, fmt.Errorf("proc: procargs2 record ends in argument %d of %d", n, argc)
		}
		rest = rest[i+1:]
	}
	var env []byte
	for len(rest) > 0 {
		i := bytes.IndexByte(rest, 0)
		if i == 0 {
			break
		}
		if i < 0 {
			i = len(rest)
		}
		if len(env) > 0 {
			env = append(env, 0)
		}
		env = append(env, rest[:i]...)
		if i == len(rest) {
			break
		}
		rest = rest[i+1:]
	}
	return env, nil
}
