package config

import (
	"strings"
	"testing"

	"github.com/hookside/hookside/internal/hook"
)

// TestUnknownEventQuotesValue: the unknown-event text quotes the value as
// given, Go-quoted so surrounding whitespace and invisible characters
// show, then names the event it resembles: surrounding whitespace and
// case do not count against the suggestion ("  stop\t" names Stop, where
// three edits would be too many).
func TestUnknownEventQuotesValue(t *testing.T) {
	list := strings.Join(hook.Events, ", ")
	for _, tc := range []struct {
		name, want string
	}{
		{"Stop ", `unknown event "Stop " (want one of ` + list + `); did you mean Stop?`},
		{" Stop", `unknown event " Stop" (want one of ` + list + `); did you mean Stop?`},
		{"  stop\t", `unknown event "  stop\t" (want one of ` + list + `); did you mean Stop?`},
		{"PreToolUse\n", `unknown event "PreToolUse\n" (want one of ` + list + `); did you mean PreToolUse?`},
		{"Stop\u00a0", `unknown event "Stop\u00a0" (want one of ` + list + `); did you mean Stop?`},
		{"Stop\u200b", `unknown event "Stop\u200b" (want one of ` + list + `); did you mean Stop?`},
		{" Stpo ", `unknown event " Stpo " (want one of ` + list + `); did you mean Stop?`},
		{"Sopt", `unknown event "Sopt" (want one of ` + list + `)`},
		{"", `unknown event "" (want one of ` + list + `)`},
	} {
		if got := UnknownEvent(tc.name, hook.Events, EventFlag); got != tc.want {
			t.Errorf("UnknownEvent(%q):\n got %s\nwant %s", tc.name, got, tc.want)
		}
	}
	if got, want := UnknownEvent("Stop  ", hook.ClaudeEvents, EventParam), "; did you mean Stop?"; !strings.HasPrefix(got, `unknown event "Stop  " (want one of SessionStart, Setup, `) || !strings.HasSuffix(got, want) {
		t.Errorf("claude: %q, want the quoted value and %q", got, want)
	}
}
