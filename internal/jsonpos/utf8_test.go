package jsonpos

import "testing"

func TestInvalidUTF8(t *testing.T) {
	for in, want := range map[string]int{
		"": -1, "abc": -1, "é✓😀 \ufffd": -1,
		"a\xff": 1, "é\xe2\x9c": 2, "\xf4\x90\x80\x80": 0, "ab\xed\xa0\x80": 2, "\xc0\xaf": 0, "x\x80y": 1,
	} {
		off, ok := InvalidUTF8([]byte(in))
		if (want < 0) == ok || (ok && off != want) || (!ok && off != len(in)) {
			t.Errorf("%q: %d %v, want %d", in, off, ok, want)
		}
	}
}
