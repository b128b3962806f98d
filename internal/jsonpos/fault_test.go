package jsonpos

import (
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	for in, want := range map[string]Fault{
		`{"a":1}{"b":2}`: {Off: 7, Text: "invalid character '{' after top-level value", Trailing: true},
		`{"a":[1,2`:      {Off: 9, Text: "unexpected end of JSON input", Truncated: true},
		`{"a":1,}`:       {Off: 6, Text: "a trailing comma before '}': JSON allows none after the last member or element"},
		`{'a':1}`:        {Off: 1, Text: "invalid character '\\'' looking for beginning of object key string (JSON strings take double quotes)"},
		"\uFEFF{}":       {Off: 0, Text: "a byte order mark (U+FEFF), which JSON does not carry (RFC 8259 §8.1)"},
		" \uFEFF{}":      {Off: 1, Text: "a byte order mark (U+FEFF), which JSON does not carry (RFC 8259 §8.1)"},
		`{"a":→}`:        {Off: 5, Text: "invalid character '→' (U+2192) looking for beginning of value"},
		"{\"a\":\xe9}":   {Off: 5, Text: "invalid byte 0xE9 (not UTF-8) looking for beginning of value"},
		`{"a":1}é`:       {Off: 7, Text: "invalid character 'é' (U+00E9) after top-level value", Trailing: true},
	} {
		if got, bad := Check([]byte(in)); !bad || got != want {
			t.Errorf("Check(%s) = %+v, %v; want %+v", in, got, bad, want)
		}
	}
	for _, ok := range []string{`{}`, `[1, 2]`, ` "x" `} {
		if f, bad := Check([]byte(ok)); bad {
			t.Errorf("Check(%s) = %+v, want no fault", ok, f)
		}
	}
}

// TestCheckDeep: past MaxDepth encoding/json stops; the fault says so at
// the bracket that passes it, not that the bracket is a bad character.
func TestCheckDeep(t *testing.T) {
	deep := strings.Repeat("[", MaxDepth+1)
	for _, in := range []string{deep, deep + strings.Repeat("]", MaxDepth+1) + "x", deep + "x"} {
		f, bad := Check([]byte(in))
		if !bad || !f.Deep || f.Off != MaxDepth || f.Text != "it nests more than 10000 levels deep (the most hookside reads)" {
			t.Errorf("Check(%.20s… %d bytes) = %+v, %v", in, len(in), f, bad)
		}
	}
}
