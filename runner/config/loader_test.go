package config

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hookside/hookside/internal/hook"
)

const (
	userOn = `{"hooks": {"enabled": true, "events": {
  "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "process", "command": "user-pre"}]}],
  "Stop": [{"hooks": [{"type": "process", "command": "user-stop"}]}]}}}`
	userNoEnabled = `{"hooks": {"events": {
  "PreToolUse": [{"hooks": [{"type": "process", "command": "user-pre"}]}]}}}`
	userOff = `{"hooks": {"enabled": false, "events": {
  "PreToolUse": [{"hooks": [{"type": "process", "command": "user-pre"}]}]}}}`
	pluginPre = `{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "plugin-pre"}]}]}}`
)

// env is a home dir with an optional user config and plugins.
type env struct {
	t       *testing.T
	dir     string
	user    string
	plugins []string
}

func newEnv(t *testing.T, user string, plugins ...string) *env {
	e := &env{t: t, dir: t.TempDir()}
	e.user = filepath.Join(e.dir, "config.json")
	if user != "" {
		writeFile(t, e.dir, "config.json", user)
	}
	for i, p := range plugins {
		root := filepath.Join(e.dir, "plugins", string(rune('a'+i)))
		writeFile(t, root, "hooks/hooks.json", p)
		e.plugins = append(e.plugins, root)
	}
	return e
}

func (e *env) loader(internal ...hook.Hook) *Loader {
	return NewLoader(LoaderOptions{UserConfigPath: e.user, PluginDirs: e.plugins, Internal: internal})
}

func load(t testing.TB, l *Loader) *Set {
	t.Helper()
	s, err := l.Load()
	if err != nil || s == nil {
		t.Fatalf("Load: %v", err)
	}
	return s
}

