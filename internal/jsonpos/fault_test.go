package jsonpos

import "testing"

func TestCheck(t *testing.T) {
	for in, want := range map[string]Fault{
		`{"a":1}{"b":2}`: {Off: 7, Text: "invalid character '{' after top-level value", Trailing: true},
		`{"a":[1,2`:      {Off: 9, Text: "unexpected end of JSON input", Truncated: true},
		`{"a":1,}`:       {Off: 6, Text: "a trailing comma before '}': JSON allows none after the last member or element"},
		`{'a':1}`:        {Off: 1, Text: "invalid character '\\'' looking for beginning of object key string (JSON strings take double quotes)"},
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
