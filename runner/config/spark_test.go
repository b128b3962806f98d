package config

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hookside/hookside/internal/hook"
)

func TestParseSparkFile(t *testing.T) {
	t.Run("claude_code_shape_timeout_seconds_default_60000", func(t *testing.T) {
		doc := `{"permissions": {"allow": []}, "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
			{"type": "command", "command": "a.sh", "timeout": 5, "statusMessage": "checking", "async": true},
			{"type": "command", "command": "b.sh"}]}]}}`
		f, diags := ParseSettingsFile(hook.Spark, "/u/settings.json", []byte(doc), hook.SourceUser)
		if len(diags) != 0 {
			t.Fatalf("diags %+v", diags)
		}
		if !eq(commands(f.Hooks), []string{"a.sh", "b.sh"}) {
			t.Fatalf("hooks %+v", f.Hooks)
		}
		h := f.Hooks[0]
		if h.TimeoutMs != 5000 || !h.Async || h.StatusMessage != "checking" || h.Type != hook.TypeCommand || h.ID != "user:/u/settings.json#PreToolUse[0][0]" {
			t.Fatalf("hook %+v", h)
		}
		if f.Hooks[1].TimeoutMs != hook.DefaultTimeoutMs {
			t.Fatalf("default timeout %d", f.Hooks[1].TimeoutMs)
		}
	})

	t.Run("exec_form_args_become_a_process_hook", func(t *testing.T) {
		doc := `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "node", "args": ["x.mjs", "a b"], "shell": true}]}]}}`
		f, diags := ParseSettingsFile(hook.Spark, "/p", []byte(doc), hook.SourceWorkspace)
		if !eq(codes(diags), []string{hook.CodeIgnoredField}) {
			t.Fatalf("diags %+v", diags)
		}
		h := f.Hooks[0]
		if h.Type != hook.TypeProcess || !eq(h.Args, []string{"x.mjs", "a b"}) || !h.Shell.IsZero() {
			t.Fatalf("hook %+v", h)
		}
	})

	t.Run("only_four_events", func(t *testing.T) {
		doc := `{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "x"}]}],
			"Notification": [{"hooks": [{"type": "command", "command": "y"}]}],
			"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "z"}]}]}}`
		f, diags := ParseSettingsFile(hook.Spark, "/p", []byte(doc), hook.SourceUser)
		if !eq(codes(diags), []string{hook.CodeSparkUnsupportedEvent, hook.CodeSparkUnsupportedEvent}) || !eq(commands(f.Hooks), []string{"z"}) {
			t.Fatalf("diags %+v hooks %+v", diags, f.Hooks)
		}
		if len(f.Rejected) != 2 || f.Rejected[0].Event != "SessionStart" || f.Rejected[0].MatcherIndex != -1 {
			t.Fatalf("rejected %+v", f.Rejected)
		}
	})

	t.Run("matcher_ignored_outside_tool_events", func(t *testing.T) {
		doc := `{"hooks": {"Stop": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "x"}]}],
			"PostToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "y"}]}]}}`
		f, diags := ParseSettingsFile(hook.Spark, "/p", []byte(doc), hook.SourceUser)
		if !eq(codes(diags), []string{hook.CodeSparkMatcherIgnored}) || len(f.Hooks) != 2 {
			t.Fatalf("diags %+v", diags)
		}
	})

	t.Run("unknown_handler_types_skipped", func(t *testing.T) {
		doc := `{"hooks": {"Stop": [{"hooks": [{"type": "prompt", "prompt": "?"}, {"type": "agent"}, {"type": "http", "url": "x"}, {"type": "command", "command": "ok"}]}]}}`
		f, diags := ParseSettingsFile(hook.Spark, "/p", []byte(doc), hook.SourceUser)
		want := []string{hook.CodeSparkUnsupportedType, hook.CodeSparkUnsupportedType, hook.CodeSparkUnsupportedType}
		if !eq(codes(diags), want) || !eq(commands(f.Hooks), []string{"ok"}) || f.Hooks[0].HookIndex != 3 {
			t.Fatalf("diags %+v hooks %+v", diags, f.Hooks)
		}
	})

	t.Run("limits_drop_entries_with_a_diagnostic_naming_file_and_entry", func(t *testing.T) {
		long := strings.Repeat("x", hook.Spark.Limits.MaxCommandChars+1)
		var hooks, groups []string
		for i := 0; i < hook.Spark.Limits.MaxCommandsPerMatcher+2; i++ {
			hooks = append(hooks, fmt.Sprintf(`{"type":"command","command":"h%d"}`, i))
		}
		for i := 0; i < hook.Spark.Limits.MaxMatchersPerEvent+1; i++ {
			groups = append(groups, `{"hooks":[{"type":"command","command":"g"}]}`)
		}
		doc := `{"hooks": {
			"PreToolUse": [{"hooks": [{"type":"command","command":"` + long + `"},
				{"type":"command","command":"` + long[:hook.Spark.Limits.MaxCommandChars] + `"},
				{"type":"command","command":"slow","timeout":600.001},
				{"type":"command","command":"max","timeout":600}]}],
			"PostToolUse": [{"hooks": [` + strings.Join(hooks, ",") + `]}],
			"Stop": [` + strings.Join(groups, ",") + `]}}`
		f, diags := ParseSettingsFile(hook.Spark, "/w/.spark/settings.json", []byte(doc), hook.SourceWorkspace)
		n := 0
		for _, d := range diags {
			if d.Code != hook.CodeSparkLimit {
				t.Fatalf("unexpected %+v", d)
			}
			if !strings.HasPrefix(d.Source, "/w/.spark/settings.json:") {
				t.Errorf("source %q", d.Source)
			}
			n++
		}
		// 1 long command, 1 timeout, 2 hooks over 16, 1 group over 32
		if n != 5 || len(f.Rejected) != 5 {
			t.Fatalf("%d diags %+v", n, diags)
		}
		// The limit is said in the unit the timeout was written in.
		if want := "PreToolUse[0][2]: timeout 600.001 s is over the spark limit of 600 s"; !strings.Contains(diags[1].Message, want) {
			t.Errorf("timeout message %q, want it to contain %q", diags[1].Message, want)
		}
		if !strings.Contains(diags[0].Message, "PreToolUse[0][0]") || !strings.Contains(diags[2].Message, "PostToolUse[0][16]") || !strings.Contains(diags[4].Message, "Stop[32]") {
			t.Fatalf("messages %+v", diags)
		}
		var pre, post, stop int
		for _, h := range f.Hooks {
			switch h.Event {
			case hook.PreToolUse:
				pre++
			case hook.PostToolUse:
				post++
			case hook.Stop:
				stop++
			}
		}
		if pre != 2 || post != hook.Spark.Limits.MaxCommandsPerMatcher || stop != hook.Spark.Limits.MaxMatchersPerEvent {
			t.Fatalf("kept %d %d %d", pre, post, stop)
		}
		if f.Hooks[1].TimeoutMs != hook.Spark.Limits.MaxTimeoutMs {
			t.Fatalf("max timeout %+v", f.Hooks[1])
		}
	})

	t.Run("command_length_counts_utf16_units_and_args", func(t *testing.T) {
		if utf16Len("a😀é") != 4 {
			t.Fatal(utf16Len("a😀é"))
		}
		cmd := strings.Repeat("😀", hook.Spark.Limits.MaxCommandChars/2) // 8192 units: at the limit
		doc := `{"hooks": {"Stop": [{"hooks": [{"type":"command","command":"` + cmd + `"},
			{"type":"command","command":"` + cmd[:len(cmd)-4] + `","args":["ab"]}]}]}}`
		f, diags := ParseSettingsFile(hook.Spark, "/p", []byte(doc), hook.SourceUser)
		if len(f.Hooks) != 1 || !eq(codes(diags), []string{hook.CodeSparkLimit}) {
			t.Fatalf("hooks %d diags %+v", len(f.Hooks), diags)
		}
	})

	t.Run("broken_json_never_panics", func(t *testing.T) {
		for _, doc := range []string{`{`, `[]`, `{"hooks": 1}`, `{"hooks": {"Stop": 1}}`, `{"hooks": {"Stop": [1, {"hooks": 2}]}}`} {
			f, diags := ParseSettingsFile(hook.Spark, "/p", []byte(doc), hook.SourceUser)
			if len(f.Hooks) != 0 || len(diags) == 0 {
				t.Errorf("%s: %+v %+v", doc, f.Hooks, diags)
			}
		}
	})
}

