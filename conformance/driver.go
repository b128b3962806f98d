// Package conformance runs scripted end-to-end cases against the hookside
// binary over real pipes (see README.md for the case format).
package conformance

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Result is what running a case produced.
type Result struct {
	Failures []string
	Stderr   string
	Logf     func(string, ...any)
}

// runner executes one case.
type caseRun struct {
	c       *Case
	bin     string
	root    string
	vars    map[string]string
	conn    *conn
	conns   map[string]*conn // servers started by startServer steps
	framing string

	mu       sync.Mutex
	failures []string
	logf     func(string, ...any)
}

// RunCase runs c against the binary bin in the fresh directory root and
// returns the failures (empty = pass) and the server's stderr tail.
func RunCase(c *Case, bin, root string, logf func(string, ...any)) (failures []string, stderr string) {
	r := &caseRun{c: c, bin: bin, root: root, logf: logf}
	r.run()
	if r.conn != nil {
		stderr = r.conn.stderr.String()
	}
	return r.failures, stderr
}

func (r *caseRun) fail(format string, args ...any) {
	r.mu.Lock()
	r.failures = append(r.failures, fmt.Sprintf(format, args...))
	r.mu.Unlock()
}

func (r *caseRun) run() {
	home := filepath.Join(r.root, "home")
	ws := filepath.Join(r.root, "ws")
	userHome := filepath.Join(r.root, "userhome")
	for _, d := range []string{home, ws, userHome} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			r.fail("mkdir: %v", err)
			return
		}
	}
	r.vars = map[string]string{"HOME": home, "WS": ws, "ROOT": r.root}
	if err := r.writeFiles(); err != nil {
		r.fail("writing files: %v", err)
		return
	}
	args := r.c.Args
	if len(args) == 0 {
		args = []string{"app-server", "--stdio"}
	}
	framing := r.c.Framing
	for i, a := range args {
		args[i] = expand(a, r.vars)
		if a == "--framing" && i+1 < len(args) && framing == "" {
			framing = args[i+1]
		}
		if v, ok := strings.CutPrefix(a, "--framing="); ok && framing == "" {
			framing = v
		}
	}
	r.framing = framing
	conn, err := r.startServer(args, nil, framing, nil)
	if err != nil {
		r.fail("starting %s: %v", r.bin, err)
		return
	}
	r.conn = conn

	for i := range r.c.Steps {
		if err := r.step(&r.c.Steps[i], r.vars); err != nil {
			r.fail("step %d: %v", i, err)
			break
		}
	}
	r.finish()
}

// environ is the server's environment: the test's, minus HOOKSIDE_*, plus
// HOOKSIDE_HOME, HOME, the leak marker and the case's env.
func (r *caseRun) environ(home, userHome string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "HOOKSIDE_") || k == "HOME" || strings.HasPrefix(k, "CLAUDE_") || strings.HasPrefix(k, "ZCODE_") {
			continue
		}
		env = append(env, kv)
	}
	env = append(env, "HOOKSIDE_HOME="+home, "HOME="+userHome, markerVar+"="+r.root)
	keys := make([]string, 0, len(r.c.Env))
	for k := range r.c.Env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		env = append(env, k+"="+expand(r.c.Env[k], r.vars))
	}
	return env
}

// finish closes stdin, waits for the exit and checks the case-wide rules.
func (r *caseRun) finish() {
	r.finishConn(r.conn, "")
	r.finishExtra()
	if left := leftoverProcesses(r.root, 2*time.Second); len(left) > 0 {
		r.fail("hook processes left behind after the server exited:\n  %s", strings.Join(left, "\n  "))
	}
}

// finishConn closes one server's stdin, waits for its exit and checks its
// stdout rules (prefix names it in failures).
func (r *caseRun) finishConn(c *conn, prefix string) {
	_ = c.closeStdin()
	select {
	case <-c.exited:
	case <-time.After(exitGrace):
		r.fail("%sserver did not exit within %v after stdin was closed", prefix, exitGrace)
		_ = c.cmd.Process.Kill()
		<-c.exited
	}
	c.mu.Lock()
	for _, v := range c.violations {
		if c.killed && strings.Contains(v, "unterminated") {
			continue // a frame cut by kill -9
		}
		r.failures = append(r.failures, prefix+"protocol violation: "+v)
	}
	for _, m := range c.responses {
		r.failures = append(r.failures, prefix+"unexpected response (no expect step consumed it): "+m.String())
	}
	c.mu.Unlock()
}

