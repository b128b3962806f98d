package rpc

import (
	"bytes"
	"errors"
	"sync"
	"syscall"
	"testing"
)

// writeLog records each Write call separately.
type writeLog struct {
	mu     sync.Mutex
	writes []string
}

func (w *writeLog) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.writes = append(w.writes, string(b))
	return len(b), nil
}

// TestHeldFramesGoOutWithTheNextFrame: held frames are written in order,
// in the same Write as the next frame, in both framings; Flush writes them
// alone and is a no-op when nothing is held.
func TestHeldFramesGoOutWithTheNextFrame(t *testing.T) {
	for _, tc := range []struct {
		framing Framing
		want    string
	}{
		{FramingNDJSON, "{\"a\":1}\n{\"b\":2}\n{\"c\":3}\n"},
		{FramingContentLength, "Content-Length: 7\r\n\r\n{\"a\":1}Content-Length: 7\r\n\r\n{\"b\":2}Content-Length: 7\r\n\r\n{\"c\":3}"},
	} {
		w := &writeLog{}
		f := newFramer(tc.framing, bytes.NewReader(nil), w)
		if err := f.Flush(); err != nil || len(w.writes) != 0 {
			t.Fatalf("%s: flush with nothing held wrote %q (%v)", tc.framing, w.writes, err)
		}
		f.HoldFrame([]byte(`{"a":1}`))
		f.HoldFrame([]byte(`{"b":2}`))
		if len(w.writes) != 0 {
			t.Fatalf("%s: held frames written early: %q", tc.framing, w.writes)
		}
		if err := f.WriteFrame([]byte(`{"c":3}`)); err != nil {
			t.Fatal(err)
		}
		if len(w.writes) != 1 || w.writes[0] != tc.want {
			t.Fatalf("%s: writes %q, want one %q", tc.framing, w.writes, tc.want)
		}
		f.HoldFrame([]byte(`{"a":1}`))
		if err := f.Flush(); err != nil {
			t.Fatal(err)
		}
		if len(w.writes) != 2 || w.writes[1] != tc.want[:len(tc.want)/3] {
			t.Fatalf("%s: flush wrote %q", tc.framing, w.writes)
		}
	}
}

// failWriter fails every Write with err, counting the calls.
type failWriter struct {
	err   error
	calls int
}

func (w *failWriter) Write([]byte) (int, error) {
	w.calls++
	return 0, w.err
}

// TestFirstFailedWriteIsReportedOnceAndSticks: the first write that fails
// is told to OnWriteError's function, once; later writes and flushes
// return that error without writing, in both framings.
func TestFirstFailedWriteIsReportedOnceAndSticks(t *testing.T) {
	for _, framing := range []Framing{FramingNDJSON, FramingContentLength} {
		w := &failWriter{err: syscall.EPIPE}
		f := newFramer(framing, bytes.NewReader(nil), w)
		var told []error
		f.OnWriteError(func(err error) { told = append(told, err) })
		if err := f.WriteFrame([]byte(`{"a":1}`)); !errors.Is(err, syscall.EPIPE) {
			t.Fatalf("%s: first write: %v", framing, err)
		}
		f.HoldFrame([]byte(`{"b":2}`))
		if err := f.Flush(); !errors.Is(err, syscall.EPIPE) {
			t.Fatalf("%s: flush after the failure: %v", framing, err)
		}
		if err := f.WriteFrame([]byte(`{"c":3}`)); !errors.Is(err, syscall.EPIPE) {
			t.Fatalf("%s: write after the failure: %v", framing, err)
		}
		if w.calls != 1 || len(told) != 1 || !errors.Is(told[0], syscall.EPIPE) {
			t.Fatalf("%s: %d writes, told %v; want 1 write, told EPIPE once", framing, w.calls, told)
		}
	}
}
