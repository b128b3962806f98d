package output

import (
	"encoding/json"
	"strconv"

	"github.com/hookside/hookside/internal/jsonskip"
)

// maxCountedValues bounds the count of jsonValues: past it, a stdout of
// many values is said to hold "at least" that many.
const maxCountedValues = 8

// jsonValues counts the JSON values that out (trimmed stdout that is not
// one JSON object) holds one after another, separated by JSON white space
// or by nothing (`{"a":1}{"b":2}`, one object per line): n is their
// number when out is nothing but such values, each valid JSON, and 0
// otherwise (text, an invalid or cut value, a value followed by other
// output). It stops after maxCountedValues values; more is true when
// non-blank bytes follow them (not read further). Cost: at most two passes
// over out (jsonskip to find where each value ends, json.Valid on it); no
// allocation.
func jsonValues(out []byte) (n int, more bool) {
	i := jsonskip.WS(out, 0)
	for ; n < maxCountedValues; n++ {
		if i >= len(out) {
			return n, false
		}
		end := jsonskip.Value(out, i)
		if end < 0 || !json.Valid(out[i:end]) {
			return 0, false
		}
		i = jsonskip.WS(out, end)
	}
	return n, i < len(out)
}

// severalValues is the run warning of a plain-text stdout (out, trimmed,
// not one JSON object) that holds two or more JSON values and nothing
// else (a hook that prints {"decision":"block"}, then {"continue":false}):
// the answer is exactly one JSON object, the whole of stdout, so none of
// them is read, not even the first. "" otherwise (one value, or not only
// JSON values: the caller's other warnings say what it is).
func severalValues(out []byte) string {
	n, more := jsonValues(out)
	if n < 2 {
		return ""
	}
	count := strconv.Itoa(n)
	if more {
		count = "at least " + count
	}
	return "stdout holds " + count + " JSON values; the answer must be exactly one JSON object (the first is not read as the answer): treated as plain text; merge them into one object"
}