func stepTimeout(s *Step) time.Duration {
	if s.TimeoutMs > 0 {
		return time.Duration(s.TimeoutMs) * time.Millisecond
	}
	return defaultTimeout
}

func stepWithin(s *Step) time.Duration {
	if s.WithinMs > 0 {
		return time.Duration(s.WithinMs) * time.Millisecond
	}
	return defaultWithin
}

func (r *caseRun) step(s *Step, vars map[string]string) error {
	if s.StartServer != nil {
		if s.StartServer.Name == "" {
			return errors.New("startServer: a name is required")
		}
		c, err := r.startServer(s.StartServer.Args, s.StartServer.Env, r.framing, s.StartServer.HostResponders)
		if err != nil {
			return fmt.Errorf("startServer: %w", err)
		}
		r.mu.Lock()
		if r.conns == nil {
			r.conns = map[string]*conn{}
		}
		old := r.conns[s.StartServer.Name]
		r.conns[s.StartServer.Name] = c
		r.mu.Unlock()
		if old != nil {
			r.finishConn(old, fmt.Sprintf("server %q (replaced): ", s.StartServer.Name))
		}
		return nil
	}
	c, err := r.connFor(s.On)
	if err != nil {
		return err
	}
	switch {
	case s.AnswerRequest != nil:
		return r.answerRequest(c, s.AnswerRequest, vars, stepTimeout(s))
	case s.Kill != nil:
		return r.kill(c, s.Kill, stepTimeout(s))
	case s.Send != nil:
		v, err := decodeExpanded(s.Send, vars)
		if err != nil {
			return fmt.Errorf("send: %w", err)
		}
		if obj, ok := v.(map[string]any); ok {
			if _, has := obj["jsonrpc"]; !has {
				obj["jsonrpc"] = "2.0"
			}
		}
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		return c.send(b)
	case s.SendRaw != nil:
		return c.write([]byte(s.SendRaw.text(vars)))
	case s.Expect != nil:
		pat, err := decodeExpanded(s.Expect, vars)
		if err != nil {
			return fmt.Errorf("expect: %w", err)
		}
		got, err := r.expectResponse(c, pat, stepTimeout(s))
		var miss *noResponse
		if s.Optional && errors.As(err, &miss) {
			return nil
		}
		if err != nil {
			return err
		}
		return capture(s.Capture, got, vars)
	case s.ExpectNotification != nil:
		pat, err := decodeExpanded(s.ExpectNotification, vars)
		if err != nil {
			return fmt.Errorf("expectNotification: %w", err)
		}
		n := max(s.Count, 1)
		for i := range n {
			if err := r.expectNotification(c, pat, stepTimeout(s)); err != nil {
				if n > 1 {
					return fmt.Errorf("notification %d of %d: %w", i+1, n, err)
				}
				return err
			}
		}
		return nil
	case s.ExpectNoNotification != nil:
		pat, err := decodeExpanded(s.ExpectNoNotification, vars)
		if err != nil {
			return fmt.Errorf("expectNoNotification: %w", err)
		}
		if m, ok := pat.(string); ok {
			pat = map[string]any{"method": m}
		}
		var got *message
		c.waitFor(stepWithin(s), func() bool {
			for i := range c.notes {
				if matchValue("$", pat, c.notes[i].v, true) == nil {
					got = &c.notes[i]
					return true
				}
			}
			return false
		})
		if got != nil {
			return fmt.Errorf("expectNoNotification %s: got %s", compact(pat, 500), got)
		}
		return nil
	case s.ExpectNoResponse != nil:
		var got *message
		c.waitFor(stepWithin(s), func() bool {
			if len(c.responses) > 0 {
				got = &c.responses[0]
				return true
			}
			return false
		})
		if got != nil {
			return fmt.Errorf("expectNoResponse: got %s", got)
		}
		return nil
	case s.Sleep != nil:
		time.Sleep(time.Duration(*s.Sleep) * time.Millisecond)
		return nil
	case s.CloseStdin != nil:
		return c.closeStdin()
	case s.ExpectExit != nil:
		select {
		case <-c.exited:
		case <-time.After(stepTimeout(s)):
			return fmt.Errorf("expectExit %d: server still running after %v", *s.ExpectExit, stepTimeout(s))
		}
		c.mu.Lock()
		code, werr := c.exitCode, c.exitErr
		c.mu.Unlock()
		if code != *s.ExpectExit {
			return fmt.Errorf("expectExit: exit status %d (%v), want %d", code, werr, *s.ExpectExit)
		}
		return nil
	case s.WriteFile != nil:
		return writeCaseFile(r.root, expand(s.WriteFile.Path, vars), s.WriteFile.Content, s.WriteFile.Mode, vars)
	case s.ExpectFile != nil:
		return r.expectFile(s.ExpectFile, vars, stepTimeout(s))
	case s.ExpectProcessGone != nil:
		return expectProcessGone(expand(*s.ExpectProcessGone, vars), stepTimeout(s))
	case s.Handshake != nil:
		return r.handshake(c, s.Handshake, s.Capture, vars, stepTimeout(s))
	case s.Run != nil:
		return r.runCommand(s, vars)
	case s.Symlink != nil:
		return r.symlink(s.Symlink, vars)
	case s.ExpectGlob != nil:
		return r.expectGlob(s.ExpectGlob, vars)
	case s.Repeat != nil:
		for i := range s.Repeat.Count {
			iv := withVar(vars, "i", strconv.Itoa(i))
			for j := range s.Repeat.Steps {
				if err := r.step(&s.Repeat.Steps[j], iv); err != nil {
					return fmt.Errorf("repeat i=%d step %d: %w", i, j, err)
				}
			}
		}
		return nil
	case s.Concurrent != nil:
		errs := make([]error, s.Concurrent.Count)
		var wg sync.WaitGroup
		for i := range s.Concurrent.Count {
			wg.Go(func() {
				iv := withVar(vars, "i", strconv.Itoa(i))
				for j := range s.Concurrent.Steps {
					if err := r.step(&s.Concurrent.Steps[j], iv); err != nil {
						errs[i] = fmt.Errorf("concurrent i=%d step %d: %w", i, j, err)
						return
					}
				}
			})
		}
		wg.Wait()
		var all []error
		for _, e := range errs {
			if e != nil {
				all = append(all, e)
			}
		}
		if len(all) > 5 {
			all = append(all[:5], fmt.Errorf("… and %d more", len(all)-5))
		}
		return errors.Join(all...)
	}
	return errors.New("empty step")
}