func TestLoad(t *testing.T) {
	t.Run("user_hooks_off_without_enabled", func(t *testing.T) {
		s := load(t, newEnv(t, userNoEnabled).loader())
		if len(s.Hooks) != 0 || s.RootEnabled {
			t.Fatalf("hooks %v root %v", commands(s.Hooks), s.RootEnabled)
		}
		if !eq(codes(s.Diagnostics), []string{hook.CodeHooksDisabled}) || s.Diagnostics[0].Severity != hook.SeverityInfo {
			t.Fatalf("diags %+v", s.Diagnostics)
		}
	})

	t.Run("user_config_is_a_directory", func(t *testing.T) {
		e := newEnv(t, "")
		if err := os.Mkdir(e.user, 0o700); err != nil {
			t.Fatal(err)
		}
		s := load(t, e.loader())
		want := e.user + " is a directory, not a file"
		if len(s.Diagnostics) != 1 || s.Diagnostics[0].Code != hook.CodeReadError || s.Diagnostics[0].Message != want {
			t.Fatalf("diags %+v, want one %s %q", s.Diagnostics, hook.CodeReadError, want)
		}
	})

	t.Run("user_hooks_on_with_enabled", func(t *testing.T) {
		s := load(t, newEnv(t, userOn).loader())
		if !eq(commands(s.Hooks), []string{"user-pre", "user-stop"}) || !s.RootEnabled || len(s.Diagnostics) != 0 {
			t.Fatalf("hooks %v root %v diags %+v", commands(s.Hooks), s.RootEnabled, s.Diagnostics)
		}
	})

	t.Run("file_enabled_false_drops_its_hooks", func(t *testing.T) {
		s := load(t, newEnv(t, userOff, pluginPre).loader())
		if !eq(commands(s.Hooks), []string{"plugin-pre"}) || s.RootEnabled || len(s.Diagnostics) != 0 {
			t.Fatalf("hooks %v diags %+v", commands(s.Hooks), s.Diagnostics)
		}
		if w := s.WithRootEnabled(); !eq(commands(w.Hooks), []string{"plugin-pre"}) {
			t.Fatalf("explicit false must stay off: %v", commands(w.Hooks))
		}
	})

	t.Run("declaration_enabled_false_dropped", func(t *testing.T) {
		s := load(t, newEnv(t, `{"hooks": {"enabled": true, "events": {"Stop": [{"hooks": [
  {"type": "process", "command": "off", "enabled": false},
  {"type": "process", "command": "on", "enabled": true}]}]}}}`,
			`{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "p-off", "enabled": false}, {"type": "command", "command": "p-on"}]}]}}`).loader(
			hook.Hook{Event: hook.Stop, Command: "i-off", Enabled: boolp(false)}, hook.Hook{Event: hook.Stop, Command: "i-on"}))
		if !eq(commands(s.Hooks), []string{"on", "p-on", "i-on"}) {
			t.Fatalf("hooks %v", commands(s.Hooks))
		}
	})

	// Spec §"插件钩子与工作区钩子" (runtime-config.ts:264): in the original a
	// plugin with hooks forces the merged hooks.enabled to true, so user
	// hooks whose file omits enabled start running. hookside fixes that.
	t.Run("plugin_hooks_do_not_enable_user_hooks", func(t *testing.T) {
		s := load(t, newEnv(t, userNoEnabled, pluginPre).loader())
		if !eq(commands(s.Hooks), []string{"plugin-pre"}) {
			t.Fatalf("only the plugin hook may run: %v", commands(s.Hooks))
		}
		if s.RootEnabled {
			t.Fatal("a plugin must not switch the root on")
		}
		if got := commands(s.ForEvent(hook.PreToolUse)); !eq(got, []string{"plugin-pre"}) {
			t.Fatalf("ForEvent %v", got)
		}
	})

	t.Run("plugin_hooks_run_without_user_config", func(t *testing.T) {
		s := load(t, newEnv(t, "", pluginPre).loader())
		if !eq(commands(s.Hooks), []string{"plugin-pre"}) || len(s.Diagnostics) != 0 {
			t.Fatalf("hooks %v diags %+v", commands(s.Hooks), s.Diagnostics)
		}
	})

	t.Run("missing_user_config_is_no_hooks_no_diagnostic", func(t *testing.T) {
		s := load(t, newEnv(t, "").loader())
		if len(s.Hooks) != 0 || len(s.Diagnostics) != 0 || s.RootEnabled || s.UserLimits != (hook.Limits{TimeoutMs: hook.DefaultTimeoutMs, MaxOutputBytes: hook.DefaultMaxOutputBytes}) {
			t.Fatalf("set %+v", s)
		}
		s = load(t, NewLoader(LoaderOptions{}))
		if len(s.Hooks) != 0 || len(s.Diagnostics) != 0 {
			t.Fatalf("empty options: %+v", s)
		}
	})

	t.Run("plugin_without_hooks_file_is_fine", func(t *testing.T) {
		l := NewLoader(LoaderOptions{PluginDirs: []string{t.TempDir()}})
		if s := load(t, l); len(s.Hooks) != 0 || len(s.Diagnostics) != 0 {
			t.Fatalf("set %+v", s)
		}
	})

	t.Run("missing_plugin_dir_warns_until_it_appears", func(t *testing.T) {
		base := t.TempDir()
		gone, file := filepath.Join(base, "gone"), filepath.Join(base, "file")
		writeFile(t, base, "file", "{}")
		l := NewLoader(LoaderOptions{PluginDirs: []string{gone, file}})
		s := load(t, l)
		if !eq(codes(s.Diagnostics), []string{hook.CodePluginDirNotFound, hook.CodePluginDirNotFound}) {
			t.Fatalf("diags %+v", s.Diagnostics)
		}
		for i, want := range []struct{ src, msg string }{
			{gone, "the plugin directory does not exist; its hooks do not load"},
			{file, "the plugin directory is a regular file, not a directory; its hooks do not load"},
		} {
			if d := s.Diagnostics[i]; d.Source != want.src || d.Message != want.msg || d.Severity != hook.SeverityWarning {
				t.Errorf("diag %d = %+v, want source %q message %q", i, d, want.src, want.msg)
			}
		}
		if again := load(t, l); again != s {
			t.Fatal("nothing changed, yet the set was rebuilt")
		}
		writeFile(t, gone, "hooks/hooks.json", pluginPre)
		s = load(t, l)
		if !eq(commands(s.Hooks), []string{"plugin-pre"}) || !eq(codes(s.Diagnostics), []string{hook.CodePluginDirNotFound}) {
			t.Fatalf("after creating the plugin: hooks %v diags %+v", commands(s.Hooks), s.Diagnostics)
		}
	})

	t.Run("other_sources_still_load_after_broken_file", func(t *testing.T) {
		e := newEnv(t, "{\n  \"hooks\": {\"enabled\": true,,}\n}", `{"hooks": {`, pluginPre)
		s := load(t, e.loader(hook.Hook{Event: hook.PreToolUse, Command: "internal"}))
		if !eq(commands(s.Hooks), []string{"plugin-pre", "internal"}) {
			t.Fatalf("hooks %v", commands(s.Hooks))
		}
		if !eq(codes(s.Diagnostics), []string{hook.CodeParseError, hook.CodeParseError}) {
			t.Fatalf("diags %+v", s.Diagnostics)
		}
		if s.Diagnostics[0].Source != e.user+":2:29" || s.Diagnostics[1].Source != filepath.Join(e.plugins[0], "hooks", "hooks.json")+":1:12" {
			t.Fatalf("sources %q %q", s.Diagnostics[0].Source, s.Diagnostics[1].Source)
		}
	})

	t.Run("unreadable_user_config_is_a_diagnostic", func(t *testing.T) {
		e := newEnv(t, "")
		if err := os.Mkdir(e.user, 0o755); err != nil { // a directory, not a file
			t.Fatal(err)
		}
		s := load(t, e.loader(hook.Hook{Event: hook.Stop, Command: "internal"}))
		if !eq(codes(s.Diagnostics), []string{hook.CodeReadError}) || !eq(commands(s.Hooks), []string{"internal"}) {
			t.Fatalf("set %+v", s)
		}
	})

	t.Run("source_order_user_workspace_plugin_internal", func(t *testing.T) {
		e := newEnv(t, userOn, pluginPre, `{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "plugin2-pre"}]}]}}`)
		s := load(t, e.loader(hook.Hook{Event: hook.PreToolUse, Command: "internal-pre", Source: hook.Source{Name: "mailbox"}}))
		if got := commands(s.ForEvent(hook.PreToolUse)); !eq(got, []string{"user-pre", "plugin-pre", "plugin2-pre", "internal-pre"}) {
			t.Fatalf("order %v", got)
		}
		ws := []hook.Hook{{Event: hook.PreToolUse, Command: "ws-pre", Source: hook.Source{Kind: hook.SourceWorkspace}}}
		w := s.WithWorkspace(ws)
		if got := commands(w.ForEvent(hook.PreToolUse)); !eq(got, []string{"user-pre", "ws-pre", "plugin-pre", "plugin2-pre", "internal-pre"}) {
			t.Fatalf("with workspace %v", got)
		}
		ws2 := []hook.Hook{{Event: hook.PreToolUse, Command: "ws2-pre", Source: hook.Source{Kind: hook.SourceWorkspace}}}
		if got := commands(w.WithWorkspace(ws2).ForEvent(hook.PreToolUse)); !eq(got, []string{"user-pre", "ws2-pre", "plugin-pre", "plugin2-pre", "internal-pre"}) {
			t.Fatalf("WithWorkspace must replace: %v", got)
		}
		if got := commands(s.ForEvent(hook.PreToolUse)); len(got) != 4 || w.Version != s.Version {
			t.Fatalf("the loaded set must not change: %v", got)
		}
		last := s.Hooks[len(s.Hooks)-1]
		if last.ID != "internal:mailbox#PreToolUse[0][0]" || last.Source.Kind != hook.SourceInternal || last.TimeoutMs != hook.DefaultTimeoutMs {
			t.Fatalf("internal hook %+v", last)
		}
	})

	t.Run("workspace_slot_without_user_hooks_is_first", func(t *testing.T) {
		s := load(t, newEnv(t, userNoEnabled, pluginPre).loader())
		w := s.WithWorkspace([]hook.Hook{{Event: hook.PreToolUse, Command: "ws-pre", Source: hook.Source{Kind: hook.SourceWorkspace}}})
		if got := commands(w.Hooks); !eq(got, []string{"ws-pre", "plugin-pre"}) {
			t.Fatalf("order %v", got)
		}
	})

	// A workspace file's hooks.enabled:true may open the root switch
	// (workspace-hook-config.ts:130); the loader keeps the user hooks that
	// are off only by default so that case can bring them back.
	t.Run("workspace_root_switch_brings_back_default_off_user_hooks", func(t *testing.T) {
		s := load(t, newEnv(t, userNoEnabled, pluginPre).loader())
		r := s.WithRootEnabled()
		if !r.RootEnabled || !eq(commands(r.Hooks), []string{"user-pre", "plugin-pre"}) {
			t.Fatalf("hooks %v", commands(r.Hooks))
		}
		w := r.WithWorkspace([]hook.Hook{{Event: hook.PreToolUse, Command: "ws", Source: hook.Source{Kind: hook.SourceWorkspace}}})
		if !eq(commands(w.Hooks), []string{"user-pre", "ws", "plugin-pre"}) {
			t.Fatalf("hooks %v", commands(w.Hooks))
		}
		if r.WithRootEnabled() != r {
			t.Fatal("already on: same set")
		}
	})

	t.Run("plugin_limits_fall_back_to_user_config", func(t *testing.T) {
		e := newEnv(t, `{"hooks": {"timeoutMs": 9000, "maxOutputBytes": 99}}`,
			`{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "a"}, {"type": "command", "command": "b", "timeout": 2}]}]}}`)
		s := load(t, e.loader())
		if a, b := s.Hooks[0], s.Hooks[1]; a.TimeoutMs != 9000 || a.MaxOutputBytes != 99 || b.TimeoutMs != 2000 || b.MaxOutputBytes != 99 {
			t.Fatalf("hooks %+v", s.Hooks)
		}
		if s.UserLimits != (hook.Limits{TimeoutMs: 9000, MaxOutputBytes: 99}) {
			t.Fatalf("user limits %+v", s.UserLimits)
		}
	})

	t.Run("storage_dir_exposed", func(t *testing.T) {
		s := load(t, newEnv(t, `{"storage": {"dir": "/data/hs"}}`).loader())
		if s.StorageDir != "/data/hs" {
			t.Fatalf("storage %q", s.StorageDir)
		}
	})

	t.Run("duplicate_plugin_dirs_loaded_once", func(t *testing.T) {
		e := newEnv(t, "", pluginPre)
		l := NewLoader(LoaderOptions{PluginDirs: []string{e.plugins[0], e.plugins[0] + string(filepath.Separator)}})
		if s := load(t, l); len(s.Hooks) != 1 {
			t.Fatalf("hooks %v", commands(s.Hooks))
		}
	})
}

