package jsonscan

import (
	"github.com/hookside/hookside/internal/jsonpos"
	"github.com/hookside/hookside/internal/jsonskip"
)

// MaxDepth is encoding/json's nesting limit: a value whose arrays and
// objects nest more than MaxDepth levels deep is refused by json.Valid and
// json.Unmarshal ("exceeded max depth"), whatever follows.
const MaxDepth = jsonpos.MaxDepth

// Depth reports whether b is exactly one JSON value (RFC 8259 syntax as
// encoding/json reads it: white space around it allowed, invalid UTF-8
// inside strings accepted) with no limit on nesting, and depth, how deeply
// its arrays and objects nest (0 for a scalar, 1 for `[]` or `{"a":1}`);
// depth is 0 when ok is false. encoding/json stops at the first level past
// MaxDepth without reading on, so it cannot tell a deep but well-formed
// value from a deep broken one; Depth can. Cost: one pass over b, one byte
// of memory per open level.
func Depth(b []byte) (depth int, ok bool) {
	var stack []byte // '{' or '[' per open level
	i := jsonskip.WS(b, 0)
	for {
		// A value starts at i.
		if i >= len(b) {
			return 0, false
		}
		switch c := b[i]; c {
		case '{', '[':
			stack = append(stack, c)
			depth = max(depth, len(stack))
			i = jsonskip.WS(b, i+1)
			if i < len(b) && b[i] == closer(c) {
				stack = stack[:len(stack)-1]
				i++
				break
			}
			if c == '{' {
				if i = memberValue(b, i); i < 0 {
					return 0, false
				}
			}
			continue
		case '"':
			i = validString(b, i)
		case 't':
			i = literal(b, i, "true")
		case 'f':
			i = literal(b, i, "false")
		case 'n':
			i = literal(b, i, "null")
		default:
			i = number(b, i)
		}
		if i < 0 {
			return 0, false
		}
		// After a value: close levels until a ',' asks for the next one.
		for {
			i = jsonskip.WS(b, i)
			if len(stack) == 0 {
				if i != len(b) {
					return 0, false
				}
				return depth, true
			}
			if i >= len(b) {
				return 0, false
			}
			top := stack[len(stack)-1]
			if b[i] == ',' {
				i = jsonskip.WS(b, i+1)
				if top == '{' {
					if i = memberValue(b, i); i < 0 {
						return 0, false
					}
				}
				break
			}
			if b[i] != closer(top) {
				return 0, false
			}
			stack = stack[:len(stack)-1]
			i++
		}
	}
}

func closer(open byte) byte {
	if open == '{' {
		return '}'
	}
	return ']'
}

// memberValue reads `"key" :` at b[i] and returns where the member's value
// starts, or -1.
func memberValue(b []byte, i int) int {
	if i >= len(b) || b[i] != '"' {
		return -1
	}
	if i = validString(b, i); i < 0 {
		return -1
	}
	i = jsonskip.WS(b, i)
	if i >= len(b) || b[i] != ':' {
		return -1
	}
	return jsonskip.WS(b, i+1)
}

// validString returns the index after the string literal at b[i] == '"'
// (control characters refused, escapes checked), or -1.
func validString(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		switch c := b[j]; {
		case c < 0x20:
			return -1
		case c == '"':
			return j + 1
		case c == '\\':
			j++
			if j >= len(b) {
				return -1
			}
			switch b[j] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if j+4 >= len(b) {
					return -1
				}
				for _, h := range b[j+1 : j+5] {
					if !isHex(h) {
						return -1
					}
				}
				j += 4
			default:
				return -1
			}
		}
	}
	return -1
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func literal(b []byte, i int, word string) int {
	if len(b)-i < len(word) || string(b[i:i+len(word)]) != word {
		return -1
	}
	return i + len(word)
}

// number returns the index after the number at b[i]
// (-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?), or -1.
func number(b []byte, i int) int {
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && '1' <= b[i] && b[i] <= '9':
		i = digits(b, i)
	default:
		return -1
	}
	if i < len(b) && b[i] == '.' {
		if j := digits(b, i+1); j > i+1 {
			i = j
		} else {
			return -1
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := digits(b, i)
		if j == i {
			return -1
		}
		i = j
	}
	return i
}

func digits(b []byte, i int) int {
	for i < len(b) && '0' <= b[i] && b[i] <= '9' {
		i++
	}
	return i
}