func withVar(vars map[string]string, k, v string) map[string]string {
	out := make(map[string]string, len(vars)+1)
	for a, b := range vars {
		out[a] = b
	}
	out[k] = v
	return out
}

// expectResponse waits for the response with the pattern's id (when the
// pattern names a literal id) or the next response, and matches it.
func (r *caseRun) expectResponse(c *conn, pat any, timeout time.Duration) (map[string]any, error) {
	obj, _ := pat.(map[string]any)
	wantID, byID := obj["id"]
	if byID {
		if m, isOp := wantID.(map[string]any); isOp && isOpObject(m) {
			byID = false
		}
		if s, ok := wantID.(string); ok && strings.HasPrefix(s, "$") {
			byID = false
		}
	}
	var got message
	ok, eof := c.waitFor(timeout, func() bool {
		for i, m := range c.responses {
			if !byID || deepEqual(m.v["id"], wantID) {
				got = m
				c.responses = append(c.responses[:i:i], c.responses[i+1:]...)
				return true
			}
		}
		return false
	})
	if !ok {
		why := fmt.Sprintf("no response within %v", timeout)
		if eof {
			why = "server stdout closed before the response arrived"
		}
		return nil, &noResponse{fmt.Sprintf("expect %s: %s%s", compact(pat, 1500), why, r.pending(c))}
	}
	r.logf("<- %s", compact(got.v, 2000))
	if mm := matchValue("$", pat, got.v, true); mm != nil {
		return nil, fmt.Errorf("expect: response does not match\n    %v\n    expected: %s\n    actual:   %s", mm, compact(pat, 3000), got)
	}
	return got.v, nil
}

