// Package nearmiss names the known word a misspelt one most likely means:
// the "did you mean …?" of an unknown configuration key, event name or
// handler type (runner/config) and of an unknown member of a V2 definition
// (v2bridge/expr). It imports nothing of hookside.
package nearmiss

import "strings"

// Suggest returns the word of known that key most likely misspells: one
// equal to it ignoring case, otherwise the nearest (EditDistance, ignoring
// case) within 1 edit (keys of up to 4 characters) or 2 (longer keys); ""
// when none is that close. Ties go to the earlier word of known, so the
// answer depends only on key and the order of known.
func Suggest(key string, known []string) string {
	for _, k := range known {
		if strings.EqualFold(k, key) {
			return k
		}
	}
	limit := 2
	if len([]rune(key)) <= 4 {
		limit = 1
	}
	best, bestD := "", limit+1
	for _, k := range known {
		if d := EditDistance(strings.ToLower(key), strings.ToLower(k)); d < bestD {
			best, bestD = k, d
		}
	}
	return best
}

// EditDistance is the optimal string alignment distance between a and b,
// in runes: the fewest insertions, deletions, substitutions and swaps of
// two adjacent runes that turn a into b, no rune being edited twice
// ("Stpo" → "Stop" is 1, one swap; Levenshtein counts 2).
func EditDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	// prev2, prev and cur are the rows for ra[:i-2], ra[:i-1] and ra[:i].
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}