func TestPluginExecFormArgs(t *testing.T) {
	root := t.TempDir()
	path := writeFile(t, root, "hooks/hooks.json", `{"hooks": {"Stop": [{"hooks": [
		{"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/bin/x", "args": ["--flag", "a b"]},
		{"type": "command", "command": "echo hi"}]}]}}`)
	hooks, diags := ParsePluginFile(root, path, mustRead(t, path))
	if len(diags) != 0 || len(hooks) != 2 {
		t.Fatalf("%+v %+v", hooks, diags)
	}
	if hooks[0].Type != hook.TypeProcess || !eq(hooks[0].Args, []string{"--flag", "a b"}) || hooks[1].Type != hook.TypeCommand {
		t.Fatalf("%+v", hooks)
	}
}

func TestLoaderSpark(t *testing.T) {
	dir := t.TempDir()
	user := writeFile(t, dir, "home/config.json", `{"hooks": {"enabled": true, "events": {"Stop": [{"hooks": [{"type": "process", "command": "zcode-user"}]}]}}, "storage": {"dir": "/s"}}`)
	spark := writeFile(t, dir, "spark/settings.json", `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "spark-user"}, {"type": "command", "command": "off", "enabled": false}]}]}}`)
	l := NewLoader(LoaderOptions{UserConfigPath: user, Dialect: hook.Spark, UserSettingsPath: spark})
	set, _ := l.Load()
	if set.Dialect != hook.Spark || set.StorageDir != "/s" || !eq(commands(set.Hooks), []string{"spark-user"}) {
		t.Fatalf("set %+v", set)
	}
	if len(set.Inactive) != 1 || set.Inactive[0].Reason != ReasonDisabled {
		t.Fatalf("inactive %+v", set.Inactive)
	}
}
