package rpc

import (
	"bytes"
	"errors"
	"io"
	"testing"
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
