package config

import (
	"slices"
	"testing"

	"github.com/hookside/hookside/internal/hook"
)

// TestSuggestEventTranspositions: a swap of two adjacent letters is one
// edit, so "Stpo" (a 4-letter name: 1 edit allowed) names Stop, as do the
// longer swaps; the thresholds are otherwise the same (1 edit up to 4
// characters, 2 beyond), so a far-off name gets no suggestion; when two
// events are equally near, the earlier of the list given wins, whatever
// the call.
func TestSuggestEventTranspositions(t *testing.T) {
	for _, tc := range []struct {
		known      []string
		name, want string
	}{
		{hook.Events, "Stpo", "Stop"},
		{hook.Events, "Sotp", "Stop"},
		{hook.Events, "tSop", "Stop"},
		{hook.Events, "PerToolUse", "PreToolUse"},
		{hook.Events, "PreTooluSe", "PreToolUse"},
		{hook.Events, "SesisonStart", "SessionStart"},
		{hook.Events, "PostToolUes", "PostToolUse"},
		{hook.Events, "UserPromtpSubmit", "UserPromptSubmit"},
		{hook.Events, "PermissionReqeust", "PermissionRequest"},
		{hook.Events, "PostToolUseFialure", "PostToolUseFailure"},
		{hook.Events, "SesisonStrat", "SessionStart"}, // two swaps: 2 edits
		{hook.ClaudeEvents, "SubagentStpo", "SubagentStop"},
		{hook.ClaudeEvents, "PreCopmact", "PreCompact"},
		{hook.ClaudeEvents, "Stpo", "Stop"},
		// far off: no suggestion
		{hook.Events, "Bogus", ""},
		{hook.Events, "Nothing", ""},
		{hook.Events, "Start", ""},
		{hook.Events, "Sopt", ""}, // 2 edits, a 4-letter name allows 1
		{hook.Events, "Tpso", ""},
		{hook.Events, "PreTool", ""},
		{hook.Events, "ToolUse", ""},
		{hook.Events, "PreToolUseFailure", ""},
		{hook.Events, "SesisonStratt", ""}, // 3 edits
		{hook.Events, "Notification", ""},  // a Claude Code event, not a typo
		{hook.Events, "", ""},
		// ties: the earlier event of the list
		{hook.Events, "Stup", "Stop"},
		{hook.ClaudeEvents, "Stup", "Setup"}, // Setup and Stop are both 1 edit off; Setup comes first
		{[]string{hook.Stop, hook.Setup}, "Stup", "Stop"},
	} {
		for range 3 {
			if got := SuggestEvent(tc.name, tc.known); got != tc.want {
				t.Errorf("SuggestEvent(%q, %v) = %q, want %q", tc.name, tc.known, got, tc.want)
				break
			}
		}
		wantHint := ""
		if tc.want != "" {
			wantHint = "; did you mean " + tc.want + "?"
		}
		if got := EventHint(tc.name, tc.known, EventSettingsKey); got != wantHint {
			t.Errorf("EventHint(%q) = %q, want %q", tc.name, got, wantHint)
		}
	}
	if !slices.Contains(hook.ClaudeEvents, hook.Setup) || slices.Index(hook.ClaudeEvents, hook.Setup) > slices.Index(hook.ClaudeEvents, hook.Stop) {
		t.Fatal("the tie case assumes Setup comes before Stop in hook.ClaudeEvents")
	}
}
