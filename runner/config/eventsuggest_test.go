package config

import (
	"slices"
	"testing"

	"github.com/hookside/hookside/internal/hook"
)

// TestEditDistance: the optimal string alignment distance counts a swap
// of two adjacent runes as one edit (Levenshtein counts two), edits no
// rune twice, and counts runes, not bytes.
func TestEditDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"stop", "stop", 0},
		{"stpo", "stop", 1},
		{"tsop", "stop", 1},
		{"pertooluse", "pretooluse", 1},
		{"sesisonstart", "sessionstart", 1},
		{"posttooluse", "pretooluse", 3},
		{"ab", "ba", 1},
		{"abcd", "badc", 2},
		{"ca", "abc", 3}, // optimal string alignment: the swapped pair is not edited again
		{"kitten", "sitting", 3},
		{"", "stop", 4},
		{"stop", "", 4},
		{"éa", "aé", 1},
		{"é", "e", 1},
	} {
		if got := editDistance(tc.a, tc.b); got != tc.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
		if got := editDistance(tc.b, tc.a); got != tc.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d (symmetric)", tc.b, tc.a, got, tc.want)
		}
	}
}

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
