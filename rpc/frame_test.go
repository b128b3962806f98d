package rpc

import (
	"errors"
	"io"
	"strings"
	"testing"
)

func TestLSPFramer(t *testing.T) {
	in := "Content-Length:2\r\n\r\n{}" + // no space after the colon
		"Content-Length: 0\r\n\r\n" + // empty body
		"content-length: 4\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n[1 ]" +
		"Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}" // disagreeing headers
	f := newFramer(FramingContentLength, strings.NewReader(in), io.Discard)
	want := []struct {
		frame string
		err   error
	}{{"{}", nil}, {"", nil}, {"[1 ]", nil}, {"", errBadHeader}}
	for i, w := range want {
		got, err := f.ReadFrame()
		if !errors.Is(err, w.err) || (err == nil && string(got) != w.frame) {
			t.Fatalf("frame %d: got %q, %v; want %q, %v", i, got, err, w.frame, w.err)
		}
	}
}

func TestEmptyAndOddIDsAreAnswered(t *testing.T) {
	c := startServer(t, t.TempDir())
	for _, frame := range []string{
		`{"id":"\ud800","method":"initialize"}`,
	} { // an id that is not UTF-8 is -32700 (utf8_test.go)
		c.sendRaw(frame + "\n")
		if m := c.read(true); errCode(m) != CodeInvalidRequest {
			t.Fatalf("%q: %v", frame, m)
		}
	}
	// A literal U+FFFD in an id is fine.
	c.sendRaw(`{"id":"a\ufffd","method":"initialize","params":{"protocolVersion":"1","clientInfo":{"name":"t"}}}` + "\n")
	if m := c.read(true); m["result"] == nil || m["id"] != "a\ufffd" {
		t.Fatalf("U+FFFD id: %v", m)
	}
}

// TestDeeplyNestedFrameIsAnsweredWithItsID: arrays and objects nested over
// 10000 levels, at the top of the frame or inside params, get -32600 (with
// the frame's id when it has one), a deep frame that is also broken gets
// -32700, and the next frame on the connection is still answered.
func TestDeeplyNestedFrameIsAnsweredWithItsID(t *testing.T) {
	c := startServer(t, t.TempDir())
	arrays := strings.Repeat("[", 20000) + strings.Repeat("]", 20000)
	objects := strings.Repeat(`{"a":`, 20000) + "1" + strings.Repeat("}", 20000)
	for _, f := range []struct {
		frame string
		code  int
		id    any
	}{
		{`{"id":"x","method":"nosuch","params":{"a":` + strings.Repeat("[", 10001) + strings.Repeat("]", 10001) + `}}`, CodeInvalidRequest, "x"},
		{arrays, CodeInvalidRequest, nil},
		{objects, CodeInvalidRequest, nil},
		{`{"id":1,"method":"nosuch","params":` + arrays + `}`, CodeInvalidRequest, 1.0},
		{`{"id":2,"method":"nosuch","params":` + objects + `}`, CodeInvalidRequest, 2.0},
		{`{"id":3,"method":"nosuch","params":{"a":` + objects + `}}`, CodeInvalidRequest, 3.0},
		{arrays + "x", CodeParseError, nil},
		{strings.Repeat("[", 20000), CodeParseError, nil},
		{`{"id":4,"method":"nosuch","params":` + arrays[:39999] + `}`, CodeParseError, nil},
	} {
		c.sendRaw(f.frame + "\n")
		if m := c.read(true); errCode(m) != f.code || m["id"] != f.id {
			t.Fatalf("%.60s…: %v; want code %d id %v", f.frame, m, f.code, f.id)
		}
		c.sendRaw(`{"id":"next","method":"nosuch"}` + "\n")
		if m := c.read(true); errCode(m) != CodeNotInitialized || m["id"] != "next" {
			t.Fatalf("the frame after %.60s…: %v", f.frame, m)
		}
	}
}
