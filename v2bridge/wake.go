package v2bridge

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"

	"github.com/fsnotify/fsnotify"
)

// Cross-process wake-up. Several hookside processes share one home (an
// editor window each, plus CLI calls) and one database, but a commit in one
// is invisible to the others until they look. So a process that makes a run
// claimable (created or re-queued: store.SubscribeRuns) writes a few bytes to
// a small wake file after the commit, and every process running a pipeline
// watches that file's directory with fsnotify (inotify, kqueue,
// ReadDirectoryChangesW): a change wakes its workers at once. Idle, the
// watcher goroutine blocks in the kernel — no timer, no poll. Should the
// watch be impossible (e.g. the inotify limit is reached), the maintenance
// tick still picks the work up.
const (
	// WakeDirName is the directory under the database's directory holding
	// WakeFileName (a directory of its own, so the watch sees only it and
	// not every write to the database and its WAL).
	WakeDirName  = "hookside.db-wake"
	WakeFileName = "queued"
)

// waker writes the wake file (touch) and watches it (watch).
type waker struct {
	path string // the wake file

	mu   sync.Mutex
	f    *os.File // opened on the first touch, kept open
	seq  uint64
	busy atomic.Bool // a touch is being written: later ones coalesce
	more atomic.Bool

	w *fsnotify.Watcher
}

// newWaker is the waker of the database in dbDir; with dbDir "" (a
// database in memory, which no other process sees) it does nothing.
func newWaker(dbDir string) *waker {
	if dbDir == "" {
		return &waker{}
	}
	return &waker{path: filepath.Join(dbDir, WakeDirName, WakeFileName)}
}

// touch tells the other processes that a run became claimable. Concurrent
// touches coalesce into one write; failures are silent (the maintenance
// tick is the fallback).
func (k *waker) touch() {
	k.more.Store(true)
	if !k.busy.CompareAndSwap(false, true) {
		return
	}
	for k.more.Swap(false) {
		k.write()
	}
	k.busy.Store(false)
	if k.more.Load() { // a touch raced the release
		k.touch()
	}
}

func (k *waker) write() {
	if k.path == "" {
		return
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.f == nil {
		if err := os.MkdirAll(filepath.Dir(k.path), 0o700); err != nil {
			return
		}
		f, err := os.OpenFile(k.path, os.O_WRONLY|os.O_CREATE, 0o600)
		if err != nil {
			return
		}
		k.f = f
	}
	k.seq++
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], k.seq)
	_, _ = k.f.WriteAt(b[:], 0)
}

// watch calls wake for every change of the wake file until stop is closed.
// It returns false when the watch cannot be set up.
func (k *waker) watch(wake func(), logf func(msg string, args ...any)) bool {
	if k.path == "" {
		return false
	}
	dir := filepath.Dir(k.path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		logf("v2 wake-up watch unavailable; other processes' work is noticed at the maintenance tick", "err", err)
		return false
	}
	// The file exists before the watch, so kqueue (which watches the files
	// of a directory) sees its writes.
	if f, err := os.OpenFile(k.path, os.O_WRONLY|os.O_CREATE, 0o600); err == nil {
		f.Close()
	}
	w, err := fsnotify.NewWatcher()
	if err == nil {
		if err = w.Add(dir); err != nil {
			w.Close()
		}
	}
	if err != nil {
		logf("v2 wake-up watch unavailable; other processes' work is noticed at the maintenance tick", "err", err)
		return false
	}
	k.w = w
	go func() {
		for {
			select {
			case ev, ok := <-w.Events:
				if !ok {
					return
				}
				if filepath.Base(ev.Name) == WakeFileName && ev.Has(fsnotify.Write|fsnotify.Create|fsnotify.Chmod) {
					wake()
				}
			case err, ok := <-w.Errors:
				if !ok {
					return
				}
				// An overflow or a transient error: wake once to be safe.
				logf("v2 wake-up watch error", "err", err)
				wake()
			}
		}
	}()
	return true
}

func (k *waker) close() {
	if k.w != nil {
		k.w.Close()
	}
	k.mu.Lock()
	if k.f != nil {
		k.f.Close()
		k.f = nil
	}
	k.mu.Unlock()
}
