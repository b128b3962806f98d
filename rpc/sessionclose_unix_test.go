//go:build unix

package rpc

import (
	"syscall"
	"testing"
	"time"
)

// session/close while a hooks/run of the session waits on its hook: the
// close is answered, the run ends -32800 "the session was closed" with its
// hook's process group killed, and the session's temporary directory goes
// only after the hook is gone.
func TestSessionCloseCancelsItsRunningHooksRun(t *testing.T) {
	home, ws := t.TempDir(), t.TempDir()
	script, pidFile := sleepyHook(t, home)
	writeHookConfig(t, home, script)
	c := initialized(t, home, ws)
	c.sendRaw(runReq(100, "Bash"))
	pid := waitHookPID(t, pidFile)
	start := time.Now()
	c.sendRaw(`{"jsonrpc":"2.0","id":"close","method":"session/close","params":{"sessionId":"s1"}}` + "\n")
	got := map[any]map[string]any{}
	for range 2 {
		m := c.read(true)
		got[m["id"]] = m
	}
	if m := got["close"]; m == nil || m["error"] != nil {
		t.Fatalf("session/close: %v", got)
	}
	run := got[100.0]
	if errCode(run) != CodeRequestCancelled {
		t.Fatalf("the running hooks/run: %v", got)
	}
	if msg := run["error"].(map[string]any)["message"]; msg != "request cancelled: the session was closed" {
		t.Fatalf("message %q", msg)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("the run ended %v after the close", d)
	}
	if err := syscall.Kill(-pid, 0); err != syscall.ESRCH {
		t.Fatalf("the hook's group %d still exists: %v", pid, err)
	}
	if m := c.call("hooks/run", map[string]any{"sessionId": "s1", "event": "Stop", "turnId": "t"}); errCode(m) != CodeUnknownSession {
		t.Fatalf("hooks/run after close: %v", m)
	}
}
