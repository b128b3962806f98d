package jsonpos

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// SyntaxHint names the usual slip behind a syntax error at offset off of
// data (SyntaxErrorOffset's; msg is the *json.SyntaxError's text), in words
// for a person, and the offset to report it at:
//   - a trailing comma ("{"a":1,}", "[1,]"): at the comma;
//   - a missing comma between two members or elements ("{"a":1 "b":2}"): at
//     the second one; a missing colon after a member name ("{"a" 1}");
//   - a single-quoted string, a // or /* comment (JSON has neither): at off.
//
// Otherwise it returns off and "". Editors that write JSONC (VS Code's
// settings files) make the first and third common in hand-edited files.
func SyntaxHint(data []byte, off int, msg string) (at int, hint string) {
	if off < 0 || off >= len(data) {
		return off, ""
	}
	prev := off - 1
	for prev >= 0 && isSpace(data[prev]) {
		prev--
	}
	c := data[off]
	switch {
	case (c == '}' || c == ']') && prev >= 0 && data[prev] == ',':
		return prev, trailingComma
	case c == '\'':
		return off, "JSON strings take double quotes"
	case c == '/' && off+1 < len(data) && (data[off+1] == '/' || data[off+1] == '*'):
		return off, "JSON has no comments"
	case startsValue(c) && prev >= 0 && endsValue(data[prev]) &&
		(strings.HasSuffix(msg, "after object key:value pair") || strings.HasSuffix(msg, "after array element")):
		return off, "a missing comma before this"
	case strings.HasSuffix(msg, "after object key"):
		return off, "a missing colon after the member name"
	}
	return off, ""
}

// trailingComma is SyntaxHint's hint for a trailing comma.
const trailingComma = "a trailing comma: JSON allows none after the last member or element"

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func startsValue(c byte) bool {
	return c == '"' || c == '{' || c == '[' || c == '-' || (c >= '0' && c <= '9') || c == 't' || c == 'f' || c == 'n'
}

// endsValue: c can be the last byte of a complete JSON value.
func endsValue(c byte) bool {
	return c == '"' || c == '}' || c == ']' || (c >= '0' && c <= '9') || c == 'e' || c == 'l'
}

// SyntaxMessage is msg (a *json.SyntaxError's text at offset off of data)
// with SyntaxHint's hint in parentheses when there is one, and the offset
// to report it at.
// A trailing comma is reported at the comma, so its text does not name
// the character after it: "a trailing comma before '}': JSON allows none
// after the last member or element".
//
// A bad character that is not ASCII is named as it is in data, where
// encoding/json names the byte as if it were Latin-1 ("invalid character
// 'ï'" for any of 0xEF's sequences): a byte order mark is "a byte order
// mark (U+FEFF), which JSON does not carry (RFC 8259 §8.1)", another
// character "invalid character '→' (U+2192)", and a byte that does not
// begin a UTF-8 sequence "invalid byte 0xE9 (not UTF-8)".
func SyntaxMessage(data []byte, off int, msg string) (at int, text string) {
	msg = nameNonASCII(data, off, msg)
	at, hint := SyntaxHint(data, off, msg)
	switch hint {
	case "":
		return at, msg
	case trailingComma:
		return at, "a trailing comma before '" + string(data[off]) + "': JSON allows none after the last member or element"
	}
	return at, msg + " (" + hint + ")"
}

// nameNonASCII rewrites encoding/json's "invalid character 'x' …" for the
// non-ASCII byte at off of data (see SyntaxMessage); other messages are
// returned as they are.
func nameNonASCII(data []byte, off int, msg string) string {
	if off < 0 || off >= len(data) || data[off] < utf8.RuneSelf {
		return msg
	}
	// encoding/json quotes the byte as the rune of its value.
	head := "invalid character '" + string(rune(data[off])) + "'"
	rest, ok := strings.CutPrefix(msg, head)
	if !ok {
		return msg
	}
	r, n := utf8.DecodeRune(data[off:])
	switch {
	case r == '\uFEFF':
		return "a byte order mark (U+FEFF), which JSON does not carry (RFC 8259 §8.1)"
	case r == utf8.RuneError && n <= 1:
		return fmt.Sprintf("invalid byte 0x%02X (not UTF-8)", data[off]) + rest
	}
	return fmt.Sprintf("invalid character '%c' (U+%04X)", r, r) + rest
}
