package runner

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookside/hookside/internal/hook"
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

// Hooks of events without a prompt or response share the session's empty
// transcript file, which is checked before each hook: a hook that wrote
// into it leaves the next hook a new, empty one. Prompt and response files
// stay one per hook, removed when it ends.
func TestEmptyTranscriptSharedAndRenewed(t *testing.T) {
	d := t.TempDir()
	t.Setenv("TMPDIR", d)
	out, mark := filepath.Join(d, "stdin.json"), filepath.Join(d, "mark")
	pathOf := `sed -n 's/.*"transcript_path":"\([^"]*\)".*/\1/p' "` + out + `"`
	hooks := func(cmd string) []any { return []any{map[string]any{"hooks": []any{sh(cmd)}}} }
	cfg := filepath.Join(d, "config.json")
	writeJSON(t, cfg, map[string]any{"hooks": map[string]any{"enabled": true, "events": map[string]any{
		"PreToolUse":       hooks(`cat > "` + out + `"; p=$(` + pathOf + `); [ -s "$p" ] && touch "$p.notempty"; [ -e "` + mark + `" ] && echo x >> "$p"; true`),
		"UserPromptSubmit": hooks(`cat > "` + out + `"`),
	}}})
	s, err := NewSession(SessionOptions{ID: "z", Cwd: d, UserConfigPath: cfg})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	transcript := func() string {
		t.Helper()
		var in map[string]any
		b, _ := os.ReadFile(out)
		if err := json.Unmarshal(b, &in); err != nil {
			t.Fatalf("stdin %q", b)
		}
		p, _ := in["transcript_path"].(string)
		return p
	}
	empty := func(p string) {
		t.Helper()
		if fi, err := os.Lstat(p); err != nil || !fi.Mode().IsRegular() || fi.Size() != 0 {
			t.Fatalf("%s: want an empty regular file, got %v %v", p, fi, err)
		}
	}
	tool := `{"tool_name":"Bash","tool_input":{"command":"ls"}}`
	run(t, s, hook.PreToolUse, tool)
	p1 := transcript()
	empty(p1)
	run(t, s, hook.PreToolUse, tool)
	if p := transcript(); p != p1 {
		t.Fatalf("second hook got %s, want the shared %s", p, p1)
	}
	// A hook writes into it: the next hook gets a fresh empty file.
	if err := os.WriteFile(mark, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p1, []byte("junk\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	run(t, s, hook.PreToolUse, tool)
	p2 := transcript()
	if _, err := os.Stat(p2 + ".notempty"); p2 == p1 || err == nil {
		t.Fatalf("after a write the hook got %s (was %s; not empty: %v)", p2, p1, err == nil)
	}
	if _, err := os.Lstat(p1); !os.IsNotExist(err) {
		t.Fatalf("the written file %s should be gone: %v", p1, err)
	}
	// Replaced by a symlink, removed: renewed as well.
	if err := os.Remove(p2); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(cfg, p2); err != nil {
		t.Fatal(err)
	}
	run(t, s, hook.PreToolUse, tool)
	p3 := transcript()
	if p3 == p2 {
		t.Fatalf("a symlink was reused as the transcript")
	}
	if b, _ := os.ReadFile(cfg); strings.Contains(string(b), "x\n") {
		t.Fatal("the symlink's target was written")
	}
	if b, _ := os.ReadFile(p3); string(b) != "x\n" {
		t.Fatalf("the hook's own transcript holds %q", b)
	}
	if err := os.Remove(mark); err != nil {
		t.Fatal(err)
	}
	run(t, s, hook.PreToolUse, tool)
	p4 := transcript()
	if p4 == p3 {
		t.Fatal("a written transcript was reused")
	}
	empty(p4)
	// A prompt gets its own file, removed when the hook ends.
	run(t, s, hook.UserPromptSubmit, `{"prompt":"hi"}`)
	if p := transcript(); p == p4 || !strings.Contains(p, "hookside-session-") {
		t.Fatalf("prompt transcript %q", p)
	} else if _, err := os.Lstat(p); !os.IsNotExist(err) {
		t.Fatalf("prompt transcript %s left after the hook: %v", p, err)
	}
	s.Close()
	if _, err := os.Lstat(filepath.Dir(p4)); !os.IsNotExist(err) {
		t.Fatalf("session directory left after Close: %v", err)
	}
}
