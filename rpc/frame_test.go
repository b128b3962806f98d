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
		"{\"id\":\"\xff\xfe\",\"method\":\"initialize\"}",
	} {
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

func TestDeeplyNestedFrameIsAnsweredWithItsID(t *testing.T) {
	c := startServer(t, t.TempDir())
	deep := strings.Repeat("[", 10001) + strings.Repeat("]", 10001)
	c.sendRaw(`{"id":"x","method":"nosuch","params":{"a":` + deep + `}}` + "\n")
	m := c.read(true)
	if errCode(m) != CodeInvalidRequest || m["id"] != "x" {
		t.Fatalf("%v", m)
	}
}
