package truststore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/gofrs/flock"

	"github.com/hookside/hookside/internal/jsonexact"
	"github.com/hookside/hookside/internal/proc"
	"github.com/hookside/hookside/internal/randid"
)

// The trust file lock (§"信任存在哪、怎样审查": "多个进程靠一个 .lock 文件互斥，锁里记着
// 进程号、进程启动时间与随机令牌，拿锁最多等 5 秒"). hookside uses an flock(2)
// on <file>.lock instead of the original's create-exclusive lock file, so
// the kernel frees the lock the instant its holder dies: the spec's "reclaim
// after 30 s when the holder is gone" is never needed, and the lock file is
// never deleted (deleting it would let two processes lock two inodes). The
// holder still writes its pid, process start time and a random token, for
// the error message of whoever times out waiting: into the lock file on
// Unix (flock is advisory), into <file>.lock.holder on Windows, where
// gofrs/flock's LockFileEx lock is mandatory and nobody else could read
// the locked byte.

// ErrLockTimeout is returned (wrapped) when the trust file lock could not
// be taken within Options.LockTimeout. The wrapping message names the lock
// file, the holder and what to do: "the workspace hook trust file is busy:
// its lock F.lock is held by pid 4242 (started …, token 1a2b3c4d) for over
// 5s; nothing was written: try again when that process is done".
var ErrLockTimeout = errors.New("the workspace hook trust file is busy")

// procLock serializes one lock path inside this process. gofrs/flock needs
// one *Flock per path per process: a second Flock on the same path opens a
// second file description, which flock(2) treats as another owner, so it
// would wait for ourselves. This registry is the package's only global
// state, and it exists because the kernel lock is per process.
type procLock struct {
	sem chan struct{} // capacity 1: the in-process mutex, with a timeout
	fl  *flock.Flock
}

var lockRegistry = struct {
	sync.Mutex
	m map[string]*procLock
}{m: map[string]*procLock{}}

func lockFor(path string) *procLock {
	lockRegistry.Lock()
	defer lockRegistry.Unlock()
	pl, ok := lockRegistry.m[path]
	if !ok {
		pl = &procLock{sem: make(chan struct{}, 1), fl: flock.New(path, flock.SetPermissions(0o600))}
		lockRegistry.m[path] = pl
	}
	return pl
}

// lockInfo is what the holder writes into the lock file.
//
// StartedAt is the holder's start time (proc.ProcStartTime), which with PID
// names it across pid reuse. A record written by an older Linux build also
// has startTicks (/proc/<pid>/stat field 22); its startedAt was computed
// from those ticks exactly as proc.ProcStartTime computes it on Linux, so
// it is understood the same way. A record without a start time (zero
// startedAt), or an older record whose startedAt differs from the running
// process's, names a holder that cannot be confirmed: the message says so
// and claims neither that it runs nor that it exited. The record only ever feeds the message of
// a lock timeout; the flock alone decides who holds the lock.
type lockInfo struct {
	PID        int       `json:"pid"`
	StartTicks uint64    `json:"startTicks,omitempty"` // older Linux builds only; read, never written
	StartedAt  time.Time `json:"startedAt"`
	Token      string    `json:"token"`
	AcquiredAt time.Time `json:"acquiredAt"`
}

// acquire takes the in-process mutex and the flock on lockPath within
// timeout, records the holder, and returns the release function.
func acquire(lockPath string, timeout time.Duration) (func(), error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	pl := lockFor(lockPath)
	select {
	case pl.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, fmt.Errorf("%w: its lock %s is held by this process (pid %d, another request) for over %s; nothing was written: try again",
			ErrLockTimeout, lockPath, os.Getpid(), timeout)
	}
	ok, err := pl.fl.TryLockContext(ctx, 5*time.Millisecond)
	if !ok || err != nil {
		<-pl.sem
		if err != nil && !errors.Is(err, context.DeadlineExceeded) {
			return nil, fmt.Errorf("cannot lock the workspace hook trust file (%s): %w", lockPath, err)
		}
		return nil, fmt.Errorf("%w: its lock %s is held by %s for over %s; nothing was written: try again when that process is done",
			ErrLockTimeout, lockPath, describeHolder(lockPath), timeout)
	}
	info := lockInfo{PID: os.Getpid(), Token: randomToken(), AcquiredAt: time.Now().UTC()}
	if t, err := proc.ProcStartTime(info.PID); err == nil {
		info.StartedAt = t.UTC()
	}
	hp := holderPath(lockPath)
	if b, err := json.Marshal(info); err == nil {
		// Same inode (O_TRUNC, never rename): the flock stays on it.
		_ = os.WriteFile(hp, append(b, '\n'), 0o600)
	}
	return func() {
		_ = os.Truncate(hp, 0)
		_ = pl.fl.Unlock()
		<-pl.sem
	}, nil
}

// describeHolder reads the holder record for an error message: "pid 4242
// (started 2026-01-02T15:04:05Z, token 1a2b3c4d)" with a note when that
// holder exited or cannot be confirmed, or "another process (holder not
// recorded)".
func describeHolder(lockPath string) string {
	b, err := os.ReadFile(holderPath(lockPath))
	var info lockInfo
	if err != nil || jsonexact.Unmarshal(b, &info) != nil || info.PID <= 0 {
		return "another process (holder not recorded)"
	}
	msg := fmt.Sprintf("pid %d (started %s, token %.8s)",
		info.PID, info.StartedAt.Local().Format(time.RFC3339), info.Token)
	const exited = " [recorded holder has exited; lock taken by a process that did not record itself]"
	now, err := proc.ProcStartTime(info.PID)
	switch {
	case errors.Is(err, proc.ErrNoProcess):
		msg += exited
	case err == nil && !info.StartedAt.IsZero() && now.Equal(info.StartedAt):
		// The recorded holder is running.
	case err == nil && !info.StartedAt.IsZero() && info.StartTicks == 0:
		msg += exited // the pid now names another process
	default:
		msg += " [cannot confirm that the recorded holder is still running]"
	}
	return msg
}

func randomToken() string { return randid.New("") }
