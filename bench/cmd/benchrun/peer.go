package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// peer is one long-lived process driven over real pipes: hookside, a spawn
// floor (C or Go), the exec core or the Node runner. One request line in,
// one answer line out.
type peer struct {
	name   string
	cmd    *exec.Cmd
	w      io.WriteCloser
	r      *bufio.Reader
	stderr *bytes.Buffer
	id     int
	// claude: hooks/run sends Claude Code's input shape (tool_name, …).
	claude bool
	// firstErr is the first error reply seen by pipelinedReqs.
	firstErr string
}

// childEnv is the driver's environment without hookside/host variables,
// with HOME pointing at a private directory.
func childEnv(userHome string, extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "HOOKSIDE_") || strings.HasPrefix(k, "CLAUDE_") || strings.HasPrefix(k, "ZCODE_") || k == "HOME" {
			continue
		}
		env = append(env, kv)
	}
	return append(append(env, "HOME="+userHome), extra...)
}

func startPeer(name, dir string, env []string, argv ...string) (*peer, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir, cmd.Env = dir, env
	w, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	var stderr bytes.Buffer
	cmd.Stderr = &limitedBuffer{buf: &stderr, max: 64 << 10}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	return &peer{name: name, cmd: cmd, w: w, r: bufio.NewReaderSize(out, 1<<20), stderr: &stderr, id: 100}, nil
}

type limitedBuffer struct {
	buf *bytes.Buffer
	max int
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if room := l.max - l.buf.Len(); room > 0 {
		l.buf.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

func (p *peer) pid() int { return p.cmd.Process.Pid }

func (p *peer) send(b []byte) error {
	_, err := p.w.Write(b)
	return err
}

// reply reads frames until one that is not a notification (no "method"
// member) and returns it; the slice is valid until the next read.
func (p *peer) reply() ([]byte, error) {
	for {
		line, err := p.r.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			// An answer longer than the buffer: keep the tail only.
			for err == bufio.ErrBufferFull {
				line, err = p.r.ReadSlice('\n')
			}
			if err == nil {
				return []byte(`{"long":true}`), nil
			}
		}
		if err != nil {
			return nil, fmt.Errorf("%s: read: %w (stderr: %s)", p.name, err, tail(p.stderr.String()))
		}
		if isNote(line) {
			continue
		}
		return line, nil
	}
}

// isNote tells a notification or server→client request from a reply.
func isNote(line []byte) bool {
	i := bytes.Index(line, []byte(`"method":`))
	if i < 0 {
		return false
	}
	// A reply's result could in principle contain "method": only count a
	// member that comes before any "result"/"error".
	j := bytes.Index(line, []byte(`"result":`))
	k := bytes.Index(line, []byte(`"error":`))
	return (j < 0 || i < j) && (k < 0 || i < k)
}

// roundTrip sends one request line and waits for its answer.
func (p *peer) roundTrip(req []byte) (time.Duration, []byte, error) {
	t0 := time.Now()
	if err := p.send(req); err != nil {
		return 0, nil, fmt.Errorf("%s: write: %w (stderr: %s)", p.name, err, tail(p.stderr.String()))
	}
	line, err := p.reply()
	return time.Since(t0), line, err
}

// call sends a JSON-RPC request and decodes the reply.
func (p *peer) call(method string, params any) (map[string]any, error) {
	p.id++
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": p.id, "method": method, "params": params})
	_, line, err := p.roundTrip(append(b, '\n'))
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(line, &m); err != nil {
		return nil, fmt.Errorf("%s: bad reply %q: %w", p.name, line, err)
	}
	if e, ok := m["error"]; ok {
		return m, fmt.Errorf("%s %s: error %v", p.name, method, e)
	}
	return m, nil
}

// stop closes stdin (EOF = shutdown for all three kinds) and reaps.
func (p *peer) stop() {
	_ = p.w.Close()
	done := make(chan struct{})
	go func() {
		_, _ = io.Copy(io.Discard, p.r)
		_ = p.cmd.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		_ = p.cmd.Process.Signal(syscall.SIGKILL)
		<-done
	}
}

func tail(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 400 {
		s = "…" + s[len(s)-400:]
	}
	return s
}

// procStatus reads VmRSS and VmHWM (KiB) of pid.
func procStatus(pid int) (rss, hwm int64) {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "status"))
	if err != nil {
		return -1, -1
	}
	for _, l := range strings.Split(string(b), "\n") {
		f := strings.Fields(l)
		if len(f) < 2 {
			continue
		}
		v, _ := strconv.ParseInt(f[1], 10, 64)
		switch f[0] {
		case "VmRSS:":
			rss = v
		case "VmHWM:":
			hwm = v
		}
	}
	return rss, hwm
}

