package conformance

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// The scripted host: answers to server→client requests (PROTOCOL §5.2
// host/notification/show, host/sound/play, host/tool/resolve,
// host/tool/invoke), a second server on the same home, and kill -9.

// HostResponder answers server→client requests automatically, for the
// whole case and every server of it. The first responder whose method (and
// match pattern, against the request's params) fits answers; a request no
// responder fits stays unanswered (a step may answer it with answerRequest).
// The request stays in the notification buffer either way, so
// expectNotification can check what was asked.
type HostResponder struct {
	Method string          `json:"method"`
	Match  json.RawMessage `json:"match"`  // pattern for params (optional)
	Result json.RawMessage `json:"result"` // the result to send
	Error  json.RawMessage `json:"error"`  // or a JSON-RPC error object {code, message}
	// DelayMs delays the answer. NoAnswer never answers (a host that hangs).
	DelayMs  int  `json:"delayMs"`
	NoAnswer bool `json:"noAnswer"`
	// Times limits how many requests this responder answers (0 = all);
	// later requests fall through to the next responder.
	Times int `json:"times"`
}

// AnswerRequestStep answers the first not yet answered server→client request
// with that method (and params matching Match), waiting for it up to the
// step's timeoutMs.
type AnswerRequestStep struct {
	Method  string          `json:"method"`
	Match   json.RawMessage `json:"match"`
	Result  json.RawMessage `json:"result"`
	Error   json.RawMessage `json:"error"`
	DelayMs int             `json:"delayMs"`
}

// StartServerStep starts another server (default args ["app-server",
// "--stdio"]) on the same home, named Name; steps address it with "on".
// Starting a name again (after kill) replaces it: a restart.
type StartServerStep struct {
	Name string `json:"name"`
	// HostResponders, when set, replace the case's responders for this
	// server (e.g. a restarted host that answers where the first hung).
	HostResponders []HostResponder   `json:"hostResponders"`
	Args           []string          `json:"args"`
	Env            map[string]string `json:"env"`
}

// KillStep sends SIGKILL (default) or another signal ("TERM") to the
// server named by the step's "on" and waits for it to exit.
type KillStep struct {
	Signal string `json:"signal"`
}

// hostSim is the per-conn scripted host: it sees every server→client
// request as it arrives (conn.accept), so an expect step consuming the
// request from the notification buffer never races the answer.
type hostSim struct {
	r          *caseRun
	mu         sync.Mutex
	responders []HostResponder
	used       []int     // answers given per responder
	open       []message // requests no responder took, for answerRequest
}

// request offers one server→client request to the responders.
func (h *hostSim) request(c *conn, m message) {
	method, _ := m.v["method"].(string)
	h.mu.Lock()
	defer h.mu.Unlock()
	for i, hr := range h.responders {
		if hr.Method != method {
			continue
		}
		if hr.Match != nil {
			pat, err := decodeExpanded(hr.Match, h.r.vars)
			if err != nil || matchValue("$", pat, m.v["params"], true) != nil {
				continue
			}
		}
		if hr.Times > 0 && h.used[i] >= hr.Times {
			continue
		}
		h.used[i]++
		if hr.NoAnswer {
			return
		}
		vars := h.r.vars
		go func() {
			if hr.DelayMs > 0 {
				time.Sleep(time.Duration(hr.DelayMs) * time.Millisecond)
			}
			if err := sendAnswer(c, m.v["id"], hr.Result, hr.Error, vars); err != nil {
				h.r.logf("host answer to %s failed: %v", method, err)
			}
		}()
		return
	}
	h.open = append(h.open, m)
}

func (r *caseRun) connFor(name string) (*conn, error) {
	if name == "" {
		return r.conn, nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	c := r.conns[name]
	if c == nil {
		return nil, fmt.Errorf("no server named %q (startServer first)", name)
	}
	return c, nil
}

// startServer starts a server process with the case's environment.
func (r *caseRun) startServer(args []string, extraEnv map[string]string, framing string, responders []HostResponder) (*conn, error) {
	if len(args) == 0 {
		args = []string{"app-server", "--stdio"}
	}
	args = append([]string(nil), args...)
	for i := range args {
		args[i] = expand(args[i], r.vars)
	}
	cmd := exec.Command(r.bin, args...)
	cmd.Dir = r.root
	cmd.Env = r.environ(filepath.Join(r.root, "home"), filepath.Join(r.root, "userhome"))
	for k, v := range extraEnv {
		cmd.Env = append(cmd.Env, k+"="+expand(v, r.vars))
	}
	if responders == nil {
		responders = r.c.HostResponders
	}
	sim := &hostSim{r: r, responders: responders, used: make([]int, len(responders))}
	return startConnWith(cmd, framing, sim)
}

func sendAnswer(c *conn, id any, result, rpcErr json.RawMessage, vars map[string]string) error {
	msg := map[string]any{"jsonrpc": "2.0", "id": id}
	if rpcErr != nil {
		v, err := decodeExpanded(rpcErr, vars)
		if err != nil {
			return err
		}
		msg["error"] = v
	} else {
		var v any = nil
		if result != nil {
			var err error
			if v, err = decodeExpanded(result, vars); err != nil {
				return err
			}
		}
		msg["result"] = v
	}
	b, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	return c.send(b)
}

// answerRequest is the answerRequest step: it takes the first request no
// responder answered.
func (r *caseRun) answerRequest(c *conn, s *AnswerRequestStep, vars map[string]string, timeout time.Duration) error {
	var pat any
	if s.Match != nil {
		var err error
		if pat, err = decodeExpanded(s.Match, vars); err != nil {
			return err
		}
	}
	var got *message
	ok, _ := c.waitFor(timeout, func() bool {
		c.sim.mu.Lock()
		defer c.sim.mu.Unlock()
		for i, m := range c.sim.open {
			if m.v["method"] != s.Method || (pat != nil && matchValue("$", pat, m.v["params"], true) != nil) {
				continue
			}
			got = &m
			c.sim.open = append(c.sim.open[:i:i], c.sim.open[i+1:]...)
			return true
		}
		return false
	})
	if !ok {
		return fmt.Errorf("answerRequest %s: no unanswered request within %v", s.Method, timeout)
	}
	if s.DelayMs > 0 {
		time.Sleep(time.Duration(s.DelayMs) * time.Millisecond)
	}
	return sendAnswer(c, got.v["id"], s.Result, s.Error, vars)
}

// kill signals the server and waits for it to exit.
func (r *caseRun) kill(c *conn, s *KillStep, timeout time.Duration) error {
	sig := syscall.SIGKILL
	switch strings.ToUpper(strings.TrimPrefix(s.Signal, "SIG")) {
	case "", "KILL", "9":
	case "TERM":
		sig = syscall.SIGTERM
	case "INT":
		sig = syscall.SIGINT
	default:
		return fmt.Errorf("kill: unknown signal %q", s.Signal)
	}
	if err := c.cmd.Process.Signal(sig); err != nil {
		return fmt.Errorf("kill: %w", err)
	}
	c.killed = true
	select {
	case <-c.exited:
		return nil
	case <-time.After(timeout):
		return fmt.Errorf("kill: server still running after %v", timeout)
	}
}

// finishExtra closes and checks the servers started by startServer.
func (r *caseRun) finishExtra() {
	r.mu.Lock()
	conns := make(map[string]*conn, len(r.conns))
	for k, v := range r.conns {
		conns[k] = v
	}
	r.mu.Unlock()
	for name, c := range conns {
		r.finishConn(c, fmt.Sprintf("server %q: ", name))
	}
}