func TestLoadCache(t *testing.T) {
	t.Run("no_reread_when_unchanged", func(t *testing.T) {
		e := newEnv(t, userOn, pluginPre)
		l := e.loader()
		s1 := load(t, l)
		s2 := load(t, l)
		if s1 != s2 || s1.Version != 1 {
			t.Fatalf("same pointer expected: %p %p v%d", s1, s2, s1.Version)
		}
	})

	t.Run("reload_on_change", func(t *testing.T) {
		e := newEnv(t, userOn, pluginPre)
		l := e.loader()
		s1 := load(t, l)
		writeFile(t, e.dir, "config.json", userOff) // different size
		s2 := load(t, l)
		if s2 == s1 || s2.Version != s1.Version+1 || !eq(commands(s2.Hooks), []string{"plugin-pre"}) {
			t.Fatalf("not reloaded: v%d %v", s2.Version, commands(s2.Hooks))
		}
		if s3 := load(t, l); s3 != s2 {
			t.Fatal("unchanged after reload must be cached")
		}
	})

	t.Run("reload_on_mtime_change_same_size", func(t *testing.T) {
		e := newEnv(t, userOn)
		l := e.loader()
		s1 := load(t, l)
		same := []byte(userOn)
		copy(same[len(`{"hooks": {"enabled": `):], "false")
		same = append(same[:len(`{"hooks": {"enabled": false`)], same[len(`{"hooks": {"enabled": false`)+1:]...)
		same = append(same, ' ') // keep the size identical
		if len(same) != len(userOn) {
			t.Fatalf("test setup: %d vs %d", len(same), len(userOn))
		}
		if err := os.WriteFile(e.user, same, 0o644); err != nil {
			t.Fatal(err)
		}
		later := time.Now().Add(time.Hour)
		if err := os.Chtimes(e.user, later, later); err != nil {
			t.Fatal(err)
		}
		s2 := load(t, l)
		if s2 == s1 || len(s2.Hooks) != 0 {
			t.Fatalf("not reloaded: %v", commands(s2.Hooks))
		}
	})

	t.Run("reload_on_inode_change", func(t *testing.T) {
		e := newEnv(t, userOn)
		l := e.loader()
		s1 := load(t, l)
		fi, err := os.Stat(e.user)
		if err != nil {
			t.Fatal(err)
		}
		// Atomic replace with the same size and mtime: only the inode differs.
		tmp := writeFile(t, e.dir, "config.json.tmp", userOn)
		if err := os.Chtimes(tmp, fi.ModTime(), fi.ModTime()); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, e.user); err != nil {
			t.Fatal(err)
		}
		if s2 := load(t, l); s2 == s1 || s2.Version != 2 {
			t.Fatal("inode change not noticed")
		}
	})

	t.Run("reload_on_plugin_change_and_removal", func(t *testing.T) {
		e := newEnv(t, "", pluginPre)
		l := e.loader()
		s1 := load(t, l)
		writeFile(t, e.plugins[0], ".claude-plugin/plugin.json", `{"name": "renamed"}`)
		s2 := load(t, l)
		if s2 == s1 || s2.Hooks[0].Source.Name != "renamed" {
			t.Fatalf("manifest change not noticed: %+v", s2.Hooks)
		}
		if err := os.Remove(filepath.Join(e.plugins[0], "hooks", "hooks.json")); err != nil {
			t.Fatal(err)
		}
		if s3 := load(t, l); s3 == s2 || len(s3.Hooks) != 0 {
			t.Fatalf("removal not noticed: %v", commands(s3.Hooks))
		}
	})

	t.Run("user_config_created_later", func(t *testing.T) {
		e := newEnv(t, "")
		l := e.loader()
		s1 := load(t, l)
		writeFile(t, e.dir, "config.json", userOn)
		if s2 := load(t, l); s2 == s1 || len(s2.Hooks) != 2 {
			t.Fatalf("creation not noticed")
		}
	})

	t.Run("concurrent_loads_share_one_set", func(t *testing.T) {
		l := newEnv(t, userOn, pluginPre).loader()
		first := load(t, l)
		done := make(chan *Set)
		for range 8 {
			go func() { s, _ := l.Load(); done <- s }()
		}
		for range 8 {
			if s := <-done; s != first {
				t.Error("different set")
			}
		}
	})
}

