package jsonpos

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestIndexLineCol: Index.LineCol agrees with LineCol at every offset
// (and outside the data) of documents mixing ASCII, newlines, multi-byte
// runes, runes and invalid bytes across checkpoint boundaries, and one
// long line (a minified file), with a leading byte order mark or not.
func TestIndexLineCol(t *testing.T) {
	pieces := []string{"a", "{\"k\": 1}", "\n", "\r\n", "ä", "😀", "\xe2\x82", "\xff", "\x80", strings.Repeat("x", 509)}
	r := rand.New(rand.NewPCG(1, 2))
	docs := [][]byte{nil, []byte("\n"), []byte("x"), bytes.Repeat([]byte("é"), 3000), []byte("\ufeff{,}"), []byte("\ufeff")}
	for i := range 20 {
		var b bytes.Buffer
		if i%4 == 0 {
			b.Write(bom) // a leading byte order mark takes no column
		}
		for b.Len() < 5000 {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		docs = append(docs, b.Bytes())
	}
	for di, d := range docs {
		x := NewIndex(d)
		for off := -2; off <= len(d)+2; off++ {
			l1, c1 := LineCol(d, off)
			l2, c2 := x.LineCol(off)
			if l1 != l2 || c1 != c2 {
				t.Fatalf("doc %d offset %d: Index %d:%d, LineCol %d:%d", di, off, l2, c2, l1, c1)
			}
		}
		if got, want := x.At("f", len(d)/2), At("f", d, len(d)/2); got != want {
			t.Errorf("doc %d: At %q, want %q", di, got, want)
		}
	}
}

// TestIndexReadsBounded: a lookup reads at most one checkpoint step, so n
// lookups over a document of n lines cost O(n) and not O(n²): the
// checkpoints are about len/512, each lookup starts at most 512+3 bytes
// before its offset.
func TestIndexReadsBounded(t *testing.T) {
	d := bytes.Repeat([]byte("{\"type\": \"command\", \"command\": \"echo 1\"},\n"), 20000)
	x := NewIndex(d)
	if n, max := len(x.cps), len(d)/indexStep+1; n > max {
		t.Fatalf("%d checkpoints for %d bytes, want at most %d", n, len(d), max)
	}
	for off := 0; off <= len(d); off += 97 {
		i := min(off/indexStep, len(x.cps)-1)
		for x.cps[i].off > off {
			i--
		}
		if span := off - x.cps[i].off; span > indexStep+3 {
			t.Fatalf("offset %d: lookup reads %d bytes", off, span)
		}
	}
}

func BenchmarkIndexLineCol(b *testing.B) {
	d := bytes.Repeat([]byte("{\"type\": \"command\", \"command\": \"echo 1\"},\n"), 10000)
	b.ReportAllocs()
	for b.Loop() {
		x := NewIndex(d)
		for off := 0; off < len(d); off += 43 {
			x.LineCol(off)
		}
	}
}
