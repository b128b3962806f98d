package jsonpos

import (
	"encoding/json"
	"testing"
)

func TestLineCol(t *testing.T) {
	data := []byte("{\n  \"näme\": 1,\n\tx\n")
	for _, c := range []struct{ off, line, col int }{
		{0, 1, 1}, {1, 1, 2}, {2, 2, 1}, {4, 2, 3},
		{11, 2, 9}, // after "näme": the ä is one column (two bytes)
		{len(data), 4, 1}, {len(data) + 5, 4, 1}, {-1, 1, 1},
	} {
		if l, col := LineCol(data, c.off); l != c.line || col != c.col {
			t.Errorf("LineCol(%d) = %d:%d, want %d:%d", c.off, l, col, c.line, c.col)
		}
	}
	if got := At("f.json", data, 4); got != "f.json:2:3" {
		t.Errorf("At = %q", got)
	}
}

// TestErrorOffset: a syntax error points at the offending byte (the end
// for a truncated document), a type error at the first byte of the value
// of the wrong type, whether a scalar, an object or an array element.
func TestErrorOffset(t *testing.T) {
	type doc struct {
		N    int                `json:"n"`
		Sub  struct{ S string } `json:"sub"`
		List []string           `json:"list"`
	}
	for _, c := range []struct {
		name, data string
		line, col  int
	}{
		{"truncated", "{\n  \"n\": 1,\n", 3, 1},
		{"bad literal", "{\n  \"n\": tru}", 2, 11},
		{"string for int", "{\n  \"n\": \"x\"\n}", 2, 8},
		{"object for int", "{\"sub\": {}, \"n\": {\"a\": [1]}}", 1, 18},
		{"array for struct", "{\n\"sub\": [1, 2]}", 2, 8},
		{"element", "{\"list\": [\"a\",\n    7]}", 2, 5},
		{"nested", "{\"sub\": {\"S\": false}}", 1, 15},
	} {
		var d doc
		err := json.Unmarshal([]byte(c.data), &d)
		off, ok := ErrorOffset([]byte(c.data), err)
		if !ok {
			t.Errorf("%s: ErrorOffset(%v) not ok", c.name, err)
			continue
		}
		if l, col := LineCol([]byte(c.data), off); l != c.line || col != c.col {
			t.Errorf("%s: %v at %d:%d, want %d:%d", c.name, err, l, col, c.line, c.col)
		}
	}
	if _, ok := ErrorOffset(nil, &json.InvalidUnmarshalError{}); ok {
		t.Error("ErrorOffset of an *json.InvalidUnmarshalError: ok")
	}
}

func TestPathOffset(t *testing.T) {
	data := []byte(`{"a": 1, "action": {"hook": {"command": "x"}, "n": [0, {"op": "eq"}]},
 "inputMapping": {"a.b": {"const": 1}}, "z": [[1], [2, 3]]}`)
	for _, c := range []struct {
		path string
		want string // the text at the offset
		ok   bool
	}{
		{"", `{"a"`, true},
		{"a", "1,", true},
		{"action.hook.command", `"x"`, true},
		{"action.n[1].op", `"eq"`, true},
		{"action.n[1]", `{"op"`, true},
		{"inputMapping.a.b.const", "1}", true},
		{"z[1][1]", "3]", true},
		{"action.hook.shell", "", false},
		{"action.n[5]", "", false},
		{"a.b", "", false},
		{"action[0]", "", false},
	} {
		off, ok := PathOffset(data, c.path)
		if ok != c.ok || (ok && string(data[off:off+len(c.want)]) != c.want) {
			t.Errorf("PathOffset(%q) = %d %v (%q), want %q %v", c.path, off, ok, data[off:min(off+8, len(data))], c.want, c.ok)
		}
	}
	if _, ok := PathOffset([]byte(`{"a": `), "a"); ok {
		t.Error("PathOffset in a truncated document: ok")
	}
}
