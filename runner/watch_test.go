package runner

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookside/hookside/internal/hook"
)

// diagWaiter is a session's OnDiagnostic feeding a channel, with helpers
// waiting for a parse error at a file or for silence.
type diagWaiter chan hook.Diagnostic

func (c diagWaiter) wait(t *testing.T, what, file string) {
	t.Helper()
	select {
	case d := <-c:
		if d.Code != hook.CodeParseError || !strings.HasPrefix(d.Source, file+":") {
			t.Fatalf("%s: pushed %+v, want %s at %s", what, d, hook.CodeParseError, file)
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("%s: no diagnostic within 5 s (the watch re-reads %s after the edit)", what, WatchDebounce)
	}
}

func (c diagWaiter) quiet(t *testing.T, what string) {
	t.Helper()
	select {
	case d := <-c:
		t.Fatalf("%s: pushed %+v, want nothing", what, d)
	case <-time.After(4 * WatchDebounce):
	}
}

// openWatched opens a zcode session on home's config.json and plugin
// whose OnDiagnostic feeds the returned channel.
func openWatched(t *testing.T, id, home, cwd, plugin string) (*Session, diagWaiter) {
	t.Helper()
	got := make(diagWaiter, 8)
	s, _, err := Open(SessionOptions{ID: id, Cwd: cwd, PluginDirs: []string{plugin}, Workspace: WorkspaceOptions{Home: home},
		OnDiagnostic: func(d hook.Diagnostic) { got <- d }})
	if err != nil {
		t.Fatal(err)
	}
	if s.watch == nil {
		t.Fatal("no watch")
	}
	return s, got
}

// TestWatchSharedBetweenSessions: two sessions on the same files share the
// process's watcher (one subscription per path each, one kernel watch per
// path), both get the diagnostic of an edit, and closing one leaves the
// other's watch working.
func TestWatchSharedBetweenSessions(t *testing.T) {
	home, cwd, plugin := t.TempDir(), t.TempDir(), t.TempDir()
	cfg := filepath.Join(home, "config.json")
	pluginHooks := filepath.Join(plugin, "hooks", "hooks.json")
	writeFileAll(t, cfg, `{"hooks": {"enabled": true}}`)
	writeFileAll(t, pluginHooks, `{"hooks": {}}`)
	a, gotA := openWatched(t, "a", home, cwd, plugin)
	defer a.Close()
	b, gotB := openWatched(t, "b", home, cwd, plugin)
	defer b.Close()
	for _, s := range []*Session{a, b} {
		if sub := hub.subscribed(s.watch); !sub[cfg] || !sub[pluginHooks] || sub[home] {
			t.Fatalf("session %s subscribes to %v; want %s and %s on their own, not the home", s.opts.ID, sub, cfg, pluginHooks)
		}
	}
	hub.mu.Lock()
	n := len(hub.subs[cfg])
	hub.mu.Unlock()
	if n != 2 {
		t.Fatalf("%d sessions subscribed to %s, want 2", n, cfg)
	}
	kernel := 0
	for _, p := range hub.w.WatchList() {
		if p == cfg {
			kernel++
		}
	}
	if kernel != 1 {
		t.Fatalf("%s watched %d times by the shared watcher, want once", cfg, kernel)
	}

	writeFileAll(t, cfg, `{"hooks": {"enabled": true},}`)
	gotA.wait(t, "session a, user config broken", cfg)
	gotB.wait(t, "session b, user config broken", cfg)

	a.Close()
	if sub := hub.subscribed(a.watch); len(sub) != 0 {
		t.Fatalf("closed session still subscribed to %v", sub)
	}
	writeFileAll(t, pluginHooks, `{"hooks": `)
	gotB.wait(t, "session b after a closed, plugin file broken", pluginHooks)
	gotA.quiet(t, "closed session a")
	if !watchedBy(cfg) {
		t.Fatalf("closing a removed the kernel watch b still needs on %s", cfg)
	}
}

// watchedBy reports whether the shared watcher watches path now.
func watchedBy(path string) bool {
	hub.mu.Lock()
	w := hub.w
	hub.mu.Unlock()
	if w == nil {
		return false
	}
	for _, p := range w.WatchList() {
		if p == path {
			return true
		}
	}
	return false
}

// waitFor polls cond for up to 5 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(5 * time.Second); !cond(); {
		if time.Now().After(end) {
			t.Fatalf("%s: not within 5 s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
