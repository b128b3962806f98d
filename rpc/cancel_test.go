package rpc

import (
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestCancelRequestSentAsARequest: $/cancelRequest with an id cancels the
// request it names (-32800, its hook killed) and is itself answered null;
// bad params are -32602 field "id"; an unknown id is answered null too;
// the cancel's own id may not be one in flight; every next frame is still
// answered.
func TestCancelRequestSentAsARequest(t *testing.T) {
	home, ws := t.TempDir(), t.TempDir()
	script, pidFile := sleepyHook(t, home)
	writeHookConfig(t, home, script)
	c := initialized(t, home, ws)

	c.sendRaw(runReq(100, "Bash"))
	waitHookPID(t, pidFile)
	// Its own id is the running request's: refused, the run goes on.
	c.sendRaw(`{"jsonrpc":"2.0","id":100,"method":"$/cancelRequest","params":{"id":100}}` + "\n")
	if m := c.read(true); errCode(m) != CodeInvalidRequest || m["id"] != 100.0 {
		t.Fatalf("cancel under the running request's id: %v", m)
	}
	c.sendRaw(`{"jsonrpc":"2.0","id":"c1","method":"$/cancelRequest","params":{"id":100}}` + "\n")
	got := map[any]map[string]any{}
	for range 2 {
		m := c.read(true)
		got[m["id"]] = m
	}
	if m := got["c1"]; m == nil || m["error"] != nil || m["result"] != nil {
		t.Fatalf("the cancel's own reply: %v", got)
	}
	if m := got[100.0]; errCode(m) != CodeRequestCancelled {
		t.Fatalf("the cancelled run: %v", got)
	}

	for _, f := range []struct{ frame, field string }{
		{`{"jsonrpc":"2.0","id":"c2","method":"$/cancelRequest"}`, ""},
		{`{"jsonrpc":"2.0","id":"c2","method":"$/cancelRequest","params":{}}`, "id"},
		{`{"jsonrpc":"2.0","id":"c2","method":"$/cancelRequest","params":{"id":null}}`, "id"},
		{`{"jsonrpc":"2.0","id":"c2","method":"$/cancelRequest","params":{"id":true}}`, "id"},
		{`{"jsonrpc":"2.0","id":"c2","method":"$/cancelRequest","params":{"id":-1}}`, "id"},
		{`{"jsonrpc":"2.0","id":"c2","method":"$/cancelRequest","params":[1]}`, ""},
		{`{"jsonrpc":"2.0","id":"c2","method":"$/cancelRequest","params":"x"}`, ""},
	} {
		c.sendRaw(f.frame + "\n")
		m := c.read(true)
		data, _ := m["error"].(map[string]any)["data"].(map[string]any)
		if errCode(m) != CodeInvalidParams || m["id"] != "c2" || data["field"] != f.field {
			t.Fatalf("%s: %v; want -32602 field %q", f.frame, m, f.field)
		}
		if m := c.call("hooks/list", map[string]any{"sessionId": "s1"}); m["result"] == nil {
			t.Fatalf("the frame after %s: %v", f.frame, m)
		}
	}
	c.sendRaw(`{"jsonrpc":"2.0","id":"c3","method":"$/cancelRequest","params":{"id":"nosuch"}}` + "\n")
	if m := c.read(true); m["id"] != "c3" || m["error"] != nil {
		t.Fatalf("cancel of an unknown id: %v", m)
	}
}

// TestCancelRequestBeforeInitializeIsNotInitialized: as a request it is
// one like any other before initialize (-32002).
func TestCancelRequestBeforeInitializeIsNotInitialized(t *testing.T) {
	c := startServer(t, t.TempDir())
	c.sendRaw(`{"jsonrpc":"2.0","id":1,"method":"$/cancelRequest","params":{"id":2}}` + "\n")
	if m := c.read(true); errCode(m) != CodeNotInitialized {
		t.Fatalf("%v", m)
	}
}

// TestCancelledHookSaysCancelledNotFailed: a hook killed by
// $/cancelRequest, and one killed when the shutdown grace runs out, keep
// outcome "failed" (PROTOCOL.md §3) but their hook/completed error says
// the host cancelled it ("cancelled: the request was cancelled
// ($/cancelRequest)", "cancelled: the server is shutting down"), and the
// log line is INFO "hook cancelled", not the WARN "hook failed" a real
// failure gets; on the zcode and the claude profile.
func TestCancelledHookSaysCancelledNotFailed(t *testing.T) {
	for _, profile := range []string{"zcode", "claude"} {
		t.Run(profile, func(t *testing.T) { cancelledHookSaysCancelled(t, profile) })
	}
}

// cancelledHookSaysCancelled is TestCancelledHookSaysCancelledNotFailed on
// one profile: its hook a script that records its pid and sleeps 30 s.
func cancelledHookSaysCancelled(t *testing.T, profile string) {
	logs := &syncBuffer{}
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(logs, nil)))
	t.Cleanup(func() { slog.SetDefault(prev) })

	home, ws := t.TempDir(), t.TempDir()
	script, pidFile := sleepyHook(t, home)
	open := map[string]any{"sessionId": "s1", "cwd": ws}
	run := runReq
	if profile == "claude" {
		claudeHome := t.TempDir()
		writeFile(t, filepath.Join(claudeHome, "settings.json"),
			`{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"`+script+`"}]}]}}`, 0o600)
		open["profile"], open["claudeHomeDir"] = "claude", claudeHome
		run = func(id int, tool string) string {
			return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"hooks/run","params":{"sessionId":"s1","event":"PreToolUse","input":{"tool_name":%q,"tool_input":{"command":"ls"}}}}`+"\n", id, tool)
		}
	} else {
		writeHookConfig(t, home, script)
	}
	c := startServerOpts(t, Options{Home: home, ShutdownGrace: 200 * time.Millisecond})
	if r := c.call("initialize", map[string]any{"protocolVersion": "1", "clientInfo": map[string]any{"name": "test"}}); r["result"] == nil {
		t.Fatalf("initialize: %v", r)
	}
	c.sendRaw(`{"jsonrpc":"2.0","method":"initialized"}` + "\n")
	if r := c.call("session/open", open); r["result"] == nil {
		t.Fatalf("session/open: %v", r)
	}
	started := func() { t.Helper(); waitHookPID(t, pidFile) }
	// completed reads up to the reply to id and returns it with the
	// hook/completed notification seen before it.
	completed := func(id float64) (reply, note map[string]any) {
		t.Helper()
		for reply == nil {
			m := c.read(false)
			switch {
			case m["method"] == "hook/completed":
				note = m["params"].(map[string]any)
			case m["id"] == id:
				reply = m
			}
		}
		if note == nil {
			t.Fatalf("no hook/completed before the reply %v", reply)
		}
		return reply, note
	}

	c.sendRaw(run(100, "Bash"))
	started()
	c.sendRaw(`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":100}}` + "\n")
	reply, note := completed(100)
	if errCode(reply) != CodeRequestCancelled {
		t.Fatalf("cancelled run: %v", reply)
	}
	if note["outcome"] != "failed" || note["error"] != "cancelled: the request was cancelled ($/cancelRequest)" {
		t.Fatalf("hook/completed after $/cancelRequest: %v", note)
	}

	c.sendRaw(run(101, "Bash"))
	started()
	c.sendRaw(`{"jsonrpc":"2.0","id":102,"method":"shutdown"}` + "\n")
	reply, note = completed(101)
	if errCode(reply) != CodeRequestCancelled {
		t.Fatalf("run at shutdown: %v", reply)
	}
	if note["outcome"] != "failed" || note["error"] != "cancelled: the server is shutting down" {
		t.Fatalf("hook/completed at shutdown: %v", note)
	}

	out := logs.String()
	if strings.Contains(out, "level=WARN") || strings.Count(out, `level=INFO msg="hook cancelled"`) != 2 ||
		!strings.Contains(out, `error="cancelled: the request was cancelled ($/cancelRequest)"`) {
		t.Fatalf("log:\n%s", out)
	}
}

