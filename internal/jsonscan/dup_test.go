package jsonscan

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// TestDuplicate: a repeated member name is found at any depth, names
// compared decoded (an escape or invalid UTF-8 spells the same name), with
// its path; distinct names, names differing in case, and equal names in
// different objects are no repeat; a large object (past the list of
// smallObject names) is checked as well.
func TestDuplicate(t *testing.T) {
	many := func(extra string) string {
		var b strings.Builder
		b.WriteString(`{"p":{`)
		for i := range 40 {
			b.WriteString(`"k` + strings.Repeat("x", i) + `":1,`)
		}
		b.WriteString(extra + `"end":0}}`)
		return b.String()
	}
	for _, c := range []struct{ in, path string }{
		{`{"method":"a","method":"hooks/run"}`, "method"},
		{`{"method":"a","\u006dethod":"b"}`, "method"},
		{`{"id":1,"params":{"input":{"toolInput":{"command":"ls","command":"rm"}}}}`, "params.input.toolInput.command"},
		{`{"a":[{"x":1},{"y":1,"y":2}]}`, "a[1].y"},
		{`[1,[2,{"q":1,"q":1}]]`, "[1][1].q"},
		{"{\"a\xff\":1,\"a\xfe\":2}", "a\uFFFD"},
		{many(`"kxxx":2,`), "p.kxxx"},
		{` { "a" : 1 , "a" : 2 } `, "a"},
		{`{"a":{"b":1},"c":{"b":1},"d":{}}`, ""},
		{`{"name":1,"Name":2,"NAME":3}`, ""},
		{`{"a":"}\"a\":","b":["a","a"]}`, ""},
		{many(""), ""},
		{`"x"`, ""}, {`[]`, ""}, {`{}`, ""}, {`12`, ""},
	} {
		if !json.Valid([]byte(c.in)) {
			t.Fatalf("test input %q is not JSON", c.in)
		}
		path, found := Duplicate([]byte(c.in))
		if found != (c.path != "") || path != c.path {
			t.Errorf("Duplicate(%.60q) = %q, %v; want %q", c.in, path, found, c.path)
		}
	}
}

// TestDuplicateAt: the offset is that of the repeated member's name (its
// opening quote) in the object that repeats it: the second occurrence in
// that object, not an earlier member of the same name in another object,
// nor the first member a path of the same spelling could mean.
func TestDuplicateAt(t *testing.T) {
	many := `{"p":{`
	for i := range 40 {
		many += `"k` + strings.Repeat("x", i) + `":1,`
	}
	many += `"kxxx":2,"end":0}}`
	at := func(in, s string) int {
		i := strings.Index(in, s)
		if i < 0 {
			t.Fatalf("test input %q lacks %q", in, s)
		}
		return i
	}
	for _, c := range []struct {
		in, path, repeat string // repeat: the text that starts at the offset
	}{
		{`{"a":1,"a":2}`, "a", `"a":2`},
		{`{"x":{"a":1},"a":2,"a":3}`, "a", `"a":3`},
		{`{"toolInput":{"a":1,"a":2}}`, "toolInput.a", `"a":2`},
		{`{"a":1,"b":{"a":2},"a":3,"a":4}`, "a", `"a":3`},
		{`{"a.b":1,"a":{"b":1,"b":2}}`, "a.b", `"b":2`},
		{`{"a":{"b":1},"a.b":1,"a.b":2}`, `['a.b']`, `"a.b":2`},
		{`{"x":[{"a.b":1,"a.b":2}]}`, `x[0]['a.b']`, `"a.b":2`},
		{`{"":{"it's":1,"it's":2}}`, `['']['it\'s']`, `"it's":2`},
		{`{"method":"a","\u006dethod":"b"}`, "method", `"\u006dethod"`},
		{`[{"q":1},{"q":1,"q":2}]`, "[1].q", `"q":2`},
		{`{"a":"\"a\":","a":1}`, "a", `"a":1`},
		{"{\n  \"a\" : 1 ,\n  \"a\" : 2 }", "a", `"a" : 2`},
		{many, "p.kxxx", `"kxxx":2`},
	} {
		if !json.Valid([]byte(c.in)) {
			t.Fatalf("test input %q is not JSON", c.in)
		}
		path, off, found := DuplicateAt([]byte(c.in))
		if want := at(c.in, c.repeat); !found || path != c.path || off != want {
			t.Errorf("DuplicateAt(%.60q) = %q, %d, %v; want %q, %d (%.20q)", c.in, path, off, found, c.path, want, c.repeat)
		}
	}
	if path, off, found := DuplicateAt([]byte(`{"a":{"b":1},"c":{"b":1}}`)); found || path != "" || off != 0 {
		t.Errorf("no repeat: %q, %d, %v", path, off, found)
	}
}

