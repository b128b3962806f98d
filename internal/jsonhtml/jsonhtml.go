// Package jsonhtml undoes encoding/json's HTML escaping. json.Marshal
// writes <, > and & inside strings as \u003c, \u003e and \u0026, also in
// the output of MarshalJSON methods and in json.RawMessage values that
// were marshalled before, where json.Encoder.SetEscapeHTML(false) cannot
// reach. Output read by people or by hook scripts (the CLI's, a V2 command
// action's stdin) shows them as themselves.
package jsonhtml

import "bytes"

// Unescape returns the JSON text b with every \u003c, \u003e and \u0026
// escape (any hex case) written as <, > and &. Other escapes, \\u003c (an
// escaped backslash before "u003c") among them, are kept. The result is
// the same JSON value. b is returned as is when it has no such escape.
func Unescape(b []byte) []byte {
	if !bytes.Contains(b, []byte(`\u00`)) {
		return b
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] != '\\' || i+1 == len(b) {
			out = append(out, b[i])
			continue
		}
		if b[i+1] == 'u' && i+6 <= len(b) {
			if c, ok := htmlChar(b[i+2 : i+6]); ok {
				out = append(out, c)
				i += 5
				continue
			}
		}
		out = append(out, b[i], b[i+1]) // a whole escape: \\ stays \\
		i++
	}
	return out
}

// htmlChar returns the character of the four hex digits hex when it is
// one of <, > and &.
func htmlChar(hex []byte) (byte, bool) {
	if hex[0] != '0' || hex[1] != '0' {
		return 0, false
	}
	switch string(bytes.ToLower(hex[2:])) {
	case "3c":
		return '<', true
	case "3e":
		return '>', true
	case "26":
		return '&', true
	}
	return 0, false
}
