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

// TestParseFramingTakesOnlyTheDocumentedNames: --framing is ndjson or
// content-length; an alias or an empty value (an unset variable) is a usage
// error naming both, not a framing picked silently.
func TestParseFramingTakesOnlyTheDocumentedNames(t *testing.T) {
	for in, want := range map[string]Framing{"ndjson": FramingNDJSON, "content-length": FramingContentLength} {
		if got, err := ParseFraming(in); err != nil || got != want {
			t.Errorf("ParseFraming(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"", "lines", "lsp", "NDJSON", "Content-Length", " ndjson"} {
		_, err := ParseFraming(in)
		if err == nil || !strings.Contains(err.Error(), "want ndjson or content-length") {
			t.Errorf("ParseFraming(%q): err = %v, want the two names", in, err)
		}
	}
}

// TestNotJSONSaysWhy: a frame that is not JSON is -32700 with id null
// (PROTOCOL.md §1), its message saying why and where: two objects on one
// line, trailing bytes, a byte order mark inside it, a frame cut short, a syntax
// slip. The connection stays up.
func TestNotJSONSaysWhy(t *testing.T) {
	c := startServer(t, t.TempDir())
	for frame, want := range map[string]string{
		`{"jsonrpc":"2.0","id":12,"method":"hooks/list"}{"jsonrpc":"2.0","id":13,"method":"x"}`: "parse error: the frame is not JSON: other data follows its JSON value, at offset 47 (a frame holds one JSON value)",
		`{"jsonrpc":"2.0","id":15,"method":"x"}` + "\x00":                                       "other data follows its JSON value, at offset 38",
		`{"jsonrpc":"2.0","id":18,"method":"x"` + "\uFEFF}":                                     "a byte order mark (U+FEFF), which JSON does not carry (RFC 8259 §8.1) at offset 37",
		`{"jsonrpc":"2.0","id":19,"method":"x"` + "\xe9}":                                       "invalid byte 0xE9 (not UTF-8) after object key:value pair at offset 37",
		`{"jsonrpc":"2.0","id":16,"method":"x","params":{"a":[1,2`:                              "it ends inside a value (cut short)",
		`{"jsonrpc":"2.0","id":17,"method":"x",}`:                                               "a trailing comma before '}': JSON allows none after the last member or element at offset 37",
		`{'jsonrpc':"2.0"}`:              "(JSON strings take double quotes) at offset 1",
		strings.Repeat("[", 10001) + "x": "parse error: the frame is not JSON: it nests more than 10000 levels deep (the most hookside reads) at offset 10000",
	} {
		c.sendRaw(frame + "\n")
		m := c.read(true)
		msg, _ := m["error"].(map[string]any)["message"].(string)
		if errCode(m) != CodeParseError || m["id"] != nil || !strings.Contains(msg, want) {
			t.Errorf("%q: %v; want -32700, id null, message with %q", frame, m, want)
		}
	}
	if r := c.call("initialize", map[string]any{"protocolVersion": "1", "clientInfo": map[string]any{"name": "t"}}); r["result"] == nil {
		t.Fatalf("initialize after the bad frames: %v", r)
	}
}

// TestByteOrderMarkBeforeAFrameIsSkipped: a UTF-8 byte order mark in front
// of a frame (what .NET's StreamWriter with Encoding.UTF8 writes before a
// stream's first bytes) is skipped, as RFC 8259 §8.1 lets a parser do: the
// request is served under its id, on every frame it precedes.
func TestByteOrderMarkBeforeAFrameIsSkipped(t *testing.T) {
	c := startServer(t, t.TempDir())
	for i, frame := range []string{
		"\uFEFF" + `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"1","clientInfo":{"name":"t"}}}`,
		"\uFEFF " + `{"jsonrpc":"2.0","id":2,"method":"shutdown"}`,
	} {
		c.sendRaw(frame + "\n")
		if m := c.read(true); m["error"] != nil || m["id"] != float64(i+1) {
			t.Fatalf("%q: %v; want the reply to id %d", frame, m, i+1)
		}
	}
	// A line of a mark only is a blank line: no reply (the next reply is
	// the next request's).
	c.sendRaw("\uFEFF\n" + `{"jsonrpc":"2.0","id":3,"method":"shutdown"}` + "\n")
	if m := c.read(true); m["id"] != float64(3) {
		t.Fatalf("after a line of a byte order mark only: %v; want no reply to it, then id 3's", m)
	}
}

// TestLSPFramerSkipsByteOrderMarkAtStart: with Content-Length framing a
// byte order mark before the first header block is skipped; the frames
// are read as without it.
func TestLSPFramerSkipsByteOrderMarkAtStart(t *testing.T) {
	f := newFramer(FramingContentLength, strings.NewReader("\uFEFFContent-Length: 2\r\n\r\n{}Content-Length: 4\r\n\r\n[1 ]"+
		"\uFEFFContent-Length: 2\r\n\r\n[]"), io.Discard) // and before a later one (a mark before each message)
	for i, want := range []string{"{}", "[1 ]", "[]"} {
		if got, err := f.ReadFrame(); err != nil || string(got) != want {
			t.Fatalf("frame %d: %q, %v; want %q", i, got, err, want)
		}
	}
}
