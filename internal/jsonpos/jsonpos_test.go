package jsonpos

import (
	"encoding/json"
	"errors"
	"reflect"
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

// TestTypeErrorPath: a type error deep in a document names the value's
// dotted path, map entries and array elements included (the -32602
// data.field of docs/protocol.md).
func TestTypeErrorPath(t *testing.T) {
	type params struct {
		SessionID  string            `json:"sessionId"`
		Env        map[string]string `json:"env"`
		PluginDirs []string          `json:"pluginDirs"`
		Nested     struct {
			List []map[string]int `json:"list"`
		} `json:"nested"`
	}
	for _, c := range []struct{ raw, field string }{
		{`{"sessionId":1}`, "sessionId"},
		{`{"env":{"A":"x","B":1}}`, "env.B"},
		{`{"env":{"A":1}}`, "env.A"},
		{`{"env":[]}`, "env"},
		{`{"pluginDirs":["/a",3]}`, "pluginDirs[1]"},
		{`{"pluginDirs":[2]}`, "pluginDirs[0]"},
		{`{"sessionId":"s","nested":{"list":[{"a":1},{"b":"x"}]}}`, "nested.list[1].b"},
		{`{"pluginDirs":"x"}`, "pluginDirs"},
		{` { "env" : { "k\u0041" : true } } `, "env.kA"},
		{`[1]`, ""}, // the document itself
	} {
		var p params
		var te *json.UnmarshalTypeError
		if err := json.Unmarshal([]byte(c.raw), &p); !errors.As(err, &te) {
			t.Fatalf("%s: %v", c.raw, err)
		}
		if got := TypeErrorPath([]byte(c.raw), te); got != c.field {
			t.Errorf("%s: path %q, want %q (%v)", c.raw, got, c.field, te)
		}
	}
	// An empty key, or one holding a ".", is in brackets (Key): the path
	// names one place.
	for raw, want := range map[string]string{
		`{"":{"":1}}`:         `['']['']`,
		`{"a.b":{"c":1}}`:     `['a.b'].c`,
		`{"a":{"b.c":1}}`:     `a['b.c']`,
		`{"a":{"b":{"c":1}}}`: "a.b",
	} {
		var m map[string]map[string]string
		var te *json.UnmarshalTypeError
		if err := json.Unmarshal([]byte(raw), &m); !errors.As(err, &te) {
			t.Fatal(raw, err)
		}
		if got := TypeErrorPath([]byte(raw), te); got != want {
			t.Errorf("%s: path %q, want %q", raw, got, want)
		}
	}
	if got := TypeErrorPath([]byte(`{"a":[1,2]}`), &json.UnmarshalTypeError{Offset: 99}); got != "" {
		t.Errorf("past the end: %q", got)
	}
}

// TestKindName: the words for each Go type, in both wordings.
func TestKindName(t *testing.T) {
	type s struct{ A int }
	for _, c := range []struct {
		v            any
		plain, exact string
	}{
		{"", "a string", "a string"},
		{true, "a boolean", "true or false"},
		{0, "a number", "an integer"},
		{uint64(0), "a number", "an integer"},
		{int8(0), "a number", "an integer"},
		{0.5, "a number", "a number"},
		{float32(0), "a number", "a number"},
		{s{}, "an object", "an object"},
		{map[string]int{}, "an object", "an object"},
		{[]string{}, "an array", "an array"},
		{[2]int{}, "an array", "an array"},
		{new(*bool), "a boolean", "true or false"},
		{make(chan int), "chan", "a chan int"},
	} {
		ty := reflect.TypeOf(c.v)
		if p, e := KindName(ty, Plain), KindName(ty, Exact); p != c.plain || e != c.exact {
			t.Errorf("%v: %q / %q, want %q / %q", ty, p, e, c.plain, c.exact)
		}
	}
}

func TestValueKindName(t *testing.T) {
	for raw, want := range map[string]string{
		`{}`: "an object", ` [1]`: "an array", `"x"`: "a string", `true`: "a boolean", `false`: "a boolean",
		`null`: "null", `-1.5`: "a number", `0`: "a number", ``: "nothing", " \n": "nothing",
	} {
		if got := ValueKindName([]byte(raw)); got != want {
			t.Errorf("ValueKindName(%q) = %q, want %q", raw, got, want)
		}
	}
}