// ---- hookside ----

// hookSpec is one process hook in a generated user config.
type hookSpec struct {
	argv      []string
	timeoutMs int
}

// userConfig builds a user config with n copies of h on PreToolUse/Bash.
func userConfig(h hookSpec, n int, parallel bool, matcher string) map[string]any {
	hooks := make([]any, n)
	for i := range hooks {
		m := map[string]any{"type": "process", "command": h.argv[0], "args": h.argv[1:]}
		if h.timeoutMs > 0 {
			m["timeoutMs"] = h.timeoutMs
		}
		hooks[i] = m
	}
	group := map[string]any{"matcher": matcher, "hooks": hooks}
	if parallel {
		group["parallel"] = true
	}
	return map[string]any{"hooks": map[string]any{"enabled": true, "events": map[string]any{"PreToolUse": []any{group}}}}
}

// hookside starts `bin app-server --stdio` with its own home holding cfg,
// initializes it and opens session s1. initParams are merged into
// initialize's params.
func (e *env) hookside(name string, cfg map[string]any, initParams map[string]any) (*peer, error) {
	return e.hooksideBin(name, e.bin, cfg, initParams)
}

// hooksideBin is hookside with another build of it (bin), extra entries
// added to its environment.
func (e *env) hooksideBin(name, bin string, cfg map[string]any, initParams map[string]any, extraEnv ...string) (*peer, error) {
	home, err := os.MkdirTemp(e.tmp, "home-")
	if err != nil {
		return nil, err
	}
	if cfg != nil {
		b, _ := json.Marshal(cfg)
		if err := os.WriteFile(filepath.Join(home, "config.json"), b, 0o600); err != nil {
			return nil, err
		}
	}
	return e.startSessionBin(name, bin, home, initParams, nil, extraEnv...)
}

// startSession starts `bin app-server --stdio` on home, initializes it and
// opens session s1 (handshakeSession).
func (e *env) startSession(name, home string, initParams, sessionParams map[string]any) (*peer, error) {
	return e.startSessionBin(name, e.bin, home, initParams, sessionParams)
}

// startSessionBin is startSession with another build (bin) and extra
// environment entries.
func (e *env) startSessionBin(name, bin, home string, initParams, sessionParams map[string]any, extraEnv ...string) (*peer, error) {
	env := childEnv(e.userHome, append([]string{"HOOKSIDE_HOME=" + home}, extraEnv...)...)
	p, err := startPeer(name, e.cwd, env, bin, "app-server", "--stdio", "--log-level", "warn")
	if err != nil {
		return nil, err
	}
	if err := e.handshakeSession(p, initParams, sessionParams); err != nil {
		p.stop()
		return nil, err
	}
	return p, nil
}

// handshake sends initialize, initialized and session/open s1.
func (e *env) handshake(p *peer, initParams map[string]any) error {
	return e.handshakeSession(p, initParams, nil)
}

// handshakeSession is handshake with more session/open params.
func (e *env) handshakeSession(p *peer, initParams, sessionParams map[string]any) error {
	params := map[string]any{"protocolVersion": "1", "clientInfo": map[string]any{"name": "benchrun"}}
	for k, v := range initParams {
		params[k] = v
	}
	if _, err := p.call("initialize", params); err != nil {
		return err
	}
	_ = p.send([]byte(`{"jsonrpc":"2.0","method":"initialized"}` + "\n"))
	open := map[string]any{"sessionId": "s1", "cwd": e.cwd}
	for k, v := range sessionParams {
		open[k] = v
	}
	_, err := p.call("session/open", open)
	return err
}

// runReq is one hooks/run request for PreToolUse with the given tool.
func runReq(id int, tool string) []byte {
	return []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"hooks/run","params":{"sessionId":"s1","event":"PreToolUse","turnId":"t1","input":{"toolName":%q,"toolInput":{"command":"ls -la"},"toolCallId":"c%d"}}}`+"\n", id, tool, id))
}

// claudeRunReq is runReq for a claude-profile session.
func claudeRunReq(id int, tool string) []byte {
	return []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"hooks/run","params":{"sessionId":"s1","event":"PreToolUse","input":{"tool_name":%q,"tool_input":{"command":"ls -la"},"tool_use_id":"c%d"}}}`+"\n", id, tool, id))
}

// hooksRun sends one hooks/run and returns the elapsed time.
func (p *peer) hooksRun(tool string) (time.Duration, []byte, error) {
	p.id++
	if p.claude {
		return p.roundTrip(claudeRunReq(p.id, tool))
	}
	return p.roundTrip(runReq(p.id, tool))
}

