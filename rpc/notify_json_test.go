package rpc

import (
	"encoding/json"
	"testing"

	"github.com/hookside/hookside/output"
)

// TestNotificationJSON: the hand-written encodings of hook/started and
// hook/completed params are byte for byte what json.Marshal writes, for
// plain strings and for strings encoding/json escapes.
func TestNotificationJSON(t *testing.T) {
	code := 2
	odd := []string{"", "plain", `quote " and \ backslash`, "<html> & co", "line\nbreak\ttab\x01", "é ü 日本", "\u2028\u2029", "bad \xff utf8", "\x7f del"}
	for _, s := range odd {
		started := hookStartedParams{SessionID: s, RunID: "hr_1", HookID: s, Event: "PreToolUse", Source: hookSource{Kind: "user", Path: s, Name: s}}
		completed := hookCompletedParams{SessionID: "s1", RunID: s, HookID: "h", Event: s, Outcome: output.Outcome(s),
			ExitCode: &code, DurationMs: 12, StdoutPreview: s, StderrPreview: s, Error: s, Warnings: []string{s, "w2"}}
		for _, v := range []jsonAppender{started, completed, hookCompletedParams{}, hookStartedParams{}} {
			want, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			if got := v.appendJSON(nil); string(got) != string(want) {
				t.Errorf("%T %q:\n got %s\nwant %s", v, s, got, want)
			}
		}
	}
}
