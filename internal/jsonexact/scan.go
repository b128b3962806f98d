package jsonexact

import "github.com/hookside/hookside/internal/jsonskip"

// The scanner reads valid JSON only (Exact checks json.Valid first): it
// finds where values end (jsonskip), not whether they are well formed; a
// value that does not end runs to the end of the data.

func skipWS(b []byte, i int) int { return jsonskip.WS(b, i) }

// skipString returns the index after the string starting at b[i] == '"'.
func skipString(b []byte, i int) int { return orEnd(b, jsonskip.String(b, i)) }

// skipValue returns the index after the value starting at b[i].
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return i
	}
	return orEnd(b, jsonskip.Value(b, i))
}

func orEnd(b []byte, end int) int {
	if end < 0 {
		return len(b)
	}
	return end
}
