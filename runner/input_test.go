package runner

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"
)

func stdinOf(t testing.TB, event, input string) map[string]any {
	t.Helper()
	in, err := decodeInput(json.RawMessage(input))
	if err != nil {
		t.Fatal(err)
	}
	b := buildStdin(in, stdinContext{event: event, cwd: "/w", sessionID: "s1", now: time.Unix(0, 0), stopHookActive: true}, "/tmp/t.jsonl")
	// One line: the JSON, then exactly one "\n" (lifecycle §"进程钩子的协议").
	if !bytes.HasSuffix(b, []byte("\n")) || bytes.ContainsAny(b[:len(b)-1], "\n\r") {
		t.Fatalf("stdin is not one line ended by \\n: %q", b)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("stdin is not JSON: %v\n%s", err, b)
	}
	return m
}

func TestBuildStdin(t *testing.T) {
	t.Run("input_fields_pass_through_with_aliases", func(t *testing.T) {
		m := stdinOf(t, "PreToolUse", `{"toolName":"Bash","toolInput":{"command":"ls"},"toolCallId":"c1","custom":[1]}`)
		if m["tool_name"] != "Bash" || m["tool_use_id"] != "c1" || m["cwd"] != "/w" || m["custom"] == nil || m["hook_event_name"] != "PreToolUse" {
			t.Fatalf("%v", m)
		}
	})
	t.Run("empty_and_absent_input", func(t *testing.T) {
		for _, in := range []string{``, `{}`, ` { } `, `null`} {
			if m := stdinOf(t, "Stop", in); m["stop_hook_active"] != true || m["session_id"] != "s1" {
				t.Fatalf("%q: %v", in, m)
			}
		}
	})
	t.Run("runner_values_win_over_host_fields_of_the_same_name", func(t *testing.T) {
		m := stdinOf(t, "Stop", `{"cwd":"/evil","session_id":"x","responseText":"done"}`)
		if m["cwd"] != "/w" || m["session_id"] != "s1" || m["last_assistant_message"] != "done" {
			t.Fatalf("%v", m)
		}
	})
	t.Run("escaped_key_is_rebuilt", func(t *testing.T) {
		m := stdinOf(t, "Stop", `{"\u0063wd":"/evil"}`)
		if m["cwd"] != "/w" {
			t.Fatalf("%v", m)
		}
	})
	t.Run("permission_suggestions_alias", func(t *testing.T) {
		m := stdinOf(t, "PermissionRequest", `{"toolName":"Bash","permissionSuggestions":[{"type":"addRules"}]}`)
		if ps, ok := m["permission_suggestions"].([]any); !ok || len(ps) != 1 {
			t.Fatalf("%v", m)
		}
		if _, ok := stdinOf(t, "PermissionRequest", `{"toolName":"Bash"}`)["permission_suggestions"]; ok {
			t.Fatal("permission_suggestions present without permissionSuggestions")
		}
	})
	t.Run("pretty_printed_input_becomes_one_line", func(t *testing.T) {
		if m := stdinOf(t, "UserPromptSubmit", "{\n  \"prompt\": \"a\\nb\"\n}"); m["prompt"] != "a\nb" {
			t.Fatalf("%v", m)
		}
	})
}

// FuzzBuildStdin: for any JSON object input, stdin is one line of JSON in
// which the runner's fields hold the runner's values and every other input
// field is unchanged.
func FuzzBuildStdin(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":1}`, `{"cwd":"x","a":"\u2028"}`, `{"toolName":"Bash","x":{"cwd":1}}`, "{\"a\":\n[1,\n2]}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var orig map[string]json.RawMessage
		if json.Unmarshal([]byte(s), &orig) != nil || orig == nil {
			return
		}
		m := stdinOf(t, "Stop", s)
		if m["cwd"] != "/w" || m["hookEventName"] != "Stop" {
			t.Fatalf("runner fields lost: %v", m)
		}
		for k, v := range orig {
			if ownKeys[k] {
				continue
			}
			var want, got any
			_ = json.Unmarshal(v, &want)
			gb, _ := json.Marshal(m[k])
			_ = json.Unmarshal(gb, &got)
			wb, _ := json.Marshal(want)
			if !bytes.Equal(gb, wb) {
				t.Fatalf("field %q: got %s want %s", k, gb, wb)
			}
		}
	})
}
