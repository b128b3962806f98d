package output

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/hookside/hookside/internal/jsonpos"
	"github.com/hookside/hookside/internal/jsonscan"
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

// trailingPreviewChars caps the quote of what follows the object in
// trailingText's warning (characters).
const trailingPreviewChars = 24

// trailingText is the run warning of a plain-text stdout (out, trimmed,
// not one JSON object) that starts with one complete JSON object followed
// by other output ({"decision":"block"} done, a stray "}", a second value
// cut short) and is not only JSON values (severalValues' case): the
// answer is exactly one JSON object, the whole of stdout, so the object is
// not read. The warning quotes the start of what follows (redacted, cut
// at trailingPreviewChars characters) and where it starts in stdout (the
// whole captured stdout, out a trimmed slice of it): line and column as
// jsonpos.LineCol counts them (code points; a leading byte order mark
// takes none) and the 0-based byte offset. "" otherwise. Cost: one pass
// over the object (jsonskip, json.Valid), and over what stdout holds
// before it.
func trailingText(stdout, out []byte) string {
	if len(out) == 0 || out[0] != '{' {
		return ""
	}
	end := jsonskip.Value(out, 0)
	if end < 0 || !json.Valid(out[:end]) {
		return ""
	}
	rest := jsonskip.WS(out, end)
	if rest >= len(out) {
		return "" // out is one object: not plain text
	}
	off := len(stdout) - len(bytes.TrimLeftFunc(stdout, isJSSpace)) + rest
	line, col := jsonpos.LineCol(stdout, off)
	return fmt.Sprintf("stdout is a JSON object followed by other output: %s at line %d, column %d (byte offset %d); the answer must be exactly one JSON object, the whole of stdout, so it was treated as plain text; print only the JSON object (send the rest to stderr)",
		strconv.Quote(Preview(out[rest:], trailingPreviewChars)), line, col, off)
}

// whyNotObject says why out (trimmed stdout that starts like JSON and is
// neither one JSON object, several values nor an object followed by
// text) is not read as the answer, for the run warning: where it stops
// being JSON and the slip it looks like (invalid character '\t' in string
// literal at line 1, column 33 (byte offset 32); a trailing comma …), that
// it is cut short (it ends inside a value, at the end of stdout), that it
// nests deeper than encoding/json reads (valid JSON nonetheless), or that
// it is JSON of another type (an array). Positions are in the whole
// captured stdout, as trailingText gives them.
func whyNotObject(stdout, out []byte) string {
	base := len(stdout) - len(bytes.TrimLeftFunc(stdout, isJSSpace))
	at := func(off int) string {
		line, col := jsonpos.LineCol(stdout, base+off)
		return fmt.Sprintf("at line %d, column %d (byte offset %d)", line, col, base+off)
	}
	if depth, ok := jsonscan.Depth(out); ok && depth > jsonscan.MaxDepth {
		return fmt.Sprintf("it nests %d levels deep, more than the %d hookside reads", depth, jsonscan.MaxDepth)
	}
	f, bad := jsonpos.Check(out)
	switch {
	case !bad:
		return "it is " + jsonpos.ValueKindName(out)
	case f.Truncated:
		return "it is cut short: it ends inside a value, " + at(len(out))
	}
	return f.Text + " " + at(f.Off)
}
