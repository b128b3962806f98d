package rpc

import (
	"bytes"
	"sync"
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
