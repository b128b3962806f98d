package rpc

import (
	"os"
	"path/filepath"
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
	script := filepath.Join(home, "sleepy.sh")
	pidFile := filepath.Join(home, "hook.pid")
	if err := os.WriteFile(script, []byte("#!/bin/sh\necho $$ > "+pidFile+".tmp && mv "+pidFile+".tmp "+pidFile+"\nexec sleep 30\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeHookConfig(t, home, script)
	c := initialized(t, home, ws)

	waitPid := func() {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for {
			if _, err := os.Stat(pidFile); err == nil {
				return
			}
			if time.Now().After(deadline) {
				t.Fatal("the hook did not start")
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	c.sendRaw(runReq(100, "Bash"))
	waitPid()
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