func BenchmarkDuplicate(b *testing.B) {
	params := []byte(`{"sessionId":"s1","event":"PreToolUse","input":{"toolName":"Read","toolInput":{"command":"ls"},"toolCallId":"c1"}}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, found := Duplicate(params); found {
			b.Fatal("found")
		}
	}
}

// FuzzDuplicate: on valid JSON, Duplicate finds a repeat exactly when a
// reference walk with encoding/json's tokenizer does, at the same path.
func FuzzDuplicate(f *testing.F) {
	for _, s := range []string{`{"a":1,"a":2}`, `{"a":[{"b":1,"\u0062":2}]}`, `[{"x":{}},{"x":{"y":1}}]`, `{"a":"\"a\""}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if !json.Valid(b) {
			return
		}
		want, wantOff, wantFound := referenceDuplicate(b)
		got, found := Duplicate(b)
		if found != wantFound || got != want {
			t.Fatalf("Duplicate(%q) = %q, %v; reference %q, %v", b, got, found, want, wantFound)
		}
		if _, off, _ := DuplicateAt(b); off != wantOff {
			t.Fatalf("DuplicateAt(%q) offset %d; reference %d", b, off, wantOff)
		}
	})
}

// referenceDuplicate is DuplicateAt by encoding/json's tokenizer: a key
// starts past the white space and "," after the previous token.
func referenceDuplicate(b []byte) (string, int, bool) {
	dec := json.NewDecoder(strings.NewReader(string(b)))
	type level struct {
		object bool
		names  map[string]bool
		key    string
		index  int
		atKey  bool
	}
	var stack []*level
	path := func(last string) string {
		var sb strings.Builder
		for i, l := range stack {
			switch {
			case !l.object:
				sb.WriteString("[" + itoa(l.index) + "]")
			case i == len(stack)-1:
				if i > 0 {
					sb.WriteString(".")
				}
				sb.WriteString(last)
			default:
				if i > 0 {
					sb.WriteString(".")
				}
				sb.WriteString(l.key)
			}
		}
		return sb.String()
	}
	// afterValue advances the enclosing level past one value.
	afterValue := func() {
		if n := len(stack); n > 0 {
			if l := stack[n-1]; l.object {
				l.atKey = true
			} else {
				l.index++
			}
		}
	}
	for {
		start := int(dec.InputOffset())
		for start < len(b) && strings.IndexByte(" \t\r\n,", b[start]) >= 0 {
			start++
		}
		tok, err := dec.Token()
		if err != nil {
			return "", 0, false
		}
		if n := len(stack); n > 0 && stack[n-1].object && stack[n-1].atKey {
			l := stack[n-1]
			if d, ok := tok.(json.Delim); ok && d == '}' {
				stack = stack[:n-1]
				afterValue()
				continue
			}
			name := tok.(string)
			if l.names[name] {
				return path(name), start, true
			}
			l.names[name], l.key, l.atKey = true, name, false
			continue
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &level{object: true, names: map[string]bool{}, atKey: true})
		case json.Delim('['):
			stack = append(stack, &level{})
		case json.Delim(']'):
			stack = stack[:len(stack)-1]
			afterValue()
		default:
			afterValue()
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
