//go:build linux

package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// errGone is returned by call when the app-server died (killed by a fault)
// before answering.
var errGone = errors.New("app-server gone")

// rpcErr is a JSON-RPC error object.
type rpcErr struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data"`
}

// frame is any frame the app-server writes.
type frame struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *rpcErr         `json:"error"`
}

type pending struct {
	method string
	sent   time.Time
	bound  time.Duration
	gen    int32 // the process's stall generation at send time
	ch     chan frame
}

// proc is one `hookside app-server --stdio` incarnation driven over real
// pipes: a reader goroutine routes replies by id and answers the server's
// host requests with the scripted host (s.host).
type proc struct {
	s     *soak
	slot  int
	inc   int
	token string // SOAK_TOKEN value every child of this incarnation inherits
	cmd   *exec.Cmd
	start time.Time

	wmu sync.Mutex
	w   io.WriteCloser

	mu      sync.Mutex
	waiting map[int64]*pending
	nextID  atomic.Int64
	// stallGen is odd while the process is SIGSTOPped; a request whose
	// send and reply saw different generations overlapped a stall.
	stallGen atomic.Int32
	killed   atomic.Bool
	dead     chan struct{}
	stderr   *tailBuffer
	// nullErrors counts error replies with id null (parse errors).
	nullErrors atomic.Int64
	// open holds the runIds of hook/started not yet followed by their
	// hook/completed (guarded by mu); notes counts both.
	open  map[string]bool
	notes int
}