// claudeHookside starts `bin app-server --stdio` with a claude-profile
// session s1 whose Claude Code home holds a settings.json with n copies of
// the command hook command on PreToolUse/Bash, next to a permissions list
// of 150 rules (a settings file as people keep them: the runner reads it
// for its switches), last modified an hour ago.
func (e *env) claudeHookside(name, command string, n int, initParams map[string]any) (*peer, error) {
	home, err := os.MkdirTemp(e.tmp, "home-")
	if err != nil {
		return nil, err
	}
	claudeHome := filepath.Join(home, "claude")
	if err := os.Mkdir(claudeHome, 0o700); err != nil {
		return nil, err
	}
	hooks := make([]any, n)
	for i := range hooks {
		hooks[i] = map[string]any{"type": "command", "command": command}
	}
	allow := make([]string, 150)
	for i := range allow {
		allow[i] = fmt.Sprintf("Bash(npm run script-%d:*)", i)
	}
	b, _ := json.Marshal(map[string]any{
		"permissions": map[string]any{"allow": allow},
		"hooks":       map[string]any{"PreToolUse": []any{map[string]any{"matcher": "Bash", "hooks": hooks}}},
	})
	settings := filepath.Join(claudeHome, "settings.json")
	if err := os.WriteFile(settings, b, 0o600); err != nil {
		return nil, err
	}
	// Last edited an hour ago, as a settings file in use usually was.
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(settings, old, old); err != nil {
		return nil, err
	}
	p, err := e.startSession(name, home, initParams, map[string]any{"profile": "claude", "claudeHomeDir": claudeHome})
	if err != nil {
		return nil, err
	}
	p.claude = true
	return p, nil
}

// cfloorPeer starts the C spawn floor (bench/floor/floor.c) for argv.
func (e *env) cfloorPeer(n int, parallel bool, timeout time.Duration, argv []string) (*peer, error) {
	return e.floorLike("C floor", e.cfloorBin, nil, "-p", n, parallel, timeout, []string{"-t", strconv.FormatInt(timeout.Milliseconds(), 10)}, argv)
}

// floorPeer starts the Go os/exec spawn floor (bench/cmd/floor) for argv.
func (e *env) floorPeer(n int, parallel bool, timeout time.Duration, argv []string) (*peer, error) {
	return e.floorLike("Go floor", e.floorBin, nil, "-parallel", n, parallel, timeout, []string{"-timeout", timeout.String()}, argv)
}

// corePeer starts the exec core (bench/cmd/floor -core) for argv: the Go
// floor's process and line protocol, each hook run by hookside's own
// runner/exec.Run with the Spec the runner gives a process hook.
func (e *env) corePeer(n int, parallel bool, timeout time.Duration, argv []string) (*peer, error) {
	return e.floorLike("exec core", e.floorBin, []string{"-core"}, "-parallel", n, parallel, timeout, []string{"-timeout", timeout.String()}, argv)
}

// floorLike starts a floor: bin [flags…] -n N [parallelFlag] [timeoutArgs…]
// -- argv (the timeout flags only when there is a timeout).
func (e *env) floorLike(name, bin string, flags []string, parallelFlag string, n int, parallel bool, timeout time.Duration, timeoutArgs, argv []string) (*peer, error) {
	args := append(append([]string{bin}, flags...), "-n", strconv.Itoa(n))
	if parallel {
		args = append(args, parallelFlag)
	}
	if timeout > 0 {
		args = append(args, timeoutArgs...)
	}
	args = append(append(args, "--"), argv...)
	return startPeer(name, e.cwd, childEnv(e.userHome), args...)
}

// nodePeer starts the Node reference runner for argv.
func (e *env) nodePeer(n int, parallel bool, timeout time.Duration, argv []string) (*peer, error) {
	args := []string{e.nodeBin, e.runnerJS, "--n", strconv.Itoa(n)}
	if parallel {
		args = append(args, "--parallel")
	}
	if timeout > 0 {
		args = append(args, "--timeout", strconv.FormatInt(timeout.Milliseconds(), 10))
	}
	args = append(append(args, "--"), argv...)
	return startPeer("node", e.cwd, childEnv(e.userHome), args...)
}

// floorReq (the floors and the exec core) and nodeReq carry the exact stdin hookside gives a hook.
func (e *env) floorReq() []byte { return e.hookStdin }

func (e *env) nodeReq(id int) []byte {
	return []byte(fmt.Sprintf(`{"id":%d,"input":%s}`+"\n", id, bytes.TrimSpace(e.hookStdin)))
}

func (p *peer) nodeRun(e *env) (time.Duration, []byte, error) {
	p.id++
	return p.roundTrip(e.nodeReq(p.id))
}

func (p *peer) floorRun(e *env) (time.Duration, []byte, error) {
	return p.roundTrip(e.floorReq())
}
