package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/truststore"
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

// TestWatchRemovedFileRecreatedBroken: a user config (and a plugin hooks
// file) removed and then written again broken is reported without a call:
// while the file is gone its directory is watched for that name only, and
// once it is back the file is watched on its own again and the directory
// dropped.
func TestWatchRemovedFileRecreatedBroken(t *testing.T) {
	home, cwd, plugin := t.TempDir(), t.TempDir(), t.TempDir()
	cfg := filepath.Join(home, "config.json")
	pluginHooks := filepath.Join(plugin, "hooks", "hooks.json")
	writeFileAll(t, cfg, `{"hooks": {"enabled": true}}`)
	writeFileAll(t, pluginHooks, `{"hooks": {}}`)
	s, got := openWatched(t, "s", home, cwd, plugin)
	defer s.Close()
	for _, f := range []string{cfg, pluginHooks} {
		if err := os.Remove(f); err != nil {
			t.Fatal(err)
		}
		waitFor(t, "the directory of removed "+f+" watched", func() bool { return hub.subscribed(s.watch)[filepath.Dir(f)] })
		before := s.watch.events.Load()
		writeFileAll(t, filepath.Join(filepath.Dir(f), "unrelated.json"), `{}`) // another name: not passed on
		time.Sleep(4 * WatchDebounce)
		if n := s.watch.events.Load() - before; n != 0 {
			t.Fatalf("%d events of another name in %s reached the session", n, filepath.Dir(f))
		}
		writeFileAll(t, f, `{"hooks": `)
		got.wait(t, "re-created broken", f)
		waitFor(t, f+" watched on its own again", func() bool {
			sub := hub.subscribed(s.watch)
			return sub[f] && !sub[filepath.Dir(f)]
		})
	}
	writeFileAll(t, cfg, `{"hooks": {"enabled": true}}`)
	got.quiet(t, "fixed")
	writeFileAll(t, cfg, `{"hooks": {"enabled": true},}`)
	got.wait(t, "broken again in place, on the file's own watch", cfg)
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

// TestWatchMissingSecurityDirIgnoresHomeWrites: before the first grant
// creates <home>/security/, a workspace-hook session waits for that name
// only: writes of other files in the home (the V2 database and its wake
// file) pass no event to the session and cause no re-evaluation; the
// grant of another process is pushed, after which the session watches
// the security directory and no longer the home.
func TestWatchMissingSecurityDirIgnoresHomeWrites(t *testing.T) {
	e := newClaudeEnv(t)
	writeJSON(t, filepath.Join(e.cwd, ".claude", "settings.json"), handlers(hook.PreToolUse, "", sh("true")))
	pushed := make(chan map[string]int, 8)
	opts := SessionOptions{ID: "s1", Cwd: e.cwd, Profile: ProfileClaude, UserConfigPath: filepath.Join(e.home, "config.json"),
		UserDir: e.claudeHome, ManagedSettingsPath: e.managed,
		Workspace: WorkspaceOptions{Feature: true, Home: e.home, Policy: truststore.PolicyUserDecides,
			OnAdmissionUpdated: func(c map[string]int) { pushed <- c }}}
	s, _ := NewSession(opts)
	defer s.Close()
	sec := filepath.Join(e.home, "security")
	if _, err := os.Stat(sec); !os.IsNotExist(err) {
		t.Fatalf("security directory: %v, want it missing", err)
	}
	waitFor(t, "first re-evaluation", func() bool { return s.watch.evals.Load() >= 1 })
	time.Sleep(2 * WatchDebounce)
	events, evals := s.watch.events.Load(), s.watch.evals.Load()
	db := filepath.Join(e.home, "hookside.db")
	for i := 0; i < 200; i++ {
		for _, p := range []string{db, db + "-wal", filepath.Join(e.home, "hookside.db-wake", "queued")} {
			writeFileAll(t, p, strings.Repeat("x", i))
		}
	}
	time.Sleep(4 * WatchDebounce)
	if n, m := s.watch.events.Load()-events, s.watch.evals.Load()-evals; n != 0 || m != 0 {
		t.Fatalf("600 writes into the home passed %d events to the session and caused %d re-evaluations; want none", n, m)
	}

	st := s.WorkspaceStatus()
	if len(st.Declarations) != 1 {
		t.Fatalf("%d declarations, want 1", len(st.Declarations))
	}
	other := truststore.Open(sec, truststore.Options{}) // another process's grant
	if err := truststore.GrantAll(other, opts.Cwd, st.Workspace.Root, st.Declarations); err != nil {
		t.Fatal(err)
	}
	select {
	case c := <-pushed:
		if c[string(truststore.TrustedPersistent)] != 1 {
			t.Fatalf("pushed %v, want one trusted", c)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the grant that created the security directory was not pushed")
	}
	waitFor(t, "security directory watched, home dropped", func() bool {
		sub := hub.subscribed(s.watch)
		return sub[sec] && !sub[e.home]
	})
}
