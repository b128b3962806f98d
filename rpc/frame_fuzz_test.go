package rpc

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
)

// FuzzLSPFramer: any byte stream read as Content-Length frames ends (EOF
// or an error) without a panic, every frame it yields is as long as a
// Content-Length said and never over MaxFrameBytes, and it reads no more
// frames than the stream has bytes.
func FuzzLSPFramer(f *testing.F) {
	for _, s := range []string{
		"Content-Length: 2\r\n\r\n{}",
		"Content-Length: 5\r\n\r\n" + `{"jsonrpc":"2.0","id":95,"method":"x"}Content-Length: 2` + "\r\n\r\n{}",
		"Content-Lenght 40\r\n\r\n{}Content-Length: 2\r\n\r\n{}",
		"Content-Length: 1\r\nContent-Length: 2\r\n\r\n{}",
		"\r\n\r\n" + `{"a":1}` + "\n",
		"Content-Length: 99999999999\r\n\r\n",
		`x"y:z Content-Length: 3` + "\r\n\r\n[1]",
		"Content-Length: 2\r\n\r\n{}garbageContent-Length: 2\r\n\r\n{}",
		"Content-Length: 2\r\n\r\n{}garbage\r\nContent-Length: 2\r\n\r\n{}",
		"Content-Length: 2\r\n\r\n{}abcContent-Length: 2\r\n\r\n{}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		fr := newFramer(FramingContentLength, bytes.NewReader(in), io.Discard)
		for n := 0; ; n++ {
			if n > len(in)+1 {
				t.Fatalf("%d frames from %d bytes", n, len(in))
			}
			b, err := fr.ReadFrame()
			if err != nil {
				if errors.Is(err, errBadHeader) || errors.Is(err, errFrameTooLarge) {
					continue
				}
				return
			}
			if len(b) > MaxFrameBytes || len(b) > len(in) {
				t.Fatalf("frame of %d bytes from %d", len(b), len(in))
			}
		}
	})
}

// FuzzLSPFramerServesTheFrameAfterStrayBytes: whatever bytes without ':'
// or "content-length" follow a body longer than its Content-Length, read
// one byte at a time (as if each byte came in its own write), the next
// well-formed frame is the last one read, after at most one errBadHeader
// per line of those bytes (and one more for the part glued to the header).
func FuzzLSPFramerServesTheFrameAfterStrayBytes(f *testing.F) {
	for _, s := range []string{"garbage", "garbage\r\n", "abc", "a\r\n\r\nb\nc", "{x\n{y", "X-", " ", "\r"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, stray []byte) {
		if bytes.IndexByte(stray, ':') >= 0 || strings.Contains(strings.ToLower(string(stray)), "content-length") {
			t.Skip("bytes that could be a header")
		}
		body := `{"jsonrpc":"2.0","id":2,"method":"x"}`
		in := "Content-Length: 2\r\n\r\n{}" + string(stray) + fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body)
		fr := newFramer(FramingContentLength, iotest.OneByteReader(strings.NewReader(in)), io.Discard)
		var last string
		bad := 0
		for {
			b, err := fr.ReadFrame()
			if errors.Is(err, errBadHeader) {
				bad++
				continue
			}
			if err != nil {
				break
			}
			last = string(b)
		}
		if last != body {
			t.Fatalf("last frame %q, want the well-formed frame", last)
		}
		if lines := bytes.Count(stray, []byte("\n")) + 1; bad > lines {
			t.Fatalf("%d -32700 replies for %d lines of stray bytes", bad, lines)
		}
	})
}

// FuzzLineFramer: any byte stream, with a run of up to 3 MiB of one byte
// put in its middle (lines longer than the 1 MiB buffer the framer keeps
// go on in blocks), yields its non-blank lines, trimmed, in order, and
// after each the framer holds no more than keepFrameBuf.
func FuzzLineFramer(f *testing.F) {
	for _, s := range []struct {
		in  string
		run uint32
	}{
		{`{"a":1}` + "\n" + `{"b":2}`, 0},
		{"\n \n{}\r\n", 10},
		{`{"x":"` + "\n" + `"}`, keepFrameBuf - 7},
		{`{"x":"` + "\n" + `"}`, keepFrameBuf - 6},
		{"a\nb", keepFrameBuf},
		{"a\nb", 2*keepFrameBuf + 1},
		{"  \n  ", 3 << 20},
	} {
		f.Add([]byte(s.in), s.run)
	}
	f.Fuzz(func(t *testing.T, in []byte, run uint32) {
		run %= 3<<20 + 1
		mid := len(in) / 2
		c := byte('x')
		if mid < len(in) {
			c = in[mid]
		}
		stream := slices.Concat(in[:mid], bytes.Repeat([]byte{c}, int(run)), in[mid:])
		var want [][]byte
		for _, l := range bytes.Split(stream, []byte("\n")) {
			if l = bytes.TrimSpace(l); len(l) > 0 {
				want = append(want, l)
			}
		}
		fr := newFramer(FramingNDJSON, bytes.NewReader(stream), io.Discard).(*lineFramer)
		for i := 0; ; i++ {
			b, err := fr.ReadFrame()
			if err == io.EOF && i == len(want) {
				return
			}
			if err != nil || i >= len(want) || !bytes.Equal(b, want[i]) {
				t.Fatalf("frame %d: %d bytes, %v; want %d of %d frames", i, len(b), err, i+1, len(want))
			}
			if cap(fr.buf) > keepFrameBuf || fr.blocks != nil || fr.n != 0 {
				t.Fatalf("frame %d: the framer holds %d bytes and %d blocks", i, cap(fr.buf), len(fr.blocks))
			}
		}
	})
}
