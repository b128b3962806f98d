package jsonhtml

import (
	"encoding/json"
	"testing"
)

func TestUnescape(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"command":"cat \u003e /tmp/x \u0026\u0026 a \u003c b"}`, `{"command":"cat > /tmp/x && a < b"}`},
		{`"\u003C\u003E\u0026"`, `"<>&"`},
		{`"\\u003c"`, `"\\u003c"`},                         // an escaped backslash, then text
		{`"\\\u003c"`, `"\\<"`},                            // an escaped backslash, then an escape
		{`"\u2028 \u00e9 \n \""`, `"\u2028 \u00e9 \n \""`}, // other escapes stay
		{`"\u003"`, `"\u003"`},
		{`plain`, `plain`},
	} {
		if got := string(Unescape([]byte(c.in))); got != c.want {
			t.Errorf("Unescape(%s) = %s, want %s", c.in, got, c.want)
		}
	}
}

// FuzzUnescape: for any JSON string value, the unescaped text of its
// encoding/json form is valid JSON of the same value.
func FuzzUnescape(f *testing.F) {
	for _, s := range []string{"a<b>&c", `\u003c`, "\\<", "\u2028", "\xff<"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b, _ := json.Marshal(map[string]any{"k": s, "n": []string{s, "<&>"}})
		u := Unescape(b)
		var x, y any
		if err := json.Unmarshal(u, &y); err != nil {
			t.Fatalf("%s: %v", u, err)
		}
		_ = json.Unmarshal(b, &x)
		xb, _ := json.Marshal(x)
		yb, _ := json.Marshal(y)
		if string(xb) != string(yb) {
			t.Fatalf("%s and %s differ", b, u)
		}
	})
}
