package conformance

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// conn is one running server and the client end of its pipes.
type conn struct {
	cmd     *exec.Cmd
	framing string

	wmu         sync.Mutex
	stdin       io.WriteCloser
	stdinClosed bool

	mu         sync.Mutex
	changed    chan struct{} // closed and replaced whenever the inbox changes
	responses  []message     // unconsumed responses (no "method")
	notes      []message     // unconsumed notifications and server->client requests
	eof        bool          // stdout reached EOF
	violations []string      // protocol violations seen on stdout

	exited   chan struct{}
	exitCode int
	exitErr  error

	stderr *capBuffer

	sim    *hostSim // scripted host answers (hostsim.go)
	killed bool     // killed by a kill step: its exit status is not checked
}

// message is one decoded frame the server sent.
type message struct {
	raw []byte
	v   map[string]any
}

func (m message) String() string { return compact(m.v, 4000) }

// capBuffer keeps the last max bytes written to it.
type capBuffer struct {
	mu  sync.Mutex
	buf []byte
	max int
}

func (b *capBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if len(b.buf) > b.max {
		b.buf = append([]byte(nil), b.buf[len(b.buf)-b.max:]...)
	}
	return len(p), nil
}

func (b *capBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.buf)
}

func startConn(cmd *exec.Cmd, framing string) (*conn, error) {
	return startConnWith(cmd, framing, nil)
}

// startConnWith starts the server with a scripted host (hostsim.go) that
// sees every server→client request as it arrives.
func startConnWith(cmd *exec.Cmd, framing string, sim *hostSim) (*conn, error) {
	c := &conn{cmd: cmd, framing: framing, changed: make(chan struct{}), exited: make(chan struct{}),
		stderr: &capBuffer{max: 64 << 10}, sim: sim}
	var err error
	if c.stdin, err = cmd.StdinPipe(); err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = c.stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	readDone := make(chan struct{})
	go func() {
		defer close(readDone)
		c.readLoop(stdout)
	}()
	go func() {
		<-readDone // Wait closes the pipe: read everything first
		err := cmd.Wait()
		c.mu.Lock()
		c.exitErr = err
		c.exitCode = cmd.ProcessState.ExitCode()
		c.mu.Unlock()
		close(c.exited)
		c.bump()
	}()
	return c, nil
}

// bump wakes every waiter.
func (c *conn) bump() {
	c.mu.Lock()
	close(c.changed)
	c.changed = make(chan struct{})
	c.mu.Unlock()
}

func (c *conn) readLoop(r io.Reader) {
	br := bufio.NewReaderSize(r, 1<<20)
	for {
		frame, err := c.readFrame(br)
		if len(frame) > 0 {
			c.accept(frame)
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				c.violation("reading stdout: " + err.Error())
			}
			c.mu.Lock()
			c.eof = true
			c.mu.Unlock()
			c.bump()
			return
		}
	}
}

func (c *conn) readFrame(br *bufio.Reader) ([]byte, error) {
	if c.framing != "content-length" {
		line, err := br.ReadBytes('\n')
		if err == nil {
			line = line[:len(line)-1]
		} else if len(line) > 0 {
			c.violation(fmt.Sprintf("stdout ended with an unterminated line: %q", clip(line)))
			return nil, err
		}
		return line, err
	}
	length := -1
	for {
		h, err := br.ReadString('\n')
		if err != nil {
			if h != "" {
				c.violation(fmt.Sprintf("truncated header %q", h))
			}
			return nil, err
		}
		h = strings.TrimRight(h, "\r\n")
		if h == "" {
			break
		}
		name, val, ok := strings.Cut(h, ":")
		if !ok {
			c.violation(fmt.Sprintf("malformed header line %q", h))
			continue
		}
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			n, err := strconv.Atoi(strings.TrimSpace(val))
			if err != nil {
				c.violation(fmt.Sprintf("bad Content-Length %q", val))
			}
			length = n
		}
	}
	if length < 0 {
		c.violation("frame without Content-Length")
		return nil, nil
	}
	body := make([]byte, length)
	_, err := io.ReadFull(br, body)
	return body, err
}

func clip(b []byte) []byte {
	if len(b) > 300 {
		return b[:300]
	}
	return b
}

func (c *conn) violation(s string) {
	c.mu.Lock()
	c.violations = append(c.violations, s)
	c.mu.Unlock()
}

// accept checks one frame (PROTOCOL.md §1: stdout carries protocol frames
// only; outgoing messages always carry "jsonrpc":"2.0") and files it.
func (c *conn) accept(frame []byte) {
	if !utf8.Valid(frame) {
		c.violation(fmt.Sprintf("stdout frame is not valid UTF-8: %q", clip(frame)))
	}
	var v map[string]any
	dec := json.NewDecoder(bytes.NewReader(frame))
	if err := dec.Decode(&v); err != nil || dec.More() {
		c.violation(fmt.Sprintf("stdout frame is not one JSON object: %q", clip(frame)))
		return
	}
	if v["jsonrpc"] != "2.0" {
		c.violation(fmt.Sprintf(`outgoing message without "jsonrpc":"2.0": %s`, clip(frame)))
	}
	m := message{raw: append([]byte(nil), frame...), v: v}
	c.mu.Lock()
	_, isCall := v["method"]
	if isCall {
		c.notes = append(c.notes, m)
	} else {
		c.responses = append(c.responses, m)
	}
	c.mu.Unlock()
	if id, hasID := v["id"]; isCall && hasID && id != nil && c.sim != nil {
		c.sim.request(c, m)
	}
	c.bump()
}

// write sends bytes as they are.
func (c *conn) write(b []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if c.stdinClosed {
		return errors.New("stdin already closed")
	}
	_, err := c.stdin.Write(b)
	return err
}

// send frames one JSON message.
func (c *conn) send(body []byte) error {
	if c.framing == "content-length" {
		frame := fmt.Appendf(nil, "Content-Length: %d\r\n\r\n", len(body))
		return c.write(append(frame, body...))
	}
	return c.write(append(append([]byte(nil), body...), '\n'))
}

func (c *conn) closeStdin() error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if c.stdinClosed {
		return nil
	}
	c.stdinClosed = true
	return c.stdin.Close()
}

// waitFor calls take (under the lock) until it returns true, the server's
// stdout ends, or the deadline passes.
func (c *conn) waitFor(timeout time.Duration, take func() bool) (ok, eof bool) {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		c.mu.Lock()
		if take() {
			c.mu.Unlock()
			return true, false
		}
		eof = c.eof
		ch := c.changed
		c.mu.Unlock()
		if eof {
			return false, true
		}
		select {
		case <-ch:
		case <-deadline.C:
			return false, false
		}
	}
}

// running reports whether the server process is still alive.
func (c *conn) running() bool {
	select {
	case <-c.exited:
		return false
	default:
		return true
	}
}