// tailBuffer keeps the last max bytes written (the server's stderr).
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
	max int
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = append([]byte(nil), t.buf[len(t.buf)-t.max:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimSpace(string(t.buf))
}

func (s *soak) startProc(slot, inc int) (*proc, error) {
	p := &proc{s: s, slot: slot, inc: inc, token: fmt.Sprintf("%s-p%d-i%d", s.runID, slot, inc),
		waiting: map[int64]*pending{}, open: map[string]bool{}, dead: make(chan struct{}), stderr: &tailBuffer{max: 8 << 10}}
	cmd := exec.Command(s.bin, "app-server", "--stdio", "--log-level", "warn")
	cmd.Dir = s.ws
	cmd.Env = s.childEnv("SOAK_TOKEN=" + p.token)
	cmd.Stderr = p.stderr
	w, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	r, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p.cmd, p.w, p.start = cmd, w, time.Now()
	go p.read(bufio.NewReaderSize(r, 1<<20))
	return p, nil
}

func (p *proc) pid() int { return p.cmd.Process.Pid }

func (p *proc) alive() bool {
	select {
	case <-p.dead:
		return false
	default:
		return true
	}
}

func (p *proc) write(b []byte) error {
	p.wmu.Lock()
	defer p.wmu.Unlock()
	_, err := p.w.Write(b)
	return err
}

func (p *proc) read(r *bufio.Reader) {
	defer func() {
		_ = p.cmd.Wait()
		close(p.dead)
	}()
	for {
		line, err := r.ReadBytes('\n')
		if err != nil {
			return
		}
		var f frame
		if json.Unmarshal(line, &f) != nil {
			p.s.count("protocol: unparsable frame from the server", 1)
			continue
		}
		switch {
		case f.Method != "" && len(f.ID) > 0:
			go p.s.host(p, f)
		case f.Method != "":
			p.s.count("notification "+f.Method, 1)
			if f.Method == "hook/started" || f.Method == "hook/completed" {
				var n struct {
					RunID string `json:"runId"`
				}
				_ = json.Unmarshal(f.Params, &n)
				p.mu.Lock()
				p.notes++
				if f.Method == "hook/started" {
					p.open[n.RunID] = true
				} else {
					delete(p.open, n.RunID)
				}
				p.mu.Unlock()
			}
		case string(f.ID) == "null":
			p.nullErrors.Add(1)
		default:
			id, err := strconv.ParseInt(string(f.ID), 10, 64)
			if err != nil {
				p.s.count("protocol: reply with a non-numeric id", 1)
				continue
			}
			p.mu.Lock()
			w := p.waiting[id]
			delete(p.waiting, id)
			p.mu.Unlock()
			if w == nil {
				p.s.count("protocol: reply to no request", 1)
				continue
			}
			w.ch <- f
		}
	}
}

// call sends one request and waits for its reply. bound is the time the
// answer is due (the hook deadline and kill grace plus the soak's slack);
// a late answer, or none while the process lives, is recorded against the
// "answered within deadline + grace" invariant. A reply that is a JSON-RPC
// error is returned as the frame with f.Error set and a nil error.
func (p *proc) call(method string, params any, bound time.Duration) (frame, error) {
	return p.callAs(method, method, params, bound)
}

// callAs is call with the label the request is counted under.
func (p *proc) callAs(label, method string, params any, bound time.Duration) (frame, error) {
	b, err := json.Marshal(params)
	if err != nil {
		return frame{}, err
	}
	id := p.nextID.Add(1)
	line := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`+"\n", id, method, b)
	return p.callRaw(id, label, []byte(line), bound)
}

func (p *proc) callRaw(id int64, method string, line []byte, bound time.Duration) (frame, error) {
	w := &pending{method: method, sent: time.Now(), bound: bound, gen: p.stallGen.Load(), ch: make(chan frame, 1)}
	p.mu.Lock()
	p.waiting[id] = w
	p.mu.Unlock()
	if err := p.write(line); err != nil {
		p.mu.Lock()
		delete(p.waiting, id)
		p.mu.Unlock()
		if !p.alive() || p.killed.Load() {
			return frame{}, errGone
		}
		return frame{}, err
	}
	hard := time.NewTimer(bound + p.s.hardCap)
	defer hard.Stop()
	select {
	case f := <-w.ch:
		p.s.answered(p, w, time.Since(w.sent))
		return f, nil
	case <-p.dead:
		p.s.lostWithProcess(p, w)
		return frame{}, errGone
	case <-hard.C:
		p.s.unanswered(p, w)
		return frame{}, fmt.Errorf("%s: no answer in %s", method, bound+p.s.hardCap)
	}
}

// stop closes stdin (EOF = shutdown) and waits for the exit.
func (p *proc) stop(wait time.Duration) error {
	p.wmu.Lock()
	_ = p.w.Close()
	p.wmu.Unlock()
	select {
	case <-p.dead:
		return nil
	case <-time.After(wait):
		_ = p.cmd.Process.Signal(syscall.SIGKILL)
		<-p.dead
		return fmt.Errorf("app-server slot %d did not exit within %s of EOF (killed)", p.slot, wait)
	}
}

// handshake: initialize with notification host actions declared.
func (p *proc) handshake() error {
	f, err := p.call("initialize", map[string]any{"protocolVersion": "1", "clientInfo": map[string]any{"name": "soak"},
		"capabilities": map[string]any{"hostActions": []string{"notification"}}}, 10*time.Second)
	if err != nil {
		return err
	}
	if f.Error != nil {
		return fmt.Errorf("initialize: %s", f.Error.Message)
	}
	return p.write([]byte(`{"jsonrpc":"2.0","method":"initialized"}` + "\n"))
}

// procStats reads VmRSS (KiB) and the number of open fds of pid.
func procStats(pid int) (rssKiB int64, fds int) {
	if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid)); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmRSS:" {
				rssKiB, _ = strconv.ParseInt(f[1], 10, 64)
			}
		}
	}
	if ents, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid)); err == nil {
		fds = len(ents)
	}
	return rssKiB, fds
}

// host is the scripted host: it answers host/notification/show fast,
// slowly (past the action's timeout), with an error, or never.
func (s *soak) host(p *proc, f frame) {
	answer := func(result string) {
		_ = p.write([]byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":%s}`+"\n", f.ID, result)))
	}
	if f.Method != "host/notification/show" {
		s.count("host request "+f.Method, 1)
		answer(`{}`)
		return
	}
	var prm struct {
		RunID string `json:"runId"`
	}
	_ = json.Unmarshal(f.Params, &prm)
	s.delivered(prm.RunID)
	if s.draining.Load() {
		answer(`{"shown":true}`)
		return
	}
	switch r := rand.IntN(100); {
	case r < 60:
		s.count("host: notification answered at once", 1)
		answer(`{"shown":true}`)
	case r < 75:
		s.count("host: notification answered after the action timeout", 1)
		time.Sleep(notifyTimeout + 500*time.Millisecond)
		answer(`{"shown":true}`)
	case r < 90:
		s.count("host: notification answered with an error", 1)
		_ = p.write([]byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32000,"message":"soak host refuses"}}`+"\n", f.ID)))
	default:
		s.count("host: notification never answered", 1)
	}
}

// waitFor polls cond every 100 ms until it holds or d passes.
func waitFor(d time.Duration, cond func() bool) bool {
	end := time.Now().Add(d)
	for {
		if cond() {
			return true
		}
		if time.Now().After(end) {
			return false
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// compact shortens a JSON or text value for the report.
func compact(b []byte) string {
	b = bytes.TrimSpace(b)
	if len(b) > 200 {
		return string(b[:200]) + "…"
	}
	return string(b)
}
