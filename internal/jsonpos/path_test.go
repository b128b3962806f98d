package jsonpos

import "testing"

// TestKey: a plain name joins the path with "."; a name that could be
// read as several (empty, or holding ".", "[", "]", "'" or "\") is in
// brackets and single quotes, "\" and "'" escaped, and PathOffset reads
// that form back to the member it names, not to a nested one.
func TestKey(t *testing.T) {
	for _, c := range []struct{ path, key, want string }{
		{"", "a", "a"},
		{"a", "b", "a.b"},
		{"", "a.b", `['a.b']`},
		{"x", "a.b", `x['a.b']`},
		{"x[1]", "y", "x[1].y"},
		{"", "", `['']`},
		{"", "a[0]", `['a[0]']`},
		{"", `it's`, `['it\'s']`},
		{"", `back\slash`, `['back\\slash']`},
		{"", "ünï cödé", "ünï cödé"},
	} {
		if got := Key(c.path, c.key); got != c.want {
			t.Errorf("Key(%q, %q) = %q, want %q", c.path, c.key, got, c.want)
		}
	}
	data := []byte(`{"a.b": 1, "a": {"c": 2, "c.d": {"e": 3}}, "it's": [4], "": 5, "q\\": 6}`)
	for path, want := range map[string]string{
		`['a.b']`:       "1,",
		"a.c":           "2,",
		`a['c.d'].e`:    "3}",
		`a['c.d']['e']`: "3}",
		`['it\'s'][0]`:  "4]",
		`['']`:          "5,",
		`['q\\']`:       "6}",
	} {
		off, ok := PathOffset(data, path)
		if !ok || string(data[off:off+len(want)]) != want {
			t.Errorf("PathOffset(%q) = %d %v, want the value %q", path, off, ok, want)
		}
	}
	for _, path := range []string{`['a.b'].x`, `['a.c']`, `['a.b`, `['a.b'`} {
		if off, ok := PathOffset(data, path); ok {
			t.Errorf("PathOffset(%q) = %d, want not found", path, off)
		}
	}
}

// TestLineColAfterBOM: a leading byte order mark takes no column (an
// editor does not show it): the byte after it is column 1; byte offsets
// still count it, and lines after the first are not affected.
func TestLineColAfterBOM(t *testing.T) {
	data := []byte("\ufeff{\"é\":1,\n \"b\"}")
	for _, c := range []struct{ off, line, col int }{
		{3, 1, 1}, {4, 1, 2}, {9, 1, 6}, {13, 2, 2},
	} {
		if l, col := LineCol(data, c.off); l != c.line || col != c.col {
			t.Errorf("LineCol(%d) = %d:%d, want %d:%d", c.off, l, col, c.line, c.col)
		}
	}
	if body, base := SkipBOM(data); base != 3 || string(body[:1]) != "{" {
		t.Errorf("SkipBOM = %q, %d", body, base)
	}
	if body, base := SkipBOM([]byte("{}")); base != 0 || string(body) != "{}" {
		t.Errorf("SkipBOM without a mark = %q, %d", body, base)
	}
}
