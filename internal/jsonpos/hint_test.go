package jsonpos

import (
	"encoding/json"
	"errors"
	"testing"
)

// TestSyntaxHint: each usual slip of a hand-edited file is named, at the
// character to fix; other errors get no hint.
func TestSyntaxHint(t *testing.T) {
	for _, tc := range []struct {
		in, hint  string
		line, col int
	}{
		{"{\"a\": 1,\n}", "a trailing comma: JSON allows none after the last member or element", 1, 8},
		{"[1, 2 ,  ]", "a trailing comma: JSON allows none after the last member or element", 1, 7},
		{"{\"a\": 1\n \"b\": 2}", "a missing comma before this", 2, 2},
		{"[true {}]", "a missing comma before this", 1, 7},
		{"{\"a\" 1}", "a missing colon after the member name", 1, 6},
		{"{'a': 1}", "JSON strings take double quotes", 1, 2},
		{"{\"a\": 1, // note\n}", "JSON has no comments", 1, 10},
		{"{\"a\": tru}", "", 1, 10},
		{"{\"a\": 1} 2", "", 1, 10},
	} {
		var v any
		err := json.Unmarshal([]byte(tc.in), &v)
		var se *json.SyntaxError
		if !errors.As(err, &se) {
			t.Fatalf("%q: %v, want a syntax error", tc.in, err)
		}
		off, hint := SyntaxHint([]byte(tc.in), SyntaxErrorOffset([]byte(tc.in), se), se.Error())
		if line, col := LineCol([]byte(tc.in), off); hint != tc.hint || line != tc.line || col != tc.col {
			t.Errorf("%q (%v): %d:%d %q, want %d:%d %q", tc.in, se, line, col, hint, tc.line, tc.col, tc.hint)
		}
	}
	if off, hint := SyntaxHint([]byte("{"), 5, ""); off != 5 || hint != "" {
		t.Errorf("offset past the end: %d %q", off, hint)
	}
}
