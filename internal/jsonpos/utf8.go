package jsonpos

import "unicode/utf8"

// InvalidUTF8 returns the byte offset in data of the first byte that does
// not begin a valid UTF-8 sequence (a stray continuation byte, a truncated
// or overlong sequence, a surrogate, a code point past U+10FFFF) with bad
// true, or len(data) and bad false when data is valid UTF-8. JSON text
// exchanged between systems must be UTF-8 (RFC 8259 §8.1), and
// encoding/json accepts any byte inside a string: callers that take JSON
// from outside check this first. The common valid case costs one
// utf8.Valid (its ASCII fast path reads 8 bytes at a time).
func InvalidUTF8(data []byte) (off int, bad bool) {
	if utf8.Valid(data) {
		return len(data), false
	}
	for i := 0; i < len(data); {
		if data[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n == 1 {
			return i, true
		}
		i += n
	}
	return len(data), false
}