// TestExitAndInitializedSentAsRequests: exit and initialized with an id are
// answered null and done as the notifications are: exit ends the server
// with status 0 after shutdown (1 before, also before initialize);
// initialized changes nothing, and is a request like any other before
// initialize (-32002) and after shutdown (-32600).
func TestExitAndInitializedSentAsRequests(t *testing.T) {
	for _, tc := range []struct {
		name     string
		frames   []string // answered in order before the exit
		wantCode int
	}{
		{"after_shutdown", []string{`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"1","clientInfo":{"name":"t"}}}`,
			`{"jsonrpc":"2.0","id":2,"method":"initialized"}`,
			`{"jsonrpc":"2.0","id":3,"method":"shutdown"}`,
			`{"jsonrpc":"2.0","id":4,"method":"initialized"}`}, 0},
		{"before_shutdown", []string{`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"1","clientInfo":{"name":"t"}}}`}, 1},
		{"before_initialize", []string{`{"jsonrpc":"2.0","id":2,"method":"initialized"}`}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := startServer(t, t.TempDir())
			for _, f := range tc.frames {
				c.sendRaw(f + "\n")
				m := c.read(true)
				switch {
				case strings.Contains(f, `"initialized"`) && strings.Contains(tc.name, "before_initialize"):
					if errCode(m) != CodeNotInitialized {
						t.Fatalf("%s: %v, want -32002", f, m)
					}
				case strings.Contains(f, `"id":4,"method":"initialized"`):
					if errCode(m) != CodeInvalidRequest {
						t.Fatalf("%s after shutdown: %v, want -32600", f, m)
					}
				case m["error"] != nil:
					t.Fatalf("%s: %v", f, m)
				}
			}
			c.sendRaw(`{"jsonrpc":"2.0","id":"bye","method":"exit"}` + "\n")
			if m := c.read(true); m["id"] != "bye" || m["error"] != nil || m["result"] != nil {
				t.Fatalf("exit's reply: %v, want result null", m)
			}
			select {
			case code := <-c.done:
				if code != tc.wantCode {
					t.Fatalf("exit status %d, want %d", code, tc.wantCode)
				}
				c.done <- code
			case <-time.After(10 * time.Second):
				t.Fatal("exit sent as a request did not end the server (stdin still open)")
			}
		})
	}
}

