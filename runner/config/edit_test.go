package config

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestSetHookEnabled(t *testing.T) {
	doc := `{
  "other": {"keep": [1, 2, 3]},
  "hooks": {"events": {"PreToolUse": [
    {"matcher": "Bash", "hooks": [
      {"type": "command", "command": "a.sh"},
      {"type": "command", "command": "b.sh", "enabled": true}
    ]}
  ]}}
}`
	t.Run("inserts_enabled_false_and_keeps_the_rest", func(t *testing.T) {
		out, err := setHookEnabled([]byte(doc), false, "PreToolUse", 0, 0, false)
		if err != nil {
			t.Fatal(err)
		}
		want := strings.Replace(doc, `{"type": "command", "command": "a.sh"}`, `{"enabled": false, "type": "command", "command": "a.sh"}`, 1)
		if string(out) != want {
			t.Fatalf("got\n%s\nwant\n%s", out, want)
		}
	})
	t.Run("replaces_existing_value_in_place", func(t *testing.T) {
		out, err := setHookEnabled([]byte(doc), false, "PreToolUse", 0, 1, false)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(out), `"command": "b.sh", "enabled": false}`) || !json.Valid(out) {
			t.Fatalf("got %s", out)
		}
	})
	t.Run("empty_object", func(t *testing.T) {
		out, err := setHookEnabled([]byte(`{"hooks":{"events":{"Stop":[{"hooks":[{}]}]}}}`), false, "Stop", 0, 0, false)
		if err != nil || string(out) != `{"hooks":{"events":{"Stop":[{"hooks":[{"enabled": false}]}]}}}` {
			t.Fatalf("got %s, %v", out, err)
		}
	})
	t.Run("moved_declaration_is_an_error", func(t *testing.T) {
		if _, err := setHookEnabled([]byte(doc), false, "PreToolUse", 0, 5, false); err != ErrDeclarationMoved {
			t.Fatalf("err = %v", err)
		}
		if _, err := setHookEnabled([]byte(doc), false, "Stop", 0, 0, false); err != ErrDeclarationMoved {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("claude_shaped_settings_file", func(t *testing.T) {
		in := `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"x"}]}]}}`
		out, err := setHookEnabled([]byte(in), true, "Stop", 0, 0, false)
		if err != nil || string(out) != `{"hooks":{"Stop":[{"hooks":[{"enabled": false, "type":"command","command":"x"}]}]}}` {
			t.Fatalf("got %s, %v", out, err)
		}
	})
}