func TestForEvent(t *testing.T) {
	s := load(t, newEnv(t, userOn, pluginPre).loader())
	t.Run("unknown_event_is_empty", func(t *testing.T) {
		if s.ForEvent("Notification") != nil || (*Set)(nil).ForEvent(hook.Stop) != nil || s.ForEvent(hook.SessionStart) != nil {
			t.Fatal("want nil")
		}
	})
	t.Run("does_not_allocate", func(t *testing.T) {
		if n := testing.AllocsPerRun(100, func() { _ = s.ForEvent(hook.PreToolUse) }); n != 0 {
			t.Fatalf("%v allocs", n)
		}
	})
	t.Run("append_does_not_clobber_the_set", func(t *testing.T) {
		pre := s.ForEvent(hook.PreToolUse)
		_ = append(pre, hook.Hook{Command: "x"})
		stop := s.ForEvent(hook.Stop)
		if !eq(commands(stop), []string{"user-stop"}) || len(s.ForEvent(hook.PreToolUse)) != 2 {
			t.Fatalf("set changed: %v", commands(stop))
		}
	})
}

func BenchmarkLoadUnchanged(b *testing.B) {
	dir := b.TempDir()
	user := writeFile(b, dir, "config.json", userOn)
	var plugins []string
	for _, name := range []string{"p1", "p2", "p3"} {
		root := filepath.Join(dir, name)
		writeFile(b, root, "hooks/hooks.json", pluginPre)
		plugins = append(plugins, root)
	}
	l := NewLoader(LoaderOptions{UserConfigPath: user, PluginDirs: plugins})
	first, _ := l.Load()
	b.ReportAllocs()
	for b.Loop() {
		if s, _ := l.Load(); s != first {
			b.Fatal("reloaded")
		}
	}
}

