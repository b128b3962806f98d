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
		if err != nil || string(out) != `{"hooks":{"Stop":[{"hooks":[{"enabled":false,"type":"command","command":"x"}]}]}}` {
			t.Fatalf("got %s, %v", out, err)
		}
	})
	// The inserted key is spaced as the hook object spaces its own keys,
	// whatever the layout: no doubled or missing space, and a line of its
	// own (with the first key's indentation) in an object written on
	// several lines.
	for _, c := range []struct{ name, hook, want string }{
		{"spaced_braces", `{ "type": "command", "command": "x" }`, `{ "enabled": false, "type": "command", "command": "x" }`},
		{"tight_braces", `{"type": "command", "command": "x"}`, `{"enabled": false, "type": "command", "command": "x"}`},
		{"compact", `{"type":"command","command":"x"}`, `{"enabled":false,"type":"command","command":"x"}`},
		{"spaced_colon_only", `{"type": "command","command": "x"}`, `{"enabled": false,"type": "command","command": "x"}`},
		{"one_key_spaced", `{ "type": "command" }`, `{ "enabled": false, "type": "command" }`},
		{"one_key_tight", `{"type": "command"}`, `{"enabled": false, "type": "command"}`},
		{"one_key_compact", `{"type":"command"}`, `{"enabled":false,"type":"command"}`},
		{"multi_line",
			"{\n          \"type\": \"command\",\n          \"command\": \"x\"\n        }",
			"{\n          \"enabled\": false,\n          \"type\": \"command\",\n          \"command\": \"x\"\n        }"},
		{"multi_line_tabs_crlf",
			"{\r\n\t\t\"type\": \"command\",\r\n\t\t\"command\": \"x\"\r\n\t}",
			"{\r\n\t\t\"enabled\": false,\r\n\t\t\"type\": \"command\",\r\n\t\t\"command\": \"x\"\r\n\t}"},
		{"multi_line_one_key",
			"{\n    \"type\": \"command\"\n  }",
			"{\n    \"enabled\": false,\n    \"type\": \"command\"\n  }"},
		{"first_key_on_brace_line", "{\"type\": \"command\",\n   \"command\": \"x\"}", "{\"enabled\": false,\n   \"type\": \"command\",\n   \"command\": \"x\"}"},
		{"escaped_quote_in_first_key", `{"ty\"pe": 1, "type": "command"}`, `{"enabled": false, "ty\"pe": 1, "type": "command"}`},
	} {
		t.Run("keeps_spacing/"+c.name, func(t *testing.T) {
			doc := "{\"hooks\": {\"events\": {\"Stop\": [{\"hooks\": [" + c.hook + "]}]}}}\n"
			out, err := setHookEnabled([]byte(doc), false, "Stop", 0, 0, false)
			if err != nil {
				t.Fatal(err)
			}
			if want := strings.Replace(doc, c.hook, c.want, 1); string(out) != want {
				t.Fatalf("got\n%s\nwant\n%s", out, want)
			}
			if !json.Valid(out) {
				t.Fatalf("not JSON: %s", out)
			}
			if again, err := setHookEnabled(out, false, "Stop", 0, 0, false); err != nil || string(again) != string(out) {
				t.Fatalf("a second write changed the file: %s, %v", again, err)
			}
		})
	}
}
