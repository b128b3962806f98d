package jsonscan

import (
	"encoding/json"
	"strings"
	"testing"
)

// FuzzDepth: on anything nested at most MaxDepth levels, Depth accepts
// exactly what json.Valid accepts; nothing panics.
func FuzzDepth(f *testing.F) {
	for _, s := range []string{`{}`, `[]`, ` [1, {"a": [true, false, null]}] `, `"x\u00e9\n"`, `-0.5e+10`, `01`, `1.`, `1e`, `[1,]`, `{"a":1,}`, `{"a" 1}`, `[}`, `"\x"`, `"\u12"`, "\"\xff\"", "\"a\tb\"", `truex`, `nul`, `[[[]]]]`, `{"a":{"b":{}}}`, ``, ` `} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		depth, ok := Depth(b)
		if depth > MaxDepth {
			return
		}
		if want := json.Valid(b); ok != want {
			t.Fatalf("Depth(%q) ok = %v, json.Valid = %v", b, ok, want)
		}
		if !ok && depth != 0 {
			t.Fatalf("Depth(%q) = %d on invalid input", b, depth)
		}
	})
}

func TestDepthPastEncodingJSONLimit(t *testing.T) {
	deep := func(n int, open, mid, close string) []byte {
		return []byte(strings.Repeat(open, n) + mid + strings.Repeat(close, n))
	}
	for _, c := range []struct {
		name  string
		b     []byte
		depth int
		ok    bool
	}{
		{"scalar", []byte(`"x"`), 0, true},
		{"empty object", []byte(`{}`), 1, true},
		{"arrays at the limit", deep(MaxDepth, "[", "", "]"), MaxDepth, true},
		{"arrays 20000 deep", deep(20000, "[", "", "]"), 20000, true},
		{"objects 20000 deep", deep(20000, `{"a":`, "1", "}"), 20000, true},
		{"mixed 20000 deep", deep(10000, `[{"a":`, "[]", "}]"), 20001, true},
		{"deep then garbage", append(deep(20000, "[", "", "]"), 'x'), 0, false},
		{"deep and unclosed", []byte(strings.Repeat("[", 20000)), 0, false},
		{"deep with a bad member", deep(20000, `{"a"`, "1", "}"), 0, false},
		{"deep with a trailing comma", deep(20000, "[", "1,", "]"), 0, false},
	} {
		depth, ok := Depth(c.b)
		if depth != c.depth || ok != c.ok {
			t.Errorf("%s: Depth = %d, %v; want %d, %v", c.name, depth, ok, c.depth, c.ok)
		}
		if c.depth > MaxDepth && json.Valid(c.b) {
			t.Errorf("%s: encoding/json accepts it; MaxDepth is wrong", c.name)
		}
	}
}
