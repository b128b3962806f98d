package rpc

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/sourcegraph/jsonrpc2"
)

// utf8Frames are frames that are JSON but for invalid UTF-8, with the id
// and byte offset the -32700 answer carries (docs/protocol.md §1).
var utf8Frames = []struct {
	frame  string
	id     any
	offset string
}{
	// The tester's case: a stray byte inside the command a guard reads.
	{"{\"id\":7,\"method\":\"hooks/run\",\"params\":{\"sessionId\":\"s1\",\"event\":\"PreToolUse\",\"input\":{\"toolName\":\"Bash\",\"toolInput\":{\"command\":\"rm -rf / \xff\"}}}}", 7.0, "byte 0xff at offset 137"},
	{"{\"id\":\"a\",\"method\":\"nosuch\",\"params\":{\"k\xc3\":1}}", "a", "byte 0xc3 at offset 40"},
	// A surrogate encoded as UTF-8 (CESU-8) and an overlong '/'.
	{"{\"id\":8,\"method\":\"nosuch\",\"params\":[\"\xed\xa0\x80\"]}", 8.0, "byte 0xed at offset 37"},
	{"{\"id\":9,\"method\":\"nosuch\",\"params\":[\"\xc0\xaf\"]}", 9.0, "byte 0xc0 at offset 37"},
	// The id itself is not UTF-8: it cannot be echoed.
	{"{\"id\":\"\xff\xfe\",\"method\":\"initialize\"}", nil, "byte 0xff at offset 7"},
	// Also when the top level alone is an invalid request.
	{"{\"id\":10,\"jsonrpc\":\"1.0\",\"method\":\"nosuch\",\"params\":[\"\x80\"]}", 10.0, "byte 0x80 at offset 54"},
	{"[\"\xff\"]", nil, "byte 0xff at offset 2"},
}

func checkUTF8Answer(t *testing.T, m map[string]any, id any, offset string) {
	t.Helper()
	e, _ := m["error"].(map[string]any)
	msg, _ := e["message"].(string)
	if errCode(m) != CodeParseError || m["id"] != id || !strings.HasPrefix(msg, badUTF8Msg) || !strings.Contains(msg, offset) {
		t.Errorf("answer %v; want -32700 id %v %q … %q", m, id, badUTF8Msg, offset)
	}
}

// TestInvalidUTF8FrameIsRefused: a frame with a byte sequence that is not
// UTF-8, anywhere (a string in params, a member name, the id), is answered
// -32700 naming the byte and its offset, with the request's id when it is
// readable; the method does not run (hooks never see the bytes) and the
// connection serves the next frame. Valid multi-byte UTF-8 passes.
func TestInvalidUTF8FrameIsRefused(t *testing.T) {
	c := startServer(t, t.TempDir())
	for _, f := range utf8Frames {
		c.sendRaw(f.frame + "\n")
		checkUTF8Answer(t, c.read(true), f.id, f.offset)
		c.sendRaw(`{"id":"next","method":"nosuch","params":["é ✓ 😀 \ufffd"]}` + "\n")
		if m := c.read(true); errCode(m) != CodeNotInitialized || m["id"] != "next" {
			t.Fatalf("the frame after %q: %v", f.frame, m)
		}
	}
}

// TestInvalidUTF8FrameIsRefusedContentLength: the same in Content-Length
// framing (the offset counts from the start of the body).
func TestInvalidUTF8FrameIsRefusedContentLength(t *testing.T) {
	c := startLSPServer(t)
	for _, f := range utf8Frames {
		c.write(c.frame(f.frame))
		checkUTF8Answer(t, c.read(), f.id, f.offset)
		c.write(c.frame(`{"id":"next","method":"nosuch","params":["é ✓ 😀"]}`))
		if m := c.read(); errCode(m) != CodeNotInitialized || m["id"] != "next" {
			t.Fatalf("the frame after %q: %v", f.frame, m)
		}
	}
}

// TestHostReplyWithInvalidUTF8: a host's reply that is not UTF-8 is
// answered -32700 (id null: a reply's id is the server's own) and fails
// the call it answers with that error at once.
func TestHostReplyWithInvalidUTF8(t *testing.T) {
	in := "{\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{\"reason\":\"\xff\"}}\n" +
		`{"jsonrpc":"2.0","id":6,"result":{"reason":"ok ✓"}}` + "\n"
	var out bytes.Buffer
	s := &objectStream{f: newFramer(FramingNDJSON, strings.NewReader(in), &out), log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	var r jsonrpc2.Response
	if err := s.ReadObject(&r); err != nil {
		t.Fatal(err)
	}
	if r.ID.Num != 5 || r.Error == nil || r.Error.Code != CodeParseError || !strings.Contains(r.Error.Message, "byte 0xff at offset 44") {
		t.Fatalf("reply 5: %+v %+v", r.ID, r.Error)
	}
	r = jsonrpc2.Response{}
	if err := s.ReadObject(&r); err != nil || r.ID.Num != 6 || r.Error != nil || rawOf(r.Result) != `{"reason":"ok ✓"}` {
		t.Fatalf("reply 6: %v %+v %s", err, r.Error, rawOf(r.Result))
	}
	var ef errorFrame
	if err := json.Unmarshal(bytes.TrimSpace(out.Bytes()), &ef); err != nil || string(ef.ID) != "null" || ef.Error.Code != CodeParseError {
		t.Fatalf("answer %q: %v", out.Bytes(), err)
	}
}
