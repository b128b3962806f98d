package runner

import (
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"
)

// WatchDebounce is how long the admission watch waits after the last
// change before it re-evaluates: an editor's save (write, rename, chmod)
// or a grant (temp file, rename) is one re-evaluation.
const WatchDebounce = 50 * time.Millisecond

// admissionWatch pushes workspaceHooks/admissionUpdated when another
// process grants or revokes (the trust file changes) or a workspace config
// file or a pinned script is edited (lifecycle-hooks-and-workspace-trust
// §"按什么摘要信任": 有人撤销信任、收紧策略或重载信任文件，安全版本号变化), and
// reports a configuration file broken by an edit (OnDiagnostic) without
// waiting for the host's next call: the user config, the settings files
// and the plugin files are watched too. It subscribes to paths of the
// process's shared fsnotify watcher (watchHub: inotify, kqueue,
// ReadDirectoryChangesW), which passes it only the events on names it
// counts: idle, no goroutine of it runs, no timer and no poll. A
// directory-watched path that does not exist yet is watched through its
// nearest existing ancestor, so its creation is seen too.
type admissionWatch struct {
	kick chan struct{} // an event it counts arrived (capacity 1)
	stop chan struct{}
	done chan struct{}

	mu   sync.Mutex
	want map[string]bool // paths whose events count (files and missing ancestors)
	seen map[string]bool // source files it has watched on their own

	events, evals atomic.Int64 // events passed to it, re-evaluations (tests)
}

// notify wakes the watch's loop; it never blocks (one pending wake-up is
// enough: the loop only restarts its debounce timer).
func (aw *admissionWatch) notify() {
	aw.events.Add(1)
	select {
	case aw.kick <- struct{}{}:
	default:
	}
}

// startWatch starts the session's watch. Without an OnAdmissionUpdated
// callback for workspace hooks and without an OnDiagnostic callback it
// does nothing; when fsnotify is unavailable it logs once and changes are
// found at the host's next call, as without a watch. The fsnotify watcher
// is the process's (watchHub), however many sessions are open.
func (s *Session) startWatch() {
	if !s.watchesAdmission() && s.opts.OnDiagnostic == nil {
		return
	}
	aw := &admissionWatch{kick: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{}), seen: map[string]bool{}}
	if err := hub.attach(aw); err != nil {
		slog.Warn("configuration watch unavailable; admission changes and broken files are reported at the next call", "session", s.opts.ID, "err", err)
		return
	}
	s.watch = aw
	aw.update(s.watchPaths())
	go s.watchLoop(aw, true)
}

// watchesAdmission reports whether the watch pushes admission counts.
func (s *Session) watchesAdmission() bool {
	return s.opts.Workspace.Feature && s.opts.Workspace.OnAdmissionUpdated != nil
}

// watchPaths lists the files whose change can move the session's counts
// or its configuration diagnostics: paths are watched through their
// directories (their creation is seen too), files — the loader's sources
// outside the workspace — each on its own. The user config lives in the
// home next to the V2 database, whose every write would wake a watch on
// that directory; a source file that did not exist when the session
// opened is read at the next call instead (one that existed and was
// removed is waited for: admissionWatch.update).
func (s *Session) watchPaths() (paths, files []string) {
	s.mu.Lock()
	found, ws := s.found, s.ws
	s.mu.Unlock()
	paths = found.Candidates()
	if s.watchesAdmission() {
		paths = append(append(paths, s.gate.WatchPaths()...), pluginWatchPaths(ws)...)
	}
	return paths, s.loader.SourcePaths()
}

// watchLoop re-evaluates WatchDebounce after the last relevant event. A
// corrupt trust file is left to the next call of the host (or the next
// reader): moving it aside from here would let a grant racing it start a
// fresh file and report success (Gate.refuseWrite). When a re-evaluation
// adds a watch, it runs once more: a change made before the new watch was
// in place is then seen too (pending starts true for the same reason).
func (s *Session) watchLoop(aw *admissionWatch, pending bool) {
	defer close(aw.done)
	timer := time.NewTimer(WatchDebounce)
	if !pending {
		timer.Stop()
	}
	for {
		select {
		case <-aw.stop:
			timer.Stop()
			return
		case <-aw.kick:
			timer.Reset(WatchDebounce)
		case <-timer.C:
			aw.evals.Add(1)
			if s.watchesAdmission() && s.gate.StoreReadable() {
				s.WorkspaceStatus() // re-reads, reports what broke, pushes when the counts moved
			} else {
				s.reload() // re-reads, reports what broke (reportReload)
			}
			if aw.update(s.watchPaths()) {
				timer.Reset(WatchDebounce)
			}
		}
	}
}

// wants reports whether an event on name (cleaned) can matter.
func (aw *admissionWatch) wants(name string) bool {
	aw.mu.Lock()
	defer aw.mu.Unlock()
	return aw.want[name]
}

// update subscribes to the directories of paths (or their nearest
// existing ancestors) and to each of files that exists, and makes paths,
// those missing ancestors and files the names whose events count. A file
// of files that was watched and is gone (removed, or renamed away) is
// waited for through its directory (or nearest existing ancestor), with
// only its own name (and the missing ancestors') counting, until it is
// back; then the file is watched on its own again and the directory
// dropped. A file that never existed is not waited for: for the user
// config that would mean watching the home, which holds the V2 database.
// While a directory is waited through (a removed user config, or a
// missing <home>/security/ before the first grant), the process's watcher
// sees that directory's other writes; watchHub drops them before any
// session (on kqueue the wait also costs a descriptor per file in that
// directory). It reports whether a watch was added. A path that vanished between the
// stat and the watch's Add is planned again (twice at most); one that
// still cannot be watched is retried at the next update.
func (aw *admissionWatch) update(paths, files []string) bool {
	addedAny := false
	for try := 0; ; try++ {
		added, failed := hub.sync(aw, aw.plan(paths, files))
		addedAny = addedAny || added
		if len(failed) == 0 || try == 2 {
			return addedAny
		}
	}
}

// plan computes the paths to subscribe to and sets want.
func (aw *admissionWatch) plan(paths, files []string) map[string]bool {
	want := make(map[string]bool, len(paths)*2+len(files))
	sub := make(map[string]bool, len(paths)+len(files))
	// through watches a directory for name: the nearest existing ancestor
	// of name's directory, counting the missing ancestors on the way.
	through := func(name string) {
		dir := filepath.Dir(name)
		for {
			if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
				break
			}
			want[dir] = true // its creation leads towards name
			parent := filepath.Dir(dir)
			if parent == dir {
				break
			}
			dir = parent
		}
		sub[dir] = true
	}
	for _, p := range paths {
		p = filepath.Clean(p)
		want[p] = true
		through(p)
	}
	aw.mu.Lock()
	defer aw.mu.Unlock()
	for _, f := range files {
		f = filepath.Clean(f)
		want[f] = true
		if sub[filepath.Dir(f)] {
			continue // its directory's events name it
		}
		if fi, err := os.Stat(f); err == nil && !fi.IsDir() {
			sub[f] = true
			aw.seen[f] = true
		} else if aw.seen[f] {
			through(f)
		}
	}
	aw.want = want
	return sub
}

// close stops the watch, drops its subscriptions and waits for its
// goroutine.
func (aw *admissionWatch) close() {
	close(aw.stop)
	hub.detach(aw)
	<-aw.done
}
