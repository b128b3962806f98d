package runner

import (
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
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
// and the plugin files are watched too. It watches the directories holding
// those files with fsnotify (inotify, kqueue, ReadDirectoryChangesW): idle,
// its goroutine blocks in the kernel, no timer and no poll. A file that
// does not exist yet is watched through its nearest existing ancestor, so
// its creation is seen too.
type admissionWatch struct {
	w    *fsnotify.Watcher
	stop chan struct{}
	done chan struct{}

	mu   sync.Mutex
	dirs map[string]bool // directories added to w
	want map[string]bool // paths whose events count (files and missing ancestors)
}

// watchedFile reports whether w watches the file path itself now (a file
// watch ends when the file is removed or renamed over, e.g. by an
// editor's atomic save).
func watchedFile(w *fsnotify.Watcher, path string) bool {
	for _, p := range w.WatchList() {
		if p == path {
			return true
		}
	}
	return false
}

// startWatch starts the session's watch. Without an OnAdmissionUpdated
// callback for workspace hooks and without an OnDiagnostic callback it
// does nothing; when fsnotify is unavailable it logs once and changes are
// found at the host's next call, as without a watch.
func (s *Session) startWatch() {
	if !s.watchesAdmission() && s.opts.OnDiagnostic == nil {
		return
	}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		slog.Warn("configuration watch unavailable; admission changes and broken files are reported at the next call", "session", s.opts.ID, "err", err)
		return
	}
	aw := &admissionWatch{w: w, stop: make(chan struct{}), done: make(chan struct{}), dirs: map[string]bool{}}
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
// that directory; a source file created after the session opened is read
// at the next call instead.
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
// adds directories to the watch, it runs once more: a change made before
// the new watch was in place is then seen too (pending starts true for the
// same reason).
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
		case ev, ok := <-aw.w.Events:
			if !ok {
				return
			}
			if aw.wants(ev.Name) {
				timer.Reset(WatchDebounce)
			}
		case err, ok := <-aw.w.Errors:
			if !ok {
				return
			}
			slog.Debug("configuration watch", "session", s.opts.ID, "err", err)
			timer.Reset(WatchDebounce) // an overflow may have hidden a change
		case <-timer.C:
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

// wants reports whether an event on name can matter.
func (aw *admissionWatch) wants(name string) bool {
	aw.mu.Lock()
	defer aw.mu.Unlock()
	return aw.want[filepath.Clean(name)]
}

// update watches the directories of paths (or their nearest existing
// ancestors) and each of files that exists, and makes paths, those missing
// ancestors and files the names whose events count. Directories already
// watched stay watched; a file whose watch ended (removed, renamed over)
// is watched again. It reports whether it added a directory or a file.
func (aw *admissionWatch) update(paths, files []string) bool {
	want := make(map[string]bool, len(paths)*2+len(files))
	var add []string
	aw.mu.Lock()
	for _, f := range files {
		f = filepath.Clean(f)
		want[f] = true
		if aw.dirs[filepath.Dir(f)] || watchedFile(aw.w, f) {
			continue
		}
		if fi, err := os.Stat(f); err == nil && !fi.IsDir() {
			add = append(add, f)
		}
	}
	for _, p := range paths {
		p = filepath.Clean(p)
		want[p] = true
		dir := filepath.Dir(p)
		for {
			if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
				break
			}
			want[dir] = true // its creation leads towards p
			parent := filepath.Dir(dir)
			if parent == dir {
				break
			}
			dir = parent
		}
		if !aw.dirs[dir] {
			aw.dirs[dir] = true
			add = append(add, dir)
		}
	}
	aw.want = want
	aw.mu.Unlock()
	added := false
	for _, d := range add {
		if err := aw.w.Add(d); err != nil {
			slog.Debug("configuration watch: cannot watch", "path", d, "err", err)
			continue
		}
		added = true
	}
	return added
}

// close stops the watch and waits for its goroutine.
func (aw *admissionWatch) close() {
	close(aw.stop)
	aw.w.Close()
	<-aw.done
}
