package runner

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookside/hookside/internal/hook"
)

// TestReloadDiagnostics: a user config that breaks after NewSession is
// reported once through OnDiagnostic with the code and file:line:col
// session/open would give, its hooks leave the plans (as for a file
// broken at open), a reload caused by another file does not repeat it,
// and once the file is fixed, breaking it again reports it again.
func TestReloadDiagnostics(t *testing.T) {
	home, cwd, plugin := t.TempDir(), t.TempDir(), t.TempDir()
	cfg := filepath.Join(home, "config.json")
	good := `{"hooks": {"enabled": true, "events": {"PreToolUse": [{"hooks": [{"type": "command", "command": "exit 2"}]}]}}}`
	broken := good[:len(good)-1] + ",}"
	pluginHooks := filepath.Join(plugin, "hooks", "hooks.json")
	write := func(p, s string) { t.Helper(); writeFileAll(t, p, s) }
	write(cfg, good)
	write(pluginHooks, `{"hooks": {"PostToolUse": [{"matcher": "Write", "hooks": [{"type": "command", "command": "true"}]}]}}`)

	var mu sync.Mutex
	var got []hook.Diagnostic
	s, diags, err := Open(SessionOptions{ID: "s", Cwd: cwd, PluginDirs: []string{plugin}, Workspace: WorkspaceOptions{Home: home},
		OnDiagnostic: func(d hook.Diagnostic) { mu.Lock(); got = append(got, d); mu.Unlock() }})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if len(diags) != 0 {
		t.Fatalf("open diagnostics %v", diags)
	}
	// userHooks is the user hooks now, after a reload (Hooks re-reads).
	userHooks := func() int {
		hooks, _ := s.Hooks()
		n := 0
		for _, h := range hooks {
			if h.Source.Kind == hook.SourceUser {
				n++
			}
		}
		return n
	}
	pushed := func() []hook.Diagnostic {
		mu.Lock()
		defer mu.Unlock()
		out := got
		got = nil
		return out
	}
	if userHooks() != 1 || len(pushed()) != 0 {
		t.Fatal("good file: want the guard and no diagnostic")
	}

	write(cfg, broken)
	if n := userHooks(); n != 0 {
		t.Fatalf("broken file: %d user hooks, want none (as at open)", n)
	}
	p := pushed()
	at := fmt.Sprintf("%s:1:%d", cfg, strings.Index(broken, ",}")+1) // the trailing comma
	if len(p) != 1 || p[0].Code != hook.CodeParseError || p[0].Severity != hook.SeverityError || p[0].Source != at {
		t.Fatalf("broken file: pushed %v; want one %s at %s", p, hook.CodeParseError, at)
	}
	// The diagnostic is the one a session opened on the broken file reports.
	s2, open2, _ := Open(SessionOptions{ID: "s2", Cwd: cwd, Workspace: WorkspaceOptions{Home: home}})
	s2.Close()
	if len(open2) != 1 || open2[0] != p[0] {
		t.Fatalf("session/open on the broken file: %v; pushed %v", open2, p[0])
	}

	write(pluginHooks, `{"hooks": {"PostToolUse": [{"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "true"}]}]}}`)
	if userHooks(); len(pushed()) != 0 {
		t.Fatal("another file's reload repeated the diagnostic")
	}
	write(cfg, good)
	if n := userHooks(); n != 1 || len(pushed()) != 0 {
		t.Fatalf("fixed: %d user hooks, want 1 and no diagnostic", n)
	}
	write(cfg, broken)
	if userHooks(); len(pushed()) != 1 {
		t.Fatal("broken again: want the diagnostic pushed again")
	}
}

// TestWatchReportsBrokenFilesWithoutACall: with OnDiagnostic set, the
// session's watch re-reads an edited user config or plugin file and
// reports what broke without any call of the host (no Hooks, no Run),
// whether the file is written in place or replaced by a rename (an
// editor's atomic save, after which the file is watched again).
func TestWatchReportsBrokenFilesWithoutACall(t *testing.T) {
	home, cwd, plugin := t.TempDir(), t.TempDir(), t.TempDir()
	cfg := filepath.Join(home, "config.json")
	pluginHooks := filepath.Join(plugin, "hooks", "hooks.json")
	good, broken := `{"hooks": {"enabled": true}}`, `{"hooks": {"enabled": true},}`
	write := func(p, s string) { t.Helper(); writeFileAll(t, p, s) }
	save := func(p, s string) { // write a temporary file, rename it over p
		t.Helper()
		write(p+".tmp", s)
		if err := os.Rename(p+".tmp", p); err != nil {
			t.Fatal(err)
		}
	}
	write(cfg, good)
	write(pluginHooks, `{"hooks": {}}`)
	got := make(chan hook.Diagnostic, 8)
	s, _, err := Open(SessionOptions{ID: "s", Cwd: cwd, PluginDirs: []string{plugin}, Workspace: WorkspaceOptions{Home: home},
		OnDiagnostic: func(d hook.Diagnostic) { got <- d }})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	wait := func(what, file string) {
		t.Helper()
		select {
		case d := <-got:
			if d.Code != hook.CodeParseError || !strings.HasPrefix(d.Source, file+":") {
				t.Fatalf("%s: pushed %+v, want %s at %s", what, d, hook.CodeParseError, file)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: no diagnostic within 5 s of the edit (the watch re-reads after %s)", what, WatchDebounce)
		}
	}
	quiet := func(what string) {
		t.Helper()
		select {
		case d := <-got:
			t.Fatalf("%s: pushed %+v, want nothing", what, d)
		case <-time.After(4 * WatchDebounce):
		}
	}
	write(cfg, broken)
	wait("user config broken in place", cfg)
	save(pluginHooks, `{"hooks": `)
	wait("plugin hooks file broken by a rename", pluginHooks)
	save(cfg, good)
	quiet("user config fixed by a rename")
	write(cfg, broken)
	wait("user config broken again, after the rename", cfg)
}

// writeFileAll writes s to p, creating its directories.
func writeFileAll(t *testing.T, p, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestHooksDiagnosticsOnce: a claude session whose cwd is the parent of
// Claude Code's home reads <cwd>/.claude/settings.json as both the user
// and the project settings; a problem in it is returned once by Hooks and
// by NewSession, and pushed once.
func TestHooksDiagnosticsOnce(t *testing.T) {
	for _, content := range []string{`{"hooks": {},}`, `{"disableAllHooks": "yes"}`} {
		e := newClaudeEnv(t)
		e.claudeHome = filepath.Join(e.cwd, ".claude")
		settings := filepath.Join(e.claudeHome, "settings.json")
		var mu sync.Mutex
		pushed := 0
		s := e.open(t, SessionOptions{OnDiagnostic: func(hook.Diagnostic) { mu.Lock(); pushed++; mu.Unlock() }})
		writeFileAll(t, settings, content)
		_, diags := s.Hooks()
		if len(diags) != 1 || !strings.HasPrefix(diags[0].Source, settings+":") {
			t.Fatalf("%s: Hooks returned %v, want one diagnostic at %s", content, diags, settings)
		}
		mu.Lock()
		n := pushed
		mu.Unlock()
		if n != 1 {
			t.Fatalf("%s: pushed %d times, want once", content, n)
		}
		s2, open := NewSession(s.opts)
		s2.Close()
		if len(open) != 1 {
			t.Fatalf("%s: NewSession returned %v, want one diagnostic", content, open)
		}
	}
}
