package rpc

import (
	"strings"
	"testing"
)

// TestHooksRunUnknownEventSuggests: hooks/run with a misspelt event is
// -32602 on "event" naming the event it resembles (two adjacent letters
// swapped too: "Stpo"), as the CLI's --event;
// a name that resembles none gets the list alone.
func TestHooksRunUnknownEventSuggests(t *testing.T) {
	c := initialized(t, t.TempDir(), t.TempDir())
	for ev, want := range map[string]string{"pretooluse": "; did you mean PreToolUse?", "Stopp": "; did you mean Stop?", "Stpo": "; did you mean Stop?", "PerToolUse": "; did you mean PreToolUse?", "Sopt": "", "Nothing": ""} {
		r := c.call("hooks/run", map[string]any{"sessionId": "s1", "event": ev, "input": map[string]any{}})
		e, _ := r["error"].(map[string]any)
		msg, _ := e["message"].(string)
		if errCode(r) != CodeInvalidParams || !strings.Contains(msg, "unknown event") || (want != "" && !strings.Contains(msg, want)) || (want == "" && strings.Contains(msg, "did you mean")) {
			t.Errorf("%s: %v; want -32602 with %q", ev, r, want)
		}
	}
}

// TestHooksRunUnknownEventQuotes: hooks/run's -32602 on "event" quotes
// the event as sent ("Stop " with its space) before the suggestion, in
// message and data.reason alike, and surrounding whitespace does not count
// against the suggestion, in zcode and claude sessions.
func TestHooksRunUnknownEventQuotes(t *testing.T) {
	home, ws := t.TempDir(), t.TempDir()
	c := initialized(t, home, ws)
	if r := c.call("session/open", map[string]any{"sessionId": "cl", "cwd": ws, "profile": "claude", "claudeHomeDir": t.TempDir()}); r["result"] == nil {
		t.Fatalf("session/open claude: %v", r)
	}
	for _, tc := range []struct {
		session, event, prefix, suffix string
	}{
		{"s1", "Stop ", `unknown event "Stop " (want one of SessionStart, `, "; did you mean Stop?"},
		{"s1", "\tpretooluse", `unknown event "\tpretooluse" (want one of SessionStart, `, "; did you mean PreToolUse?"},
		{"s1", "  Stpo  ", `unknown event "  Stpo  " (want one of SessionStart, `, "; did you mean Stop?"},
		{"cl", "Stop ", `unknown event "Stop " (want one of SessionStart, Setup, `, "; did you mean Stop?"},
		{"cl", "Bogus", `unknown event "Bogus" (want one of SessionStart, Setup, `, "SessionEnd)"},
	} {
		r := c.call("hooks/run", map[string]any{"sessionId": tc.session, "event": tc.event, "turnId": "t", "input": map[string]any{}})
		e, _ := r["error"].(map[string]any)
		msg, _ := e["message"].(string)
		data, _ := e["data"].(map[string]any)
		reason, _ := data["reason"].(string)
		if errCode(r) != CodeInvalidParams || data["field"] != "event" || msg != "invalid params: event: "+reason ||
			!strings.HasPrefix(reason, tc.prefix) || !strings.HasSuffix(reason, tc.suffix) {
			t.Errorf("%s %q: %v; want -32602 on event, reason %q…%q", tc.session, tc.event, r, tc.prefix, tc.suffix)
		}
	}
}
