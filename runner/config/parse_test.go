package config

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookside/hookside/internal/hook"
)

func TestParseFile(t *testing.T) {
	t.Run("parses_full_shape", func(t *testing.T) {
		dir := t.TempDir()
		path := writeFile(t, dir, "config.json", `{
  "other": {"ignored": true},
  "storage": {"dir": "state"},
  "hooks": {
    "enabled": true,
    "timeoutMs": 7000,
    "maxOutputBytes": 1000,
    "events": {
      "PreToolUse": [
        {"matcher": "^(Bash|Write)$", "parallel": true, "hooks": [
          {"type": "process", "command": "node", "args": ["a.mjs", "b"], "timeoutMs": 5000, "statusMessage": "checking"},
          {"type": "command", "command": "echo hi", "shell": "bash -lc", "async": true, "maxOutputBytes": 10, "enabled": false}
        ]}
      ],
      "Stop": [{"hooks": [{"type": "command", "command": "true", "shell": true}]}]
    }
  }
}`)
		f, diags := ParseFile(path, mustRead(t, path), hook.SourceUser)
		if len(diags) != 0 {
			t.Fatalf("diagnostics: %+v", diags)
		}
		if f.Enabled == nil || !*f.Enabled || f.Limits != (hook.Limits{TimeoutMs: 7000, MaxOutputBytes: 1000}) || f.StorageDir != "state" {
			t.Fatalf("file fields: enabled=%v limits=%+v storage=%q", f.Enabled, f.Limits, f.StorageDir)
		}
		if got := commands(f.Hooks); !eq(got, []string{"node", "echo hi", "true"}) {
			t.Fatalf("hooks %v", got)
		}
		h0, h1, h2 := f.Hooks[0], f.Hooks[1], f.Hooks[2]
		if h0.ID != "user:"+path+"#PreToolUse[0][0]" || h1.ID != "user:"+path+"#PreToolUse[0][1]" || h2.ID != "user:"+path+"#Stop[0][0]" {
			t.Errorf("ids %q %q %q", h0.ID, h1.ID, h2.ID)
		}
		if h0.Type != hook.TypeProcess || !eq(h0.Args, []string{"a.mjs", "b"}) || h0.TimeoutMs != 5000 || h0.MaxOutputBytes != 1000 ||
			h0.StatusMessage != "checking" || !h0.Parallel || h0.Matcher == nil || *h0.Matcher != "^(Bash|Write)$" ||
			!h0.Shell.IsZero() || h0.Source != (hook.Source{Kind: hook.SourceUser, Path: path, Dialect: hook.Zcode}) || h0.Event != hook.PreToolUse {
			t.Errorf("hook 0: %+v", h0)
		}
		if h1.Type != hook.TypeCommand || h1.Shell != hook.ShellProgram("bash -lc") || !h1.Async ||
			h1.TimeoutMs != 7000 || h1.MaxOutputBytes != 10 || h1.Enabled == nil || *h1.Enabled || h1.HookIndex != 1 {
			t.Errorf("hook 1: %+v", h1)
		}
		if h2.Shell != hook.ShellOfTrue || h2.Matcher != nil || h2.Parallel || h2.TimeoutMs != 7000 {
			t.Errorf("hook 2: %+v", h2)
		}
	})

	t.Run("broken_json_reports_line_and_column", func(t *testing.T) {
		for _, tc := range []struct{ name, doc, want string }{
			{"trailing_comma_at_the_comma", "{\n  \"hooks\": {\n    \"enabled\": true,\n  }\n}", ":3:20"},
			{"bad_literal", "{\n  \"hooks\": {\"enabled\": tru }\n}", ":2:27"},
			{"truncated", `{"hooks": {`, ":1:12"},
			{"empty", "", ":1:1"},
			{"trailing_garbage", "{}\n x", ":2:2"},
			{"column_counts_characters", "{\"é€\": 1 2}", ":1:10"},
			{"byte_order_mark_takes_no_column", "\ufeff{,}", ":1:2"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				f, diags := ParseFile("/x/config.json", []byte(tc.doc), hook.SourceUser)
				if len(diags) != 1 || diags[0].Code != hook.CodeParseError || diags[0].Severity != hook.SeverityError {
					t.Fatalf("diags %+v", diags)
				}
				if want := "/x/config.json" + tc.want; diags[0].Source != want {
					t.Errorf("source %q, want %q (%s)", diags[0].Source, want, diags[0].Message)
				}
				if tc.name == "trailing_comma_at_the_comma" && diags[0].Message != "invalid JSON: a trailing comma before '}': JSON allows none after the last member or element" {
					t.Errorf("message %q, want the trailing comma named", diags[0].Message)
				}
				if !strings.HasPrefix(diags[0].Message, "invalid JSON: ") || f == nil || len(f.Hooks) != 0 {
					t.Errorf("message %q, file %+v", diags[0].Message, f)
				}
			})
		}
	})

	t.Run("invalid_utf8_warns_at_the_byte_and_loads", func(t *testing.T) {
		doc := "{\"hooks\":{\"enabled\":true,\"events\":{\"Stop\":[{\"hooks\":[\n{\"type\":\"command\",\"command\":\"echo caf\xe9\"}]}]}}}"
		f, diags := ParseFile("/x/c.json", []byte(doc), hook.SourceUser)
		if len(diags) != 1 || diags[0].Code != hook.CodeInvalidUTF8 || diags[0].Severity != hook.SeverityWarning || diags[0].Source != "/x/c.json:2:38" ||
			!strings.Contains(diags[0].Message, "byte 0xe9 is not UTF-8") {
			t.Fatalf("diags %+v, want one %s warning at /x/c.json:2:38", diags, hook.CodeInvalidUTF8)
		}
		if len(f.Hooks) != 1 || f.Hooks[0].Command != "echo caf\uFFFD" {
			t.Fatalf("hooks %+v, want the one hook, its byte read as U+FFFD", f.Hooks)
		}
	})

	t.Run("byte_order_mark_is_accepted", func(t *testing.T) {
		f, diags := ParseFile("/x/c.json", []byte("\ufeff"+`{"hooks":{"enabled":true}}`), hook.SourceUser)
		if len(diags) != 0 || f.Enabled == nil || !*f.Enabled {
			t.Fatalf("diags %+v enabled %v", diags, f.Enabled)
		}
	})

	// Each bad declaration sits on line 3 of the document; at names the
	// text whose first character the diagnostic must point to.
	for _, tc := range []struct {
		name, bad, code, at string
	}{
		{"unknown_type_dropped", `{"type": "bogus", "command": "x"}`, hook.CodeInvalidHook, `"bogus"`},
		{"missing_type_dropped", `{"command": "x"}`, hook.CodeInvalidHook, `{"command"`},
		{"missing_command_dropped", `{"type": "process"}`, hook.CodeInvalidHook, `{"type"`},
		{"empty_command_dropped", `{"type": "process", "command": "  "}`, hook.CodeInvalidHook, `"  "`},
		{"command_wrong_type_dropped", `{"type": "process", "command": ["ls"]}`, hook.CodeInvalidHook, `["ls"]`},
		{"args_wrong_type_dropped", `{"type": "process", "command": "x", "args": "a b"}`, hook.CodeInvalidHook, `"a b"`},
		{"args_element_wrong_type_dropped", `{"type": "process", "command": "x", "args": ["a", 2]}`, hook.CodeInvalidHook, `2]`},
		{"zero_timeout_dropped", `{"type": "process", "command": "x", "timeoutMs": 0}`, hook.CodeInvalidHook, `0}`},
		{"negative_timeout_dropped", `{"type": "process", "command": "x", "timeoutMs": -5}`, hook.CodeInvalidHook, `-5`},
		{"fractional_timeout_dropped", `{"type": "process", "command": "x", "timeoutMs": 1.5}`, hook.CodeInvalidHook, `1.5`},
		{"huge_timeout_dropped", `{"type": "process", "command": "x", "timeoutMs": 1e300}`, hook.CodeInvalidHook, `1e300`},
		{"string_timeout_dropped", `{"type": "process", "command": "x", "timeoutMs": "5000"}`, hook.CodeInvalidHook, `"5000"`},
		{"zero_max_output_dropped", `{"type": "process", "command": "x", "maxOutputBytes": 0}`, hook.CodeInvalidHook, `0}`},
		{"shell_false_dropped", `{"type": "command", "command": "x", "shell": false}`, hook.CodeInvalidHook, `false`},
		{"async_wrong_type_dropped", `{"type": "command", "command": "x", "async": "yes"}`, hook.CodeInvalidHook, `"yes"`},
		{"enabled_wrong_type_dropped", `{"type": "command", "command": "x", "enabled": 1}`, hook.CodeInvalidHook, `1}`},
		{"status_message_wrong_type_dropped", `{"type": "command", "command": "x", "statusMessage": 1}`, hook.CodeInvalidHook, `1}`},
		{"skill_dir_in_command_is_config_error", `{"type": "command", "command": "${ZCODE_SKILL_DIR}/run.sh"}`, hook.CodeInvalidHook, `"${ZCODE`},
		{"skill_dir_in_args_is_config_error", `{"type": "process", "command": "x", "args": ["${ZCODE_SKILL_DIR}"]}`, hook.CodeInvalidHook, `"${ZCODE`},
		{"hook_not_object_dropped", `"echo hi"`, hook.CodeInvalidHook, `"echo hi"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := "{\"hooks\": {\"events\": {\"PreToolUse\": [{\"hooks\": [\n" +
				"  {\"type\": \"process\", \"command\": \"good1\"},\n" +
				"  " + tc.bad + ",\n" +
				"  {\"type\": \"process\", \"command\": \"good2\"}\n" +
				"]}]}}}"
			f, diags := ParseFile("/w/zcode.json", []byte(doc), hook.SourceUser)
			if len(diags) != 1 || diags[0].Code != tc.code || diags[0].Severity != hook.SeverityError {
				t.Fatalf("diags %+v", diags)
			}
			want := fmt.Sprintf("/w/zcode.json:3:%d", 3+strings.Index(tc.bad, tc.at))
			if diags[0].Source != want {
				t.Errorf("source %q, want %q (%s)", diags[0].Source, want, diags[0].Message)
			}
			if !strings.Contains(diags[0].Message, "PreToolUse[0][1]") {
				t.Errorf("message does not name the declaration: %q", diags[0].Message)
			}
			if got := commands(f.Hooks); !eq(got, []string{"good1", "good2"}) {
				t.Errorf("the rest must load: %v", got)
			}
			if f.Hooks[1].HookIndex != 2 || f.Hooks[1].ID != "user:/w/zcode.json#PreToolUse[0][2]" {
				t.Errorf("indexes must count dropped siblings: %+v", f.Hooks[1])
			}
		})
	}

	t.Run("unknown_event_dropped_rest_loads", func(t *testing.T) {
		doc := "{\"hooks\": {\"events\": {\n" +
			"  \"PreTooluse\": [{\"hooks\": [{\"type\": \"process\", \"command\": \"typo\"}]}],\n" +
			"  \"Stop\": [{\"hooks\": [{\"type\": \"process\", \"command\": \"ok\"}]}]\n" +
			"}}}"
		f, diags := ParseFile("/c.json", []byte(doc), hook.SourceUser)
		if !eq(codes(diags), []string{hook.CodeUnknownEvent}) || diags[0].Source != "/c.json:2:3" {
			t.Fatalf("diags %+v", diags)
		}
		if !eq(commands(f.Hooks), []string{"ok"}) {
			t.Fatalf("hooks %v", commands(f.Hooks))
		}
	})

	t.Run("bad_matcher_group_dropped_rest_loads", func(t *testing.T) {
		doc := `{"hooks": {"events": {"PreToolUse": [
  {"matcher": 5, "hooks": [{"type": "process", "command": "a"}]},
  {"hooks": {"type": "process", "command": "b"}},
  {"matcher": "Bash"},
  "x",
  {"parallel": "yes", "hooks": []},
  {"matcher": null, "hooks": [{"type": "process", "command": "ok"}]}
]}}}`
		f, diags := ParseFile("/c.json", []byte(doc), hook.SourceUser)
		want := []string{hook.CodeInvalidHook, hook.CodeInvalidHook, hook.CodeInvalidHook, hook.CodeInvalidHook, hook.CodeInvalidHook}
		if !eq(codes(diags), want) {
			t.Fatalf("diags %+v", diags)
		}
		if !eq(commands(f.Hooks), []string{"ok"}) || f.Hooks[0].MatcherIndex != 5 || f.Hooks[0].Matcher != nil {
			t.Fatalf("hooks %+v", f.Hooks)
		}
	})

	t.Run("bad_file_level_fields_ignored", func(t *testing.T) {
		doc := `{"storage": {"dir": 1}, "hooks": {"enabled": "yes", "timeoutMs": -1, "maxOutputBytes": "big",
  "events": {"Stop": [{"hooks": [{"type": "process", "command": "ok"}]}]}}}`
		f, diags := ParseFile("/c.json", []byte(doc), hook.SourceUser)
		if !eq(codes(diags), []string{hook.CodeInvalidField, hook.CodeInvalidField, hook.CodeInvalidField, hook.CodeInvalidField}) {
			t.Fatalf("diags %+v", diags)
		}
		if f.Enabled != nil || f.Limits != (hook.Limits{}) || f.StorageDir != "" || len(f.Hooks) != 1 ||
			f.Hooks[0].TimeoutMs != hook.DefaultTimeoutMs || f.Hooks[0].MaxOutputBytes != hook.DefaultMaxOutputBytes {
			t.Fatalf("file %+v", f)
		}
	})

	t.Run("non_object_shapes_reported", func(t *testing.T) {
		for _, doc := range []string{`[]`, `null`, `{"hooks": []}`, `{"hooks": {"events": []}}`, `{"storage": "x"}`} {
			f, diags := ParseFile("/c.json", []byte(doc), hook.SourceUser)
			if !eq(codes(diags), []string{hook.CodeInvalidField}) || len(f.Hooks) != 0 {
				t.Errorf("%s: diags %+v", doc, diags)
			}
		}
	})

	t.Run("no_hooks_key_is_fine", func(t *testing.T) {
		f, diags := ParseFile("/c.json", []byte(`{"model": "x", "hooks": null}`), hook.SourceUser)
		if len(diags) != 0 || f.Enabled != nil || len(f.Hooks) != 0 {
			t.Fatalf("diags %+v file %+v", diags, f)
		}
	})

	t.Run("events_directly_under_hooks_warned", func(t *testing.T) {
		_, diags := ParseFile("/c.json", []byte(`{"hooks": {"PreToolUse": []}}`), hook.SourceUser)
		if !eq(codes(diags), []string{hook.CodeIgnoredField}) || diags[0].Severity != hook.SeverityWarning {
			t.Fatalf("diags %+v", diags)
		}
	})

	t.Run("claude_timeout_in_hookside_file_warned", func(t *testing.T) {
		f, diags := ParseFile("/c.json", []byte(`{"hooks": {"events": {"Stop": [{"hooks": [{"type": "process", "command": "x", "timeout": 5}]}]}}}`), hook.SourceUser)
		if !eq(codes(diags), []string{hook.CodeIgnoredField}) || f.Hooks[0].TimeoutMs != hook.DefaultTimeoutMs {
			t.Fatalf("diags %+v hooks %+v", diags, f.Hooks)
		}
	})

	t.Run("process_hook_ignores_shell_and_async", func(t *testing.T) {
		f, diags := ParseFile("/c.json", []byte(`{"hooks": {"events": {"Stop": [{"hooks": [{"type": "process", "command": "x", "shell": "bash", "async": true}]}]}}}`), hook.SourceUser)
		if !eq(codes(diags), []string{hook.CodeIgnoredField, hook.CodeIgnoredField}) {
			t.Fatalf("diags %+v", diags)
		}
		if h := f.Hooks[0]; !h.Shell.IsZero() || h.Async {
			t.Fatalf("hook %+v", h)
		}
	})

	t.Run("command_hook_args_ignored", func(t *testing.T) {
		doc := `{"hooks": {"events": {"Stop": [{"hooks": [{"type": "command", "command": "x", "args": ["a"]}, {"type": "process", "command": "y", "args": ["a"]}]}]}}}`
		for _, kind := range []hook.SourceKind{hook.SourceUser, hook.SourceWorkspace} {
			f, diags := ParseFile("/w/zcode.json", []byte(doc), kind)
			if !eq(codes(diags), []string{hook.CodeIgnoredField}) || diags[0].Source != fmt.Sprintf("/w/zcode.json:1:%d", 1+strings.Index(doc, `["a"]`)) {
				t.Fatalf("%s: diags %+v", kind, diags)
			}
			if !eq(commands(f.Hooks), []string{"x", "y"}) || f.Hooks[0].Args != nil || !eq(f.Hooks[1].Args, []string{"a"}) {
				t.Fatalf("%s: hooks %+v", kind, f.Hooks)
			}
			if f.Hooks[1].ID != "workspace:/w/zcode.json#Stop[0][1]" && kind == hook.SourceWorkspace {
				t.Fatalf("hook %+v", f.Hooks[1])
			}
		}
	})

	t.Run("invalid_matcher_regex_warned_hooks_kept", func(t *testing.T) {
		doc := `{"hooks": {"events": {"PreToolUse": [{"matcher": "(Bash", "hooks": [{"type": "process", "command": "x"}]}]}}}`
		f, diags := ParseFile("/c.json", []byte(doc), hook.SourceUser)
		if !eq(codes(diags), []string{hook.CodeInvalidMatcher}) || diags[0].Severity != hook.SeverityWarning ||
			diags[0].Source != fmt.Sprintf("/c.json:1:%d", 1+strings.Index(doc, `"(Bash"`)) {
			t.Fatalf("diags %+v", diags)
		}
		if len(f.Hooks) != 1 || *f.Hooks[0].Matcher != "(Bash" {
			t.Fatalf("hooks %+v", f.Hooks)
		}
	})

	t.Run("whole_number_float_timeout_accepted", func(t *testing.T) {
		f, diags := ParseFile("/c.json", []byte(`{"hooks": {"events": {"Stop": [{"hooks": [{"type": "process", "command": "x", "timeoutMs": 5000.0, "maxOutputBytes": 1e3}]}]}}}`), hook.SourceUser)
		if len(diags) != 0 || f.Hooks[0].TimeoutMs != 5000 || f.Hooks[0].MaxOutputBytes != 1000 {
			t.Fatalf("diags %+v hooks %+v", diags, f.Hooks)
		}
	})

	t.Run("duplicate_keys_last_wins", func(t *testing.T) {
		f, _ := ParseFile("/c.json", []byte(`{"hooks": {"enabled": false, "enabled": true}}`), hook.SourceUser)
		if f.Enabled == nil || !*f.Enabled {
			t.Fatalf("enabled %v", f.Enabled)
		}
	})
}

func TestTimeoutResolution(t *testing.T) {
	// Spec: workspace-hook-config.ts:113 — hook value, else the declaring
	// file's hooks.*, else the user config's hooks.*, else the defaults.
	t.Run("timeout_resolution_order", func(t *testing.T) {
		doc := `{"hooks": {"timeoutMs": 2000, "events": {"Stop": [{"hooks": [
  {"type": "process", "command": "own", "timeoutMs": 1000, "maxOutputBytes": 10},
  {"type": "process", "command": "file"}
]}]}}}`
		noFile := `{"hooks": {"events": {"Stop": [{"hooks": [{"type": "process", "command": "user"}]}]}}}`
		user := hook.Limits{TimeoutMs: 3000, MaxOutputBytes: 30}
		ws, _ := ParseFile("/w/zcode.json", []byte(doc), hook.SourceWorkspace)
		bare, _ := ParseFile("/w/.zcode/config.json", []byte(noFile), hook.SourceWorkspace)
		for _, tc := range []struct {
			name     string
			hooks    []hook.Hook
			timeout  int
			maxBytes int
		}{
			{"hook_value_first", ws.Resolve(user)[:1], 1000, 10},
			{"declaring_file_second", ws.Resolve(user)[1:], 2000, 30},
			{"user_config_third", bare.Resolve(user), 3000, 30},
			{"defaults_last", bare.Resolve(hook.Limits{}), hook.DefaultTimeoutMs, hook.DefaultMaxOutputBytes},
			{"parse_applies_file_then_defaults", ws.Hooks[1:], 2000, hook.DefaultMaxOutputBytes},
		} {
			t.Run(tc.name, func(t *testing.T) {
				h := tc.hooks[0]
				if h.TimeoutMs != tc.timeout || h.MaxOutputBytes != tc.maxBytes {
					t.Fatalf("%s: got %d ms / %d bytes, want %d / %d", h.Command, h.TimeoutMs, h.MaxOutputBytes, tc.timeout, tc.maxBytes)
				}
			})
		}
		if ws.Hooks[0].TimeoutMs != 1000 || (*File)(nil).Resolve(user) != nil {
			t.Fatal("Resolve must not modify the file")
		}
	})
}

func TestHookID(t *testing.T) {
	p := filepath.Join("/p", "hooks", "hooks.json")
	if got, want := hook.ID(hook.SourcePlugin, p, hook.Stop, 2, 3), "plugin:"+p+"#Stop[2][3]"; got != want {
		t.Fatalf("got %q want %q", got, want)
	}
}
