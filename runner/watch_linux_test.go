package runner

import (
	"os"
	"path/filepath"
	"testing"
)

// inotifyInstances counts this process's inotify descriptors.
func inotifyInstances(t *testing.T) int {
	t.Helper()
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, fd := range fds {
		if l, err := os.Readlink(filepath.Join("/proc/self/fd", fd.Name())); err == nil && l == "anon_inode:inotify" {
			n++
		}
	}
	return n
}

// TestWatchManySessionsOneInstance: 200 watched sessions (more than
// fs.inotify.max_user_instances' default of 128) hold one inotify
// instance between them, and each gets the diagnostic of an edit.
func TestWatchManySessionsOneInstance(t *testing.T) {
	home, cwd, plugin := t.TempDir(), t.TempDir(), t.TempDir()
	cfg := filepath.Join(home, "config.json")
	writeFileAll(t, cfg, `{"hooks": {"enabled": true}}`)
	base := inotifyInstances(t)
	var waiters []diagWaiter
	for i := 0; i < 200; i++ {
		s, got := openWatched(t, "s", home, cwd, plugin)
		defer s.Close()
		waiters = append(waiters, got)
	}
	if n := inotifyInstances(t) - base; n > 1 {
		t.Fatalf("200 sessions hold %d more inotify instances, want at most 1 (shared)", n)
	}
	writeFileAll(t, cfg, `{"hooks": {"enabled": true},}`)
	for _, got := range waiters {
		got.wait(t, "one of 200 sessions", cfg)
	}
}
