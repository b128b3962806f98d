package config

import (
	"strings"
	"testing"

	"github.com/hookside/hookside/internal/hook"
)

// TestUnknownEventHint: a misspelled event (case, or a small edit
// distance, two adjacent letters swapped counting as one edit) is skipped
// with a "did you mean …?" hint naming the known event, in every profile;
// a real event another profile has (Notification in spark) and a name
// close to nothing get no hint.
func TestUnknownEventHint(t *testing.T) {
	for _, tc := range []struct {
		d          *hook.Dialect
		event, tip string
	}{
		{hook.Claude, "PreToolUSE", "; did you mean PreToolUse?"},
		{hook.Claude, "PostToolUs", "; did you mean PostToolUse?"},
		{hook.Spark, "stop", "; did you mean Stop?"},
		{hook.Spark, "Stpo", "; did you mean Stop?"},
		{hook.Claude, "Stpo", "; did you mean Stop?"},
		{hook.Spark, "PerToolUse", "; did you mean PreToolUse?"},
		{hook.Claude, "SesisonStart", "; did you mean SessionStart?"},
		{hook.Claude, "Sopt", ""},
		{hook.Zcode, "Stpo", "; did you mean Stop?"},
		{hook.Zcode, "PerToolUse", "; did you mean PreToolUse?"},
		{hook.Zcode, "Sopt", ""},
		{hook.Spark, "Notification", ""},
		{hook.Claude, "Bogus", ""},
	} {
		doc := `{"hooks": {"` + tc.event + `": [{"hooks": [{"type": "command", "command": "x"}]}]}}`
		f, diags := ParseSettingsFile(tc.d, "/p", []byte(doc), hook.SourceUser)
		if len(diags) != 1 || len(f.Hooks) != 0 || diags[0].Code != tc.d.UnsupportedEvent.Code {
			t.Fatalf("%s %s: diags %+v hooks %d", tc.d.Name, tc.event, diags, len(f.Hooks))
		}
		got := strings.Contains(diags[0].Message, "did you mean")
		if tc.tip == "" && got || tc.tip != "" && !strings.HasSuffix(diags[0].Message, "are skipped"+tc.tip) && !strings.HasSuffix(diags[0].Message, "are dropped"+tc.tip) {
			t.Errorf("%s %s: message %q, want hint %q", tc.d.Name, tc.event, diags[0].Message, tc.tip)
		}
	}
}
