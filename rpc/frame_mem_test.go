package rpc

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
)

// repeatByte is an endless stream of one byte.
type repeatByte byte

func (r repeatByte) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(r)
	}
	return len(p), nil
}

// run is a line of n bytes c and its "\n", made as it is read.
func run(c byte, n int) io.Reader {
	return io.MultiReader(io.LimitReader(repeatByte(c), int64(n)), strings.NewReader("\n"))
}

// allocated returns how many bytes the heap has handed out so far.
func allocated() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.TotalAlloc
}

// TestLineFramerBoundsAndDropsLargeBuffers: a line over MaxFrameBytes is
// refused having allocated no more than MaxFrameBytes (plus a little), a
// frame of n bytes over 1 MiB costs about 2n (its blocks and their join),
// and after either the framer holds no buffer over keepFrameBuf, while a
// smaller buffer is kept for the next frame; every frame after them is
// served whole. The memory of a large or refused frame is then handed back
// to the OS (mem's timer is armed).
func TestLineFramerBoundsAndDropsLargeBuffers(t *testing.T) {
	const slack = 4 << 20 // the growth of buf up to keepFrameBuf, and small change
	type want struct {
		c        byte // the frame's bytes (0: text)
		n        int
		text     string
		tooLarge bool
		maxAlloc uint64 // 0: not checked
		kept     int    // cap(f.buf) after, at least
	}
	var parts []io.Reader
	var wants []want
	add := func(r io.Reader, w want) { parts, wants = append(parts, r), append(wants, w) }
	add(strings.NewReader(`{"a":1}`+"\n"), want{text: `{"a":1}`, kept: 1})
	add(run('x', MaxFrameBytes+6<<20), want{tooLarge: true, maxAlloc: MaxFrameBytes + slack})
	add(strings.NewReader(`{"b":2}`+"\n"), want{text: `{"b":2}`, kept: 1})
	add(run('k', keepFrameBuf-1), want{c: 'k', n: keepFrameBuf - 1, kept: keepFrameBuf})
	add(run('j', keepFrameBuf), want{c: 'j', n: keepFrameBuf, maxAlloc: 2*keepFrameBuf + slack})
	add(run('y', 10<<20), want{c: 'y', n: 10 << 20, maxAlloc: 20<<20 + slack})
	add(strings.NewReader("\n  \n"+`{"c":3}`+"\n"), want{text: `{"c":3}`, kept: 1})
	add(run('z', MaxFrameBytes-1), want{c: 'z', n: MaxFrameBytes - 1, maxAlloc: 2*MaxFrameBytes + slack})
	add(run('z', MaxFrameBytes), want{tooLarge: true, maxAlloc: MaxFrameBytes + slack})
	add(strings.NewReader(`{"d":4}`), want{text: `{"d":4}`, kept: 1}) // the last line, without "\n"

	f := newFramer(FramingNDJSON, io.MultiReader(parts...), io.Discard).(*lineFramer)
	for i, w := range wants {
		before := allocated()
		b, err := f.ReadFrame()
		got := allocated() - before
		switch {
		case w.tooLarge:
			if !errors.Is(err, errFrameTooLarge) {
				t.Fatalf("frame %d: %d bytes, %v; want errFrameTooLarge", i, len(b), err)
			}
			if f.mem.t == nil {
				t.Errorf("frame %d: refused, but its memory is not handed back", i)
			}
		case err != nil:
			t.Fatalf("frame %d: %v", i, err)
		case w.text != "" && string(b) != w.text:
			t.Fatalf("frame %d: %q, want %q", i, b, w.text)
		case w.text == "" && (len(b) != w.n || bytes.Count(b, []byte{w.c}) != w.n):
			t.Fatalf("frame %d: %d bytes (%d of %q), want %d", i, len(b), bytes.Count(b, []byte{w.c}), w.c, w.n)
		}
		if w.maxAlloc > 0 && got > w.maxAlloc {
			t.Errorf("frame %d: %d bytes allocated, want at most %d", i, got, w.maxAlloc)
		}
		if cap(f.buf) > keepFrameBuf || cap(f.buf) < w.kept || f.blocks != nil || f.n != 0 {
			t.Errorf("frame %d: after it the framer holds a buffer of %d bytes (want %d to %d) and %d blocks (%d bytes)",
				i, cap(f.buf), w.kept, keepFrameBuf, len(f.blocks), f.n)
		}
	}
	if b, err := f.ReadFrame(); err != io.EOF {
		t.Fatalf("after the last frame: %q, %v; want EOF", b, err)
	}
}