// TestInitializeRefusesRelativeUserConfigPath: userConfigPath is absolute
// (docs/protocol.md §2), as session/open's paths are: a relative one is
// -32602 field "userConfigPath", and initialize can then be sent again.
func TestInitializeRefusesRelativeUserConfigPath(t *testing.T) {
	c := startServer(t, t.TempDir())
	m := c.call("initialize", map[string]any{"protocolVersion": "1", "clientInfo": map[string]any{"name": "t"}, "userConfigPath": "rel/config.json"})
	data, _ := m["error"].(map[string]any)["data"].(map[string]any)
	if errCode(m) != CodeInvalidParams || data["field"] != "userConfigPath" || !strings.Contains(m["error"].(map[string]any)["message"].(string), "must be an absolute path") {
		t.Fatalf("relative userConfigPath: %v", m)
	}
	abs := filepath.Join(t.TempDir(), "config.json")
	if m := c.call("initialize", map[string]any{"protocolVersion": "1", "clientInfo": map[string]any{"name": "t"}, "userConfigPath": abs}); m["result"] == nil {
		t.Fatalf("initialize with an absolute userConfigPath after the refusal: %v", m)
	}
}

// TestExitAndInitializedAsRequestsFollowRequestRules: sent with an id, exit
// and initialized are refused and not done, as any request, when their
// params are a scalar (-32602 field "") or their id is that of a request in
// flight (-32600; the running request still gets its own reply).
func TestExitAndInitializedAsRequestsFollowRequestRules(t *testing.T) {
	home, ws := t.TempDir(), t.TempDir()
	script, pidFile := sleepyHook(t, home)
	writeHookConfig(t, home, script)
	c := initialized(t, home, ws)
	for _, f := range []string{
		`{"jsonrpc":"2.0","id":"a","method":"initialized","params":"x"}`,
		`{"jsonrpc":"2.0","id":"b","method":"exit","params":5}`,
	} {
		c.sendRaw(f + "\n")
		m := c.read(true)
		data, _ := m["error"].(map[string]any)["data"].(map[string]any)
		if errCode(m) != CodeInvalidParams || data["field"] != "" {
			t.Fatalf("%s: %v, want -32602 field \"\"", f, m)
		}
	}
	c.sendRaw(runReq(100, "Bash"))
	waitHookPID(t, pidFile)
	for _, method := range []string{"initialized", "exit"} {
		c.sendRaw(`{"jsonrpc":"2.0","id":100,"method":"` + method + `"}` + "\n")
		if m := c.read(true); errCode(m) != CodeInvalidRequest || m["id"] != 100.0 {
			t.Fatalf("%s under the running request's id: %v, want -32600", method, m)
		}
	}
	// Not exited: the server still answers.
	if m := c.call("hooks/list", map[string]any{"sessionId": "s1"}); m["result"] == nil {
		t.Fatalf("after the refused exit: %v", m)
	}
}
