package rpc

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"
)

// lspConn is a Content-Length client of a server over real OS pipes
// (startServerOpts with FramingContentLength).
type lspConn struct {
	t    *testing.T
	w    io.WriteCloser
	r    *bufio.Reader
	done chan int
}

func startLSPServer(t *testing.T) *lspConn {
	t.Helper()
	c := startServerOpts(t, Options{Framing: FramingContentLength, Home: t.TempDir()})
	return &lspConn{t: t, w: c.w, r: c.r, done: c.done}
}

func (c *lspConn) write(s string) {
	c.t.Helper()
	if _, err := io.WriteString(c.w, s); err != nil {
		c.t.Fatal(err)
	}
}

func (c *lspConn) frame(body string) string {
	return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body)
}

// read returns the next reply, failing after 20 s (a reply that never comes).
func (c *lspConn) read() map[string]any {
	c.t.Helper()
	type res struct {
		m   map[string]any
		err error
	}
	ch := make(chan res, 1)
	go func() {
		hdr, err := c.r.ReadString('\n')
		if err != nil {
			ch <- res{err: err}
			return
		}
		var n int
		if _, err := fmt.Sscanf(hdr, "Content-Length: %d", &n); err != nil {
			ch <- res{err: fmt.Errorf("header %q: %v", hdr, err)}
			return
		}
		c.r.ReadString('\n')
		buf := make([]byte, n)
		if _, err := io.ReadFull(c.r, buf); err != nil {
			ch <- res{err: err}
			return
		}
		var m map[string]any
		ch <- res{m: m, err: json.Unmarshal(buf, &m)}
	}()
	select {
	case r := <-ch:
		if r.err != nil {
			c.t.Fatal(r.err)
		}
		return r.m
	case <-time.After(20 * time.Second):
		c.t.Fatal("no reply within 20 s")
	}
	return nil
}

const lspInit = `{"jsonrpc":"2.0","id":%d,"method":"initialize","params":{"protocolVersion":"1","clientInfo":{"name":"t"}}}`

// TestContentLengthOversizedIsAnsweredAtTheHeader: a Content-Length over
// the frame limit is refused (-32600) before its body is sent; the body is
// then read and discarded and the next frame is served.
func TestContentLengthOversizedIsAnsweredAtTheHeader(t *testing.T) {
	c := startLSPServer(t)
	c.write(fmt.Sprintf("Content-Length: %d\r\nContent-Type: application/vscode-jsonrpc\r\n", MaxFrameBytes+1))
	m := c.read() // nothing of the header block's end or the body was sent yet
	if errCode(m) != CodeInvalidRequest || !strings.Contains(fmt.Sprint(m["error"]), "67108865") {
		t.Fatalf("want -32600 naming the length, got %v", m)
	}
	c.write("\r\n")
	chunk := make([]byte, 1<<20)
	for left := MaxFrameBytes + 1; left > 0; left -= len(chunk) {
		c.write(string(chunk[:min(left, len(chunk))]))
	}
	c.write(c.frame(fmt.Sprintf(lspInit, 1)))
	if m := c.read(); m["result"] == nil || m["id"] != float64(1) {
		t.Fatalf("the frame after the discarded body: %v", m)
	}
}

// TestContentLengthAbsurdLengthAnsweredThenEOFExitsCleanly: 99999999999 is
// answered at once; EOF while its body is awaited ends the server with 0.
func TestContentLengthAbsurdLengthAnsweredThenEOFExitsCleanly(t *testing.T) {
	c := startLSPServer(t)
	c.write("Content-Length: 99999999999\r\n\r\n")
	if m := c.read(); errCode(m) != CodeInvalidRequest {
		t.Fatalf("want -32600, got %v", m)
	}
	c.w.Close()
	select {
	case code := <-c.done:
		if code != 0 {
			t.Fatalf("exit %d", code)
		}
		c.done <- code
	case <-time.After(10 * time.Second):
		t.Fatal("server did not exit after EOF")
	}
}