// noResponse is the error of an expect that saw no response.
type noResponse struct{ msg string }

func (e *noResponse) Error() string { return e.msg }

// expectNotification consumes the first buffered or incoming notification
// matching pat.
func (r *caseRun) expectNotification(c *conn, pat any, timeout time.Duration) error {
	ok, eof := c.waitFor(timeout, func() bool {
		for i, m := range c.notes {
			if matchValue("$", pat, m.v, true) == nil {
				c.notes = append(c.notes[:i:i], c.notes[i+1:]...)
				return true
			}
		}
		return false
	})
	if ok {
		return nil
	}
	why := fmt.Sprintf("none within %v", timeout)
	if eof {
		why = "server stdout closed first"
	}
	// Show the closest candidates: same method first.
	c.mu.Lock()
	defer c.mu.Unlock()
	var near []string
	method, _ := pat.(map[string]any)["method"]
	for _, m := range c.notes {
		if method == nil || deepEqual(m.v["method"], method) {
			near = append(near, fmt.Sprintf("%v\n      in %s", matchValue("$", pat, m.v, true), m))
			if len(near) == 4 {
				break
			}
		}
	}
	msg := fmt.Sprintf("expectNotification %s: %s", compact(pat, 1500), why)
	if len(near) > 0 {
		msg += "\n    unmatched candidates:\n    - " + strings.Join(near, "\n    - ")
	} else {
		msg += fmt.Sprintf("\n    (%d other notifications buffered)", len(c.notes))
	}
	return errors.New(msg)
}

// pending describes unconsumed responses, for failure messages.
func (r *caseRun) pending(c *conn) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.responses) == 0 {
		return ""
	}
	var s []string
	for i, m := range c.responses {
		if i == 4 {
			s = append(s, fmt.Sprintf("… %d more", len(c.responses)-4))
			break
		}
		s = append(s, m.String())
	}
	return "\n    unconsumed responses:\n    - " + strings.Join(s, "\n    - ")
}

// handshake sends initialize (id "hs-init") and initialized, then, when the
// argument holds "session", session/open (id "hs-open") with sessionId
// "s1" and cwd ${WS} unless given. "initialize" overrides initialize
// params; "expectOpen" is a pattern for the session/open result.
func (r *caseRun) handshake(c *conn, raw json.RawMessage, capt map[string]string, vars map[string]string, timeout time.Duration) error {
	v, err := decodeExpanded(raw, vars)
	if err != nil {
		return err
	}
	arg, _ := v.(map[string]any)
	initParams := map[string]any{"protocolVersion": "1", "clientInfo": map[string]any{"name": "conformance", "version": "0"}}
	if o, ok := arg["initialize"].(map[string]any); ok {
		for k, x := range o {
			initParams[k] = x
		}
	}
	send := func(m map[string]any) error {
		m["jsonrpc"] = "2.0"
		b, err := json.Marshal(m)
		if err != nil {
			return err
		}
		return c.send(b)
	}
	if err := send(map[string]any{"id": "hs-init", "method": "initialize", "params": initParams}); err != nil {
		return err
	}
	if _, err := r.expectResponse(c, map[string]any{"id": "hs-init", "result": map[string]any{"protocolVersion": "1"}}, timeout); err != nil {
		return fmt.Errorf("handshake: %w", err)
	}
	if err := send(map[string]any{"method": "initialized", "params": map[string]any{}}); err != nil {
		return err
	}
	sess, ok := arg["session"].(map[string]any)
	if !ok {
		return nil
	}
	params := map[string]any{"sessionId": "s1", "cwd": vars["WS"]}
	for k, x := range sess {
		params[k] = x
	}
	if err := send(map[string]any{"id": "hs-open", "method": "session/open", "params": params}); err != nil {
		return err
	}
	want := map[string]any{"id": "hs-open", "result": map[string]any{"sessionId": params["sessionId"]}}
	if e, ok := arg["expectOpen"]; ok {
		want["result"] = e
	}
	got, err := r.expectResponse(c, want, timeout)
	if err != nil {
		return fmt.Errorf("handshake: %w", err)
	}
	return capture(capt, got, vars)
}
