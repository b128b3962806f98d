package nearmiss

import "testing"

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
		if got := EditDistance(tc.a, tc.b); got != tc.want {
			t.Errorf("EditDistance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
		if got := EditDistance(tc.b, tc.a); got != tc.want {
			t.Errorf("EditDistance(%q, %q) = %d, want %d (symmetric)", tc.b, tc.a, got, tc.want)
		}
	}
}