// TestContentLengthRecoversAfterMalformedHeaders: a header block without a
// usable length is -32700 and the stream resynchronises at the next
// Content-Length (a body without a newline shares its line with it); with a
// readable length and a bad line, the body is skipped; the rest of a body
// longer than its Content-Length is answered -32700 once and dropped up to
// the next header. The message of a malformed header block names its first
// fault (the value, why) and what was dropped.
func TestContentLengthRecoversAfterMalformedHeaders(t *testing.T) {
	c := startLSPServer(t)
	const bh = "parse error: malformed Content-Length header: "
	const resync = "; dropped up to the next Content-Length header"
	for i, bad := range []struct {
		in      string
		replies int    // -32700 replies before the next frame's
		msg     string // the first reply's message; "" = not checked
	}{
		{"Content-Lenght 40\r\n\r\n" + `{"jsonrpc":"2.0","id":99,"method":"x"}`, 1, ""},
		{"Content-Length: abc\r\n\r\n" + `{"id":98}` + "\n\n", 1, bh + `Content-Length "abc" is not a decimal number of bytes` + resync},
		{"Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}", 1, bh + "two Content-Length headers disagree (2 and 3)" + resync},
		{"Content-Length: 12\r\nno colon here\r\n\r\n" + `{"id":97}   `, 1, bh + `header line "no colon here" has no ':'; its body (12 bytes) was skipped`},
		{"Content-Length: 1\r\n" + strings.Repeat("x", 100<<10) + "\r\n\r\n{", 1, bh + "a header line over 64 KiB; its body (1 byte) was skipped"},
		{`{"jsonrpc":"2.0","id":96,"method":"initialize"}` + "\n", 1, ""},               // an NDJSON peer
		{"Content-Length: 5\r\n\r\n" + `{"jsonrpc":"2.0","id":95,"method":"x"}`, 2, ""}, // the short body, then the rest glued to the next header
		{"Content-Length: -3\r\n\r\n", 1, bh + "Content-Length -3 is negative" + resync},
		{"Content-Length: 99999999999999999999\r\n\r\n", 1, bh + `Content-Length "99999999999999999999" is out of range` + resync},
		{"Content-Type: text/plain\r\n\r\n", 1, bh + "no Content-Length header in the header block" + resync},
	} {
		c.write(bad.in + c.frame(fmt.Sprintf(lspInit, i+1)))
		for r := range bad.replies {
			m := c.read()
			if errCode(m) != CodeParseError || m["id"] != nil {
				t.Fatalf("case %d: want -32700 id null, got %v", i, m)
			}
			if got := m["error"].(map[string]any)["message"]; r == 0 && bad.msg != "" && got != bad.msg {
				t.Fatalf("case %d: message\n got %v\nwant %s", i, got, bad.msg)
			}
		}
		m := c.read()
		if m["id"] != float64(i+1) {
			t.Fatalf("case %d: want the next frame answered, got %v", i, m)
		}
	}
}

// TestContentLengthServesTheFrameAfterAnOverlongBody: the bytes after a
// body longer than its Content-Length are answered -32700 once (id null)
// and dropped; the well-formed frame sent after them in a separate write is
// served, whether the stray bytes ended with a newline or not, and whatever
// they look like.
func TestContentLengthServesTheFrameAfterAnOverlongBody(t *testing.T) {
	c := startLSPServer(t)
	c.write(c.frame(fmt.Sprintf(lspInit, 1)))
	if m := c.read(); m["result"] == nil {
		t.Fatalf("initialize: %v", m)
	}
	for i, tail := range []string{
		"garbage",
		"garbage\r\n",
		"abc",
		"garbage\r\nmore: garbage\r\nand more\r\n\r\n",
		`,"id":7}`,
		"X-",
		strings.Repeat("g", 100<<10),
		strings.Repeat("g", 100<<10) + "\r\n",
	} {
		c.write("Content-Length: 2\r\n\r\n{}" + tail)
		if m := c.read(); errCode(m) != CodeInvalidRequest {
			t.Fatalf("case %d: want -32600 for {}, got %v", i, m)
		}
		id := i + 10
		c.write(c.frame(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"hooks/list","params":{"sessionId":"none"}}`, id)))
		if m := c.read(); errCode(m) != CodeParseError || m["id"] != nil {
			t.Fatalf("case %d: want -32700 id null for the stray bytes, got %v", i, m)
		}
		if m := c.read(); m["id"] != float64(id) {
			t.Fatalf("case %d: want the next frame answered, got %v", i, m)
		}
	}
}
