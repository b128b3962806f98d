package runner

import (
	"log/slog"
	"path/filepath"
	"sync"

	"github.com/fsnotify/fsnotify"
)

// watchHub is the process's one fsnotify watcher, shared by every
// session's admissionWatch: a path several sessions watch is watched once
// (reference-counted), and each event is passed only to the sessions
// that subscribed to its path (a file watched on its own) or to its
// directory and count its name (admissionWatch.wants). So the number of
// sessions costs no inotify instance (Linux: fs.inotify.max_user_instances,
// 128 by default, per user) and no extra watch per shared file
// (fs.inotify.max_user_watches); an event on an unrelated name in a
// watched directory (e.g. a V2 database write in the home) wakes the hub's
// goroutine, never a session's.
//
// Per OS (fsnotify's backends): Linux inotify, one descriptor for the
// process, one watch per distinct path. macOS and the BSDs kqueue: one
// open descriptor per watched file, and a watched directory opens one per
// file in it too (counted against the open-file limit, 256 by default on
// macOS), so sharing saves a descriptor per session and path there.
// Windows ReadDirectoryChangesW: a file is watched through its
// directory's handle with a name filter inside fsnotify; Add and Remove
// are served by fsnotify's reader goroutine, which is why the hub never
// calls them while holding the lock its event loop takes.
type watchHub struct {
	// kmu serializes sync and release (the kernel side: Add, Remove,
	// NewWatcher, Close), so Adds and Removes happen in the order of the
	// reference counts. It is never taken by the event loop.
	kmu sync.Mutex

	mu    sync.Mutex
	w     *fsnotify.Watcher // nil while no session is attached
	users map[*admissionWatch]map[string]bool
	subs  map[string]map[*admissionWatch]bool // path -> sessions watching it
}

// hub is the process's watchHub.
var hub = &watchHub{}

// attach registers aw, creating the shared watcher for the first one.
// Errors: those of fsnotify.NewWatcher (e.g. the inotify instance limit).
func (h *watchHub) attach(aw *admissionWatch) error {
	h.kmu.Lock()
	defer h.kmu.Unlock()
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.w == nil {
		w, err := fsnotify.NewWatcher()
		if err != nil {
			return err
		}
		h.w, h.users, h.subs = w, map[*admissionWatch]map[string]bool{}, map[string]map[*admissionWatch]bool{}
		go h.loop(w)
	}
	h.users[aw] = map[string]bool{}
	return nil
}

// detach drops aw's subscriptions (removing the paths no other session
// watches) and closes the watcher when aw was the last session.
func (h *watchHub) detach(aw *admissionWatch) {
	h.kmu.Lock()
	defer h.kmu.Unlock()
	h.mu.Lock()
	w := h.w
	remove := h.unsubscribe(aw, h.users[aw], nil)
	delete(h.users, aw)
	last := len(h.users) == 0
	if last {
		h.w = nil
	}
	h.mu.Unlock()
	if w == nil {
		return
	}
	if last {
		w.Close() // the loop ends when its channels close
		return
	}
	for _, p := range remove {
		_ = w.Remove(p) // already gone when the kernel dropped it (file removed)
	}
}

// sync makes paths (cleaned) aw's subscriptions: new ones are added,
// those no longer listed are dropped, and a listed path whose kernel
// watch ended (a file removed or renamed over; it is then missing from
// WatchList) is added again. It reports whether aw gained a subscription
// or a path was added again: a change made before that may have been
// missed, so the caller reads once more. failed are the paths that could
// not be added (e.g. removed meanwhile).
func (h *watchHub) sync(aw *admissionWatch, paths map[string]bool) (added bool, failed []string) {
	h.kmu.Lock()
	defer h.kmu.Unlock()
	h.mu.Lock()
	w, had := h.w, h.users[aw]
	if w == nil || had == nil {
		h.mu.Unlock()
		return false, nil
	}
	remove := h.unsubscribe(aw, had, paths)
	for p := range paths {
		if !had[p] {
			had[p] = true
			added = true
			if h.subs[p] == nil {
				h.subs[p] = map[*admissionWatch]bool{}
			}
			h.subs[p][aw] = true
		}
	}
	h.mu.Unlock()
	for _, p := range remove {
		_ = w.Remove(p)
	}
	live := map[string]bool{}
	for _, p := range w.WatchList() { // distinct paths: not multiplied by sessions
		live[p] = true
	}
	for p := range paths {
		if live[p] {
			continue
		}
		if err := w.Add(p); err != nil {
			slog.Debug("configuration watch: cannot watch", "path", p, "err", err)
			failed = append(failed, p)
			continue
		}
		added = true
	}
	return added, failed
}

// unsubscribe drops aw's subscriptions in had that keep does not list and
// returns the paths no session watches any more. Caller holds mu.
func (h *watchHub) unsubscribe(aw *admissionWatch, had, keep map[string]bool) []string {
	var remove []string
	for p := range had {
		if keep[p] {
			continue
		}
		delete(had, p)
		delete(h.subs[p], aw)
		if len(h.subs[p]) == 0 {
			delete(h.subs, p)
			remove = append(remove, p)
		}
	}
	return remove
}

// loop passes w's events to the sessions whose subscriptions they concern
// until w is closed. An error (e.g. an inotify queue overflow, which may
// have hidden a change) goes to every session.
func (h *watchHub) loop(w *fsnotify.Watcher) {
	for {
		select {
		case ev, ok := <-w.Events:
			if !ok {
				return
			}
			h.dispatch(filepath.Clean(ev.Name))
		case err, ok := <-w.Errors:
			if !ok {
				return
			}
			slog.Debug("configuration watch", "err", err)
			h.mu.Lock()
			for aw := range h.users {
				aw.notify()
			}
			h.mu.Unlock()
		}
	}
}

// dispatch passes an event on name to the sessions watching name itself
// or its directory that count name (admissionWatch.wants).
func (h *watchHub) dispatch(name string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, p := range [2]string{name, filepath.Dir(name)} {
		for aw := range h.subs[p] {
			if aw.wants(name) {
				aw.notify()
			}
		}
	}
}

// subscribed returns the paths aw is subscribed to (for tests).
func (h *watchHub) subscribed(aw *admissionWatch) map[string]bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := map[string]bool{}
	for p := range h.users[aw] {
		out[p] = true
	}
	return out
}
