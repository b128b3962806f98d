package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// replyTimeout bounds every wait of the demo host: a reply, a host request,
// a run update.
const replyTimeout = 30 * time.Second

// frame is one JSON-RPC message from hookside: a response (ID, Result or
// Error), a notification (Method, Params) or a server→client request (ID,
// Method, Params).
type frame struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

// hostRequest is a server→client request the demo host answered.
type hostRequest struct {
	Method string
	Params json.RawMessage
	Answer any
}

// host is the demo's side of one app-server connection. A reader goroutine
// routes responses to the waiting call, answers host/* requests at once and
// hands them, and v2/run/updated notifications, to the tour on channels.
type host struct {
	out    io.Writer
	in     io.Writer
	wmu    sync.Mutex
	nextID int

	mu      sync.Mutex
	pending map[string]chan frame
	notes   map[string]int
	closed  chan struct{}
	readErr error

	requests chan hostRequest
	runs     chan json.RawMessage
}

func newHost(out io.Writer, in io.Writer, from io.Reader) *host {
	h := &host{out: out, in: in, pending: map[string]chan frame{}, notes: map[string]int{},
		closed: make(chan struct{}), requests: make(chan hostRequest, 16), runs: make(chan json.RawMessage, 64)}
	go h.read(from)
	return h
}

func (h *host) read(from io.Reader) {
	sc := bufio.NewScanner(from)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	defer close(h.closed)
	for sc.Scan() {
		var f frame
		if err := json.Unmarshal(sc.Bytes(), &f); err != nil {
			h.readErr = fmt.Errorf("bad frame %q: %w", sc.Text(), err)
			return
		}
		switch {
		case f.Method != "" && f.ID != nil:
			h.answer(f)
		case f.Method != "":
			h.mu.Lock()
			h.notes[f.Method]++
			h.mu.Unlock()
			if f.Method == "v2/run/updated" {
				select {
				case h.runs <- f.Params:
				default:
				}
			}
		default:
			h.mu.Lock()
			ch := h.pending[string(f.ID)]
			delete(h.pending, string(f.ID))
			h.mu.Unlock()
			if ch != nil {
				ch <- f
			}
		}
	}
	h.readErr = fmt.Errorf("hookside closed stdout: %v", sc.Err())
}

// answer replies to a host/* request: the demo host shows notifications
// (it declared only that action); anything else is -32601.
func (h *host) answer(f frame) {
	reply := map[string]any{"id": f.ID}
	var answer any
	if f.Method == "host/notification/show" {
		answer = map[string]any{"shown": true}
		reply["result"] = answer
	} else {
		answer = map[string]any{"code": -32601, "message": "the demo host does not offer " + f.Method}
		reply["error"] = answer
	}
	_ = h.write(reply, false)
	select {
	case h.requests <- hostRequest{Method: f.Method, Params: f.Params, Answer: answer}:
	default:
	}
}

func (h *host) write(msg map[string]any, echo bool) error {
	msg["jsonrpc"] = "2.0"
	b, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	h.wmu.Lock()
	defer h.wmu.Unlock()
	if echo {
		fmt.Fprintf(h.out, "   → %s\n", b)
	}
	_, err = h.in.Write(append(b, '\n'))
	return err
}

func (h *host) notify(method string, params any) error {
	m := map[string]any{"method": method}
	if params != nil {
		m["params"] = params
	}
	return h.write(m, true)
}

// call sends a request and waits for its reply; a JSON-RPC error is an error.
func (h *host) call(method string, params any) (json.RawMessage, error) {
	h.nextID++
	id := h.nextID
	ch := make(chan frame, 1)
	h.mu.Lock()
	h.pending[fmt.Sprint(id)] = ch
	h.mu.Unlock()
	m := map[string]any{"id": id, "method": method}
	if params != nil {
		m["params"] = params
	}
	if err := h.write(m, true); err != nil {
		return nil, err
	}
	select {
	case f := <-ch:
		if f.Error != nil {
			return nil, fmt.Errorf("%s failed: %s", method, f.Error)
		}
		return f.Result, nil
	case <-h.closed:
		return nil, h.readErr
	case <-time.After(replyTimeout):
		return nil, fmt.Errorf("%s: no reply in %v", method, replyTimeout)
	}
}

// hostRequest waits for the next server→client request.
func (h *host) hostRequest() (hostRequest, error) {
	select {
	case r := <-h.requests:
		return r, nil
	case <-h.closed:
		return hostRequest{}, h.readErr
	case <-time.After(replyTimeout):
		return hostRequest{}, fmt.Errorf("no host/* request from hookside in %v", replyTimeout)
	}
}

// runReaches waits for a v2/run/updated notification of runID with status.
func (h *host) runReaches(runID, status string) (json.RawMessage, error) {
	timeout := time.After(replyTimeout)
	for {
		select {
		case p := <-h.runs:
			var n struct {
				Run struct {
					ID     string `json:"id"`
					Status string `json:"status"`
				} `json:"run"`
			}
			if json.Unmarshal(p, &n) == nil && n.Run.ID == runID && n.Run.Status == status {
				return p, nil
			}
		case <-h.closed:
			return nil, h.readErr
		case <-timeout:
			return nil, fmt.Errorf("run %s did not reach %s in %v", runID, status, replyTimeout)
		}
	}
}

func (h *host) noteCounts() map[string]int {
	h.mu.Lock()
	defer h.mu.Unlock()
	c := make(map[string]int, len(h.notes))
	for k, v := range h.notes {
		c[k] = v
	}
	return c
}

// indent continues a multi-line value under its label.
func indent(s string) string {
	return strings.ReplaceAll(s, "\n", "\n                   ")
}

// clip shortens a raw result for display.
func clip(b []byte) string {
	if len(b) > 300 {
		return string(b[:300]) + "…"
	}
	return string(b)
}