// TestLoadNamedUserConfigMissing: a named user config that does not exist
// is one config_file_not_found warning (source its absolute path) until it
// appears; the default path missing says nothing.
func TestLoadNamedUserConfigMissing(t *testing.T) {
	e := newEnv(t, "")
	if s := load(t, e.loader()); len(s.Diagnostics) != 0 {
		t.Fatalf("default path missing: diagnostics %+v, want none", s.Diagnostics)
	}
	l := NewLoader(LoaderOptions{UserConfigPath: e.user, UserConfigNamed: true})
	s := load(t, l)
	if len(s.Diagnostics) != 1 || s.Diagnostics[0].Code != hook.CodeConfigNotFound || s.Diagnostics[0].Severity != hook.SeverityWarning || s.Diagnostics[0].Source != e.user {
		t.Fatalf("named path missing: diagnostics %+v, want one %s warning for %s", s.Diagnostics, hook.CodeConfigNotFound, e.user)
	}
	writeFile(t, e.dir, "config.json", userOn)
	if s := load(t, l); len(s.Diagnostics) != 0 || !eq(commands(s.Hooks), []string{"user-pre", "user-stop"}) {
		t.Fatalf("after the file appears: diagnostics %+v, hooks %v", s.Diagnostics, commands(s.Hooks))
	}
	if err := os.Mkdir(filepath.Join(e.dir, "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	l = NewLoader(LoaderOptions{UserConfigPath: filepath.Join(e.dir, "d"), UserConfigNamed: true})
	if s := load(t, l); len(s.Diagnostics) != 1 || s.Diagnostics[0].Code != hook.CodeReadError {
		t.Fatalf("named path a directory: diagnostics %+v, want only %s", s.Diagnostics, hook.CodeReadError)
	}
}