// TestLSPFramerDropsLargeBuffers: the buffer of a body over keepFrameBuf
// goes with the frame; a smaller one is kept for the next frame.
func TestLSPFramerDropsLargeBuffers(t *testing.T) {
	body := strings.Repeat("y", 10<<20)
	in := fmt.Sprintf("Content-Length: 2\r\n\r\n{}Content-Length: %d\r\n\r\n%sContent-Length: 3\r\n\r\n[1]", len(body), body)
	f := newFramer(FramingContentLength, strings.NewReader(in), io.Discard).(*lspFramer)
	for i, w := range []struct {
		frame string
		kept  int
	}{{"{}", 2}, {body, 0}, {"[1]", 3}} {
		b, err := f.ReadFrame()
		if err != nil || string(b) != w.frame {
			t.Fatalf("frame %d: %d bytes, %v; want %d bytes", i, len(b), err, len(w.frame))
		}
		if cap(f.buf) != w.kept {
			t.Errorf("frame %d: after it the framer holds %d bytes, want %d", i, cap(f.buf), w.kept)
		}
	}
	if f.mem.t == nil {
		t.Error("the memory of the 10 MiB frame is not handed back")
	}
}

// TestOversizedLineIsAnsweredAndTheNextServed: over real pipes, a 70 MiB
// line is answered -32600 (id null) and the request after it is served.
func TestOversizedLineIsAnsweredAndTheNextServed(t *testing.T) {
	c := startServer(t, t.TempDir())
	go func() {
		// Write errors end the test at its reads.
		piece := bytes.Repeat([]byte("x"), 1<<20)
		io.WriteString(c.w, `{"id":1,"method":"initialize","params":{"pad":"`)
		for range 70 {
			c.w.Write(piece)
		}
		io.WriteString(c.w, `"}}`+"\n"+`{"id":2,"method":"initialize","params":{"protocolVersion":"1","clientInfo":{"name":"t"}}}`+"\n")
	}()
	m := c.read(true)
	if errCode(m) != CodeInvalidRequest || m["id"] != nil || !strings.Contains(fmt.Sprint(m["error"]), "64 MiB") {
		t.Fatalf("70 MiB line: %v", m)
	}
	if m := c.read(true); m["result"] == nil || m["id"] != float64(2) {
		t.Fatalf("the request after it: %v", m)
	}
}

// TestLineFramerLastLineTooLarge: a last line without "\n" over
// MaxFrameBytes is refused like any other (errFrameTooLarge, which the
// server answers), and the read after it sees the end of the stream.
func TestLineFramerLastLineTooLarge(t *testing.T) {
	r := io.MultiReader(strings.NewReader(`{"a":1}`+"\n"), io.LimitReader(repeatByte('x'), MaxFrameBytes+1))
	f := newFramer(FramingNDJSON, r, io.Discard)
	if b, err := f.ReadFrame(); err != nil || string(b) != `{"a":1}` {
		t.Fatalf("first frame: %q, %v", b, err)
	}
	if b, err := f.ReadFrame(); !errors.Is(err, errFrameTooLarge) {
		t.Fatalf("last line of %d bytes without \"\\n\": %d bytes, %v; want errFrameTooLarge", MaxFrameBytes+1, len(b), err)
	}
	if b, err := f.ReadFrame(); err != io.EOF {
		t.Fatalf("after it: %q, %v; want EOF", b, err)
	}
}
