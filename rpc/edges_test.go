package rpc

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// TestParamsNeitherObjectNorArrayAreInvalid: JSON-RPC 2.0 §4.2 makes params
// a structured value; a string, number or boolean is -32602 with
// data.field "" on every method, including those that take no params.
func TestParamsNeitherObjectNorArrayAreInvalid(t *testing.T) {
	home := t.TempDir()
	c := startServer(t, home)
	// Before initialize the state check answers first (-32002), so
	// initialize is checked on its own.
	for _, bad := range []any{"x", 7, true} {
		m := c.call("initialize", bad)
		if errCode(m) != CodeInvalidParams || fieldOf(m) != "" {
			t.Fatalf("initialize params %v: want -32602 field \"\", got %v", bad, m)
		}
	}
	if r := c.call("initialize", map[string]any{"protocolVersion": "1", "clientInfo": map[string]any{"name": "test"}}); r["result"] == nil {
		t.Fatalf("initialize: %v", r)
	}
	if r := c.call("session/open", map[string]any{"sessionId": "s1", "cwd": t.TempDir()}); r["result"] == nil {
		t.Fatalf("session/open: %v", r)
	}
	names := make([]string, 0, len(methods))
	for name := range methods {
		if name != "initialize" {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	for _, name := range names {
		for _, bad := range []any{"x", 7, true} {
			m := c.call(name, bad)
			if errCode(m) != CodeInvalidParams || fieldOf(m) != "" {
				t.Errorf("%s params %v: want -32602 field \"\", got %v", name, bad, m)
			}
		}
	}
	// Nothing ran: the session is still open, the server not shut down,
	// and no V2 database was created.
	if m := c.call("hooks/list", map[string]any{"sessionId": "s1"}); m["result"] == nil {
		t.Fatalf("hooks/list after the refused calls: %v", m)
	}
	if _, err := os.Stat(filepath.Join(home, "hookside.db")); err == nil {
		t.Fatal("a refused v2 call created hookside.db")
	}
}

// TestShutdownThenEOFIsAnswered: a shutdown request followed at once by the
// end of stdin is answered before the server exits (status 0), after the
// request in flight is answered.
func TestShutdownThenEOFIsAnswered(t *testing.T) {
	home := t.TempDir()
	script := filepath.Join(t.TempDir(), "slow.sh")
	// The hook keeps the run in flight while EOF arrives.
	if err := os.WriteFile(script, []byte("#!/bin/sh\ncat >/dev/null\nsleep 0.3\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeHookConfig(t, home, script)
	c := initialized(t, home, t.TempDir())
	c.sendRaw(runReq(1, "Bash") + `{"jsonrpc":"2.0","id":2,"method":"shutdown"}` + "\n")
	if err := c.w.Close(); err != nil {
		t.Fatal(err)
	}
	replies := map[float64]map[string]any{}
	for {
		line, err := c.r.ReadBytes('\n')
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(line, &m); err != nil {
			t.Fatalf("bad frame %q: %v", line, err)
		}
		if id, ok := m["id"].(float64); ok {
			replies[id] = m
		}
	}
	if r := replies[1]; r == nil || r["result"] == nil {
		t.Fatalf("hooks/run reply: %v", r)
	}
	r, ok := replies[2]
	if !ok {
		t.Fatal("the shutdown request got no reply before the server exited")
	}
	if v, has := r["result"]; !has || v != nil || r["error"] != nil {
		t.Fatalf("shutdown reply: %v", r)
	}
	c.wantExitZero(t)
}

// wantExitZero waits for the server to end and fails unless its status is
// 0; the status is put back for the cleanup.
func (c *client) wantExitZero(t *testing.T) {
	t.Helper()
	select {
	case code := <-c.done:
		if code != 0 {
			t.Fatalf("exit status %d, want 0", code)
		}
		c.done <- code // for the cleanup
	case <-time.After(10 * time.Second):
		t.Fatal("server did not exit")
	}
}

func fieldOf(m map[string]any) any {
	e, _ := m["error"].(map[string]any)
	d, _ := e["data"].(map[string]any)
	if d == nil {
		return nil
	}
	return d["field"]
}

// TestExitRightAfterShutdownIsZero: `exit` sent at once after the
// `shutdown` request (before its reply) ends the server with status 0, as
// docs/protocol.md says for an exit after shutdown; the reply still goes out.
func TestExitRightAfterShutdownIsZero(t *testing.T) {
	c := initialized(t, t.TempDir(), t.TempDir())
	c.sendRaw(`{"jsonrpc":"2.0","id":2,"method":"shutdown"}` + "\n" + `{"jsonrpc":"2.0","method":"exit"}` + "\n")
	var replied bool
	for !replied {
		line, err := c.r.ReadBytes('\n')
		if err != nil {
			t.Fatalf("no shutdown reply before the end: %v", err)
		}
		replied = strings.Contains(string(line), `"id":2`)
	}
	c.wantExitZero(t)
}

// TestEscapedStringIDAndMethodAreDecoded: a string id and a method name
// written with escapes are decoded like any JSON string; the reply carries
// the id back, and params written with white space reach the method.
func TestEscapedStringIDAndMethodAreDecoded(t *testing.T) {
	c := startServer(t, t.TempDir())
	c.sendRaw(`{"jsonrpc":"2.0","id":"a\"b\u00e9","method":"\u0069nitialize","params": { "protocolVersion" : "1", "clientInfo": {"name":"t"} } }` + "\n")
	m := c.read(true)
	if m["id"] != "a\"bé" || m["result"] == nil {
		t.Fatalf("reply %v", m)
	}
}

// TestHookNotificationsPrecedeTheReplyInOrder: two sequential hooks then a
// parallel group of two. Each sequential hook's hook/completed arrives
// before the next hook/started, every hook/completed before the reply, and
// each hook has one of each.
func TestHookNotificationsPrecedeTheReplyInOrder(t *testing.T) {
	home := t.TempDir()
	script := filepath.Join(t.TempDir(), "drain.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\ncat >/dev/null\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	h := fmt.Sprintf(`{"type":"process","command":%q}`, script)
	cfg := fmt.Sprintf(`{"hooks":{"enabled":true,"events":{"PreToolUse":[{"matcher":"Bash","hooks":[%s,%s]},{"matcher":"Bash","parallel":true,"hooks":[%s,%s]}]}}}`, h, h, h, h)
	if err := os.WriteFile(filepath.Join(home, "config.json"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	c := initialized(t, home, t.TempDir())
	c.sendRaw(runReq(1, "Bash"))
	var seq []string // "s:<runId>", "c:<runId>", "reply"
	for {
		m := c.read(false)
		if m["method"] == nil {
			if m["result"] == nil {
				t.Fatalf("reply %v", m)
			}
			seq = append(seq, "reply")
			break
		}
		p, _ := m["params"].(map[string]any)
		switch m["method"] {
		case "hook/started":
			seq = append(seq, "s:"+p["runId"].(string))
		case "hook/completed":
			seq = append(seq, "c:"+p["runId"].(string))
		}
	}
	if len(seq) != 9 {
		t.Fatalf("frames %v, want 4 started, 4 completed, the reply", seq)
	}
	// Sequential hooks: started, completed, started, completed.
	if seq[0][:2] != "s:" || seq[1] != "c:"+seq[0][2:] || seq[2][:2] != "s:" || seq[3] != "c:"+seq[2][2:] {
		t.Fatalf("sequential hooks out of order: %v", seq)
	}
	started := map[string]bool{}
	for _, f := range seq[4:8] {
		switch {
		case f[:2] == "s:":
			started[f[2:]] = true
		case !started[f[2:]]:
			t.Fatalf("hook/completed before its hook/started: %v", seq)
		}
	}
	if len(started) != 2 {
		t.Fatalf("parallel group: %v", seq)
	}
}
