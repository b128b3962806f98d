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
