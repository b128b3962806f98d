package config

import (
	"path/filepath"
	"testing"

	"github.com/hookside/hookside/internal/hook"
)

const pluginHooks = `{
  "description": "demo",
  "hooks": {
    "PreToolUse": [{"matcher": "Bash", "hooks": [
      {"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/check.sh --fast", "timeout": 5, "async": false, "statusMessage": "checking"},
      {"type": "prompt", "prompt": "is this ok?"},
      {"type": "command", "command": "half", "timeout": 0.5}
    ]}],
    "Notification": [{"hooks": [{"type": "command", "command": "notify"}]}],
    "Stop": [{"hooks": [{"type": "command", "command": "bye"}, {"type": "http", "url": "https://x"}]}]
  }
}`

func TestParsePluginFile(t *testing.T) {
	t.Run("plugin_timeout_in_seconds", func(t *testing.T) {
		root := t.TempDir()
		path := writeFile(t, root, "hooks/hooks.json", pluginHooks)
		hooks, _ := ParsePluginFile(root, path, mustRead(t, path))
		if got := commands(hooks); !eq(got, []string{"${CLAUDE_PLUGIN_ROOT}/check.sh --fast", "half", "bye"}) {
			t.Fatalf("hooks %v", got)
		}
		if hooks[0].TimeoutMs != 5000 || hooks[1].TimeoutMs != 500 || hooks[2].TimeoutMs != hook.DefaultTimeoutMs {
			t.Fatalf("timeouts %d %d %d", hooks[0].TimeoutMs, hooks[1].TimeoutMs, hooks[2].TimeoutMs)
		}
		if hooks[0].MaxOutputBytes != hook.DefaultMaxOutputBytes || hooks[0].Args != nil || hooks[0].StatusMessage != "checking" {
			t.Fatalf("hook 0 %+v", hooks[0])
		}
	})

	t.Run("unsupported_plugin_event_skipped", func(t *testing.T) {
		root := t.TempDir()
		path := writeFile(t, root, "hooks/hooks.json", pluginHooks)
		_, diags := ParsePluginFile(root, path, mustRead(t, path))
		want := []string{hook.CodePluginUnsupportedType, hook.CodePluginUnsupportedEvent, hook.CodePluginUnsupportedType}
		if !eq(codes(diags), want) {
			t.Fatalf("diags %+v", diags)
		}
		for _, d := range diags {
			if d.Severity != hook.SeverityWarning {
				t.Errorf("severity %+v", d)
			}
		}
		if diags[1].Source != path+":9:5" {
			t.Errorf("source %q", diags[1].Source)
		}
	})

	t.Run("unsupported_plugin_type_skipped_keeps_indexes", func(t *testing.T) {
		root := t.TempDir()
		path := writeFile(t, root, "hooks/hooks.json", pluginHooks)
		hooks, _ := ParsePluginFile(root, path, mustRead(t, path))
		if hooks[1].HookIndex != 2 || hooks[1].ID != "plugin:"+path+"#PreToolUse[0][2]" {
			t.Fatalf("hook %+v", hooks[1])
		}
	})

	t.Run("process_type_is_not_a_plugin_type", func(t *testing.T) {
		hooks, diags := ParsePluginFile("/p", "/p/hooks/hooks.json", []byte(`{"hooks": {"Stop": [{"hooks": [{"type": "process", "command": "x"}]}]}}`))
		if len(hooks) != 0 || !eq(codes(diags), []string{hook.CodePluginUnsupportedType}) {
			t.Fatalf("hooks %v diags %+v", hooks, diags)
		}
	})

	t.Run("plugin_source_name_from_dir_and_data_dir", func(t *testing.T) {
		root := filepath.Join(t.TempDir(), "my-plugin")
		path := writeFile(t, root, "hooks/hooks.json", pluginHooks)
		hooks, _ := ParsePluginFile(root, path, mustRead(t, path))
		want := hook.Source{Kind: hook.SourcePlugin, Path: path, Name: "my-plugin", PluginRoot: root, PluginData: filepath.Join(root, ".data"), Dialect: hook.Plugin}
		if hooks[0].Source != want {
			t.Fatalf("source %+v, want %+v", hooks[0].Source, want)
		}
	})

	t.Run("plugin_source_name_from_manifest", func(t *testing.T) {
		root := filepath.Join(t.TempDir(), "dir-name")
		path := writeFile(t, root, "hooks/hooks.json", pluginHooks)
		writeFile(t, root, ".claude-plugin/plugin.json", `{"name": "pretty-name", "version": "1.0.0"}`)
		hooks, diags := ParsePluginFile(root, path, mustRead(t, path))
		if hooks[0].Source.Name != "pretty-name" || len(diags) != 3 {
			t.Fatalf("name %q diags %+v", hooks[0].Source.Name, diags)
		}
	})

	t.Run("broken_manifest_falls_back_to_dir_name", func(t *testing.T) {
		root := filepath.Join(t.TempDir(), "dir-name")
		path := writeFile(t, root, "hooks/hooks.json", `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x"}]}]}}`)
		mpath := writeFile(t, root, ".claude-plugin/plugin.json", `{"name": `)
		hooks, diags := ParsePluginFile(root, path, mustRead(t, path))
		if hooks[0].Source.Name != "dir-name" || !eq(codes(diags), []string{hook.CodePluginManifestInvalid}) || diags[0].Source != mpath+":1:10" {
			t.Fatalf("name %q diags %+v", hooks[0].Source.Name, diags)
		}
	})

	t.Run("broken_plugin_json_reports_line_and_column", func(t *testing.T) {
		hooks, diags := ParsePluginFile("/p", "/p/hooks/hooks.json", []byte("{\"hooks\": {\n  \"Stop\": [}\n}"))
		if len(hooks) != 0 || !eq(codes(diags), []string{hook.CodeParseError}) || diags[0].Source != "/p/hooks/hooks.json:2:12" {
			t.Fatalf("diags %+v", diags)
		}
	})

	t.Run("bad_plugin_timeout_dropped", func(t *testing.T) {
		hooks, diags := ParsePluginFile("/p", "/p/hooks/hooks.json", []byte(`{"hooks": {"Stop": [{"hooks": [
  {"type": "command", "command": "a", "timeout": 0},
  {"type": "command", "command": "b", "timeout": -1},
  {"type": "command", "command": "c", "timeout": "5"},
  {"type": "command", "command": "ok", "timeout": 600}]}]}}`))
		if !eq(commands(hooks), []string{"ok"}) || hooks[0].TimeoutMs != 600000 || !eq(codes(diags), []string{hook.CodeInvalidHook, hook.CodeInvalidHook, hook.CodeInvalidHook}) {
			t.Fatalf("hooks %+v diags %+v", hooks, diags)
		}
	})
}
