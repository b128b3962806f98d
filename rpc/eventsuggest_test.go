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

// TestHooksRunUnknownEventQuotesAndNamesProfile: hooks/run's -32602 on
// "event" quotes the event as sent ("Stop " with its space) before the
// suggestion, in message and data.reason alike; a Claude Code event in a
// zcode or spark session says to open the session with profile "claude";
// a claude session takes it and has no other-profile hint for any name.
func TestHooksRunUnknownEventQuotesAndNamesProfile(t *testing.T) {
	home, ws := t.TempDir(), t.TempDir()
	c := initialized(t, home, ws)
	if r := c.call("session/open", map[string]any{"sessionId": "sp", "cwd": ws, "profile": "spark", "sparkUserDir": t.TempDir()}); r["result"] == nil {
		t.Fatalf("session/open spark: %v", r)
	}
	if r := c.call("session/open", map[string]any{"sessionId": "cl", "cwd": ws, "profile": "claude", "claudeHomeDir": t.TempDir()}); r["result"] == nil {
		t.Fatalf("session/open claude: %v", r)
	}
	const open = `; Notification is a Claude Code event: open the session with "profile": "claude" in session/open`
	for _, tc := range []struct {
		session, event, prefix, suffix string
	}{
		{"s1", "Stop ", `unknown event "Stop " (want one of SessionStart, `, "; did you mean Stop?"},
		{"s1", "\tpretooluse", `unknown event "\tpretooluse" (want one of SessionStart, `, "; did you mean PreToolUse?"},
		{"s1", "  Stpo  ", `unknown event "  Stpo  " (want one of SessionStart, `, "; did you mean Stop?"},
		{"s1", "Notification", `unknown event "Notification" (want one of SessionStart, `, open},
		{"sp", "Notification", `unknown event "Notification" (want one of SessionStart, `, open},
		{"s1", "notification ", `unknown event "notification " (`, "; did you mean Notification? Notification is a Claude Code event: open the session with \"profile\": \"claude\" in session/open"},
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
	if r := c.call("hooks/run", map[string]any{"sessionId": "cl", "event": "Notification", "input": map[string]any{"notification_type": "idle_prompt"}}); r["result"] == nil {
		t.Errorf("claude session, Notification: %v", r)
	}
}
