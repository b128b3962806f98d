package rpc

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// schemaDoc is the parsed ProtocolSchema with its validators.
type schemaDoc struct {
	t       testing.TB
	methods map[string]string // method → x-direction
	mu      sync.Mutex
	cache   map[string]*jsonschema.Schema
	c       *jsonschema.Compiler
}

const schemaURL = "urn:hookside:protocol:1"

func loadSchema(t testing.TB) *schemaDoc {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(ProtocolSchema))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(schemaURL, doc); err != nil {
		t.Fatal(err)
	}
	var raw struct {
		Defs map[string]struct {
			Direction string `json:"x-direction"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(ProtocolSchema, &raw); err != nil {
		t.Fatal(err)
	}
	d := &schemaDoc{t: t, methods: map[string]string{}, cache: map[string]*jsonschema.Schema{}, c: c}
	for name, def := range raw.Defs {
		if def.Direction != "" {
			d.methods[name] = def.Direction
		}
	}
	return d
}

// validator compiles $defs/<name>/<part> (part "" = the def itself).
func (d *schemaDoc) validator(name, part string) *jsonschema.Schema {
	d.t.Helper()
	ptr := "#/$defs/" + strings.ReplaceAll(strings.ReplaceAll(name, "~", "~0"), "/", "~1")
	if part != "" {
		ptr += "/" + part
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if s, ok := d.cache[ptr]; ok {
		return s
	}
	s, err := d.c.Compile(schemaURL + ptr)
	if err != nil {
		d.t.Fatalf("compile %s: %v", ptr, err)
	}
	d.cache[ptr] = s
	return s
}

// check validates the JSON value raw against $defs/<name>/<part>.
func (d *schemaDoc) check(what, name, part string, raw json.RawMessage) error {
	if len(raw) == 0 {
		raw = json.RawMessage("null")
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return fmt.Errorf("%s: %v", what, err)
	}
	if err := d.validator(name, part).Validate(v); err != nil {
		return fmt.Errorf("%s %s: %v\nvalue: %s", what, name, err, raw)
	}
	return nil
}

func TestSchemaIsValidAndListsEveryMethod(t *testing.T) {
	d := loadSchema(t)
	for name, dir := range d.methods {
		switch dir {
		case "request", "hostRequest":
			d.validator(name, "params")
			d.validator(name, "result")
		case "notification", "clientNotification":
			d.validator(name, "params")
		default:
			t.Errorf("%s: unknown x-direction %q", name, dir)
		}
	}
	for name := range methods {
		if strings.HasPrefix(name, "test/") {
			continue
		}
		if d.methods[name] != "request" {
			t.Errorf("method %s is served but the schema has no request entry for it", name)
		}
	}
	for name, dir := range d.methods {
		if _, ok := methods[name]; dir == "request" && !ok {
			t.Errorf("schema request %s is not served", name)
		}
	}
}

// wire is a host over real pipes that sees every frame: it routes replies
// to calls, records notifications, and answers server→client requests
// with handlers. Every frame is checked against the schema.
type wire struct {
	t     *testing.T
	sch   *schemaDoc
	w     io.WriteCloser
	mu    sync.Mutex
	id    int
	wait  map[string]chan frame
	seen  map[string]int // method → frames checked (requests, notifications, host requests)
	notes chan frame
	errs  []string
	host  map[string]func(params json.RawMessage) any
	// badParams: the test sends params the schema rejects on purpose.
	badParams bool
	done      chan struct{}
	writeM    sync.Mutex
}

type frame struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  json.RawMessage `json:"error,omitempty"`
}

func startWire(t *testing.T, sch *schemaDoc, home string, host map[string]func(json.RawMessage) any) *wire {
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	c := &wire{t: t, sch: sch, w: inW, wait: map[string]chan frame{}, seen: map[string]int{},
		notes: make(chan frame, 4096), host: host, done: make(chan struct{})}
	exited := make(chan int, 1)
	go func() {
		code := Serve(context.Background(), inR, outW, Options{Home: home, Version: "test",
			Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		outW.Close()
		exited <- code
	}()
	go c.readLoop(bufio.NewReaderSize(outR, 1<<20))
	t.Cleanup(func() {
		inW.Close()
		select {
		case <-exited:
		case <-time.After(15 * time.Second):
			t.Error("server did not exit after EOF")
		}
		<-c.done
		inR.Close()
		outR.Close()
	})
	return c
}

func (c *wire) fail(format string, args ...any) {
	c.mu.Lock()
	c.errs = append(c.errs, fmt.Sprintf(format, args...))
	c.mu.Unlock()
}

func (c *wire) readLoop(r *bufio.Reader) {
	defer close(c.done)
	for {
		line, err := r.ReadBytes('\n')
		if err != nil {
			return
		}
		var f frame
		if err := json.Unmarshal(line, &f); err != nil {
			c.fail("bad frame %q: %v", line, err)
			continue
		}
		switch {
		case f.Method != "" && len(f.ID) > 0: // server→client request
			c.count(f.Method)
			if c.sch.methods[f.Method] != "hostRequest" {
				c.fail("server sent request %s, not a hostRequest of the schema", f.Method)
				continue
			}
			if err := c.sch.check("host request params", f.Method, "params", f.Params); err != nil {
				c.fail("%v", err)
			}
			go c.answer(f)
		case f.Method != "":
			c.count(f.Method)
			if c.sch.methods[f.Method] != "notification" {
				c.fail("server sent notification %s, not a notification of the schema", f.Method)
			} else if err := c.sch.check("notification params", f.Method, "params", f.Params); err != nil {
				c.fail("%v", err)
			}
			c.notes <- f
		default:
			c.mu.Lock()
			ch := c.wait[string(f.ID)]
			delete(c.wait, string(f.ID))
			c.mu.Unlock()
			if ch == nil {
				c.fail("reply to unknown id %s", f.ID)
				continue
			}
			ch <- f
		}
	}
}

func (c *wire) count(method string) {
	c.mu.Lock()
	c.seen[method]++
	c.mu.Unlock()
}

func (c *wire) answer(f frame) {
	h := c.host[f.Method]
	if h == nil {
		c.send(map[string]any{"jsonrpc": "2.0", "id": f.ID, "error": map[string]any{"code": -32601, "message": "no handler"}})
		return
	}
	res := h(f.Params)
	b, _ := json.Marshal(res)
	if err := c.sch.check("host result (test fixture)", f.Method, "result", b); err != nil {
		c.fail("%v", err)
	}
	c.send(map[string]any{"jsonrpc": "2.0", "id": f.ID, "result": res})
}

func (c *wire) send(v any) {
	b, _ := json.Marshal(v)
	c.writeM.Lock()
	defer c.writeM.Unlock()
	if _, err := c.w.Write(append(b, '\n')); err != nil {
		c.fail("write: %v", err)
	}
}

// notify sends a client notification after checking it against the schema.
func (c *wire) notify(method string, params any) {
	b, _ := json.Marshal(params)
	if err := c.sch.check("client notification", method, "params", b); err != nil {
		c.t.Fatal(err)
	}
	c.count(method)
	c.send(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

// call sends a request (params checked against the schema) and returns the
// result after checking it (or the error object, checked against ErrorObject).
func (c *wire) call(method string, params any) (json.RawMessage, json.RawMessage) {
	c.t.Helper()
	pb, _ := json.Marshal(params)
	if err := c.sch.check("params", method, "params", pb); err != nil && !c.badParams {
		c.t.Fatal(err)
	}
	c.mu.Lock()
	c.id++
	id := c.id
	ch := make(chan frame, 1)
	c.wait[fmt.Sprint(id)] = ch
	c.seen[method]++
	c.mu.Unlock()
	c.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	var f frame
	select {
	case f = <-ch:
	case <-time.After(30 * time.Second):
		c.t.Fatalf("%s: no reply", method)
	}
	if len(f.Error) > 0 {
		if err := c.sch.check("error", "ErrorObject", "", f.Error); err != nil {
			c.t.Error(err)
		}
		return nil, f.Error
	}
	if err := c.sch.check("result", method, "result", f.Result); err != nil {
		c.t.Error(err)
	}
	return f.Result, nil
}

// ok is call that must succeed; it decodes the result into out (if not nil).
func (c *wire) ok(method string, params any, out any) {
	c.t.Helper()
	res, e := c.call(method, params)
	if e != nil {
		c.t.Fatalf("%s: %s", method, e)
	}
	if out != nil {
		if err := json.Unmarshal(res, out); err != nil {
			c.t.Fatalf("%s: %v", method, err)
		}
	}
}

// waitNote returns the next notification of method for which match holds.
func (c *wire) waitNote(method string, match func(json.RawMessage) bool) json.RawMessage {
	c.t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		select {
		case f := <-c.notes:
			if f.Method == method && (match == nil || match(f.Params)) {
				return f.Params
			}
		case <-deadline:
			c.t.Fatalf("no %s notification", method)
		}
	}
}

func writeFile(t *testing.T, path, content string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
}

// TestSchemaMatchesRealTraffic drives one real server through every method
// of the schema (trust review, V2 with every host action, mailbox, purge,
// replay, lifecycle) and validates every frame in both directions against
// it: params sent, results and errors received, notifications and
// server→client requests.
func TestSchemaMatchesRealTraffic(t *testing.T) {
	t.Setenv("HOOKSIDE_REPLAY_INTERVAL_MS", "100")
	sch := loadSchema(t)
	home := t.TempDir()
	writeFile(t, filepath.Join(home, "config.json"), `{"hooks":{"enabled":true,"events":{
		"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"echo '{\"decision\":\"block\",\"reason\":\"no\"}'; exit 2","statusMessage":"guard"}]}],
		"Stop":[{"hooks":[{"type":"command","command":"echo '{\"decision\":\"block\",\"reason\":\"run the tests\"}'"}]}]}}}`, 0o600)
	ws := t.TempDir()
	writeFile(t, filepath.Join(ws, ".git", "HEAD"), "ref: refs/heads/main\n", 0o644)
	writeFile(t, filepath.Join(ws, "hooks", "ctx.sh"), "#!/bin/sh\ncat >/dev/null\necho workspace-context\n", 0o755)
	writeFile(t, filepath.Join(ws, "zcode.json"), `{"hooks":{"events":{
		"UserPromptSubmit":[{"hooks":[{"type":"command","command":"./hooks/ctx.sh hooks \"$HOME\"/x"}]}],
		"PostToolUse":[{"matcher":"Read","hooks":[{"type":"process","command":"./hooks/ctx.sh","args":["a"]}]}]}}}`, 0o644)

	var factsMu sync.Mutex
	facts := 0
	factsSeen := make(chan struct{})
	host := map[string]func(json.RawMessage) any{
		"host/notification/show": func(json.RawMessage) any { return map[string]any{"shown": true} },
		"host/sound/play":        func(json.RawMessage) any { return map[string]any{"played": false} },
		"host/tool/resolve": func(json.RawMessage) any {
			return map[string]any{"found": true, "version": "1", "riskLevel": "read", "idempotency": "keyed"}
		},
		"host/tool/invoke": func(json.RawMessage) any {
			return map[string]any{"ok": false, "errorCode": "nope", "message": "the tool said no"}
		},
		"host/lifecycle/facts": func(json.RawMessage) any {
			factsMu.Lock()
			defer factsMu.Unlock()
			facts++
			if facts == 2 {
				close(factsSeen)
			}
			return map[string]any{"cursor": facts, "events": []any{map[string]any{
				"eventName": "turn.started", "session": map[string]any{"id": "replayed"}, "turn": map[string]any{"id": fmt.Sprintf("rt-%d", facts)},
				"workspaces": []any{}, "payload": map[string]any{}}}}
		},
	}
	c := startWire(t, sch, home, host)
	c.ok("initialize", map[string]any{"protocolVersion": "1", "clientInfo": map[string]any{"name": "schema-test", "version": "1"},
		"capabilities": map[string]any{"hostActions": []string{"notification", "sound", "tool"}, "lifecycleReplay": true}}, nil)
	c.notify("initialized", map[string]any{})
	c.ok("session/open", map[string]any{"sessionId": "s1", "cwd": ws, "workspaceHooks": true}, nil)
	c.ok("hooks/list", map[string]any{"sessionId": "s1", "includeInternal": true}, nil)
	var pre struct {
		Decision string `json:"decision"`
	}
	c.ok("hooks/run", map[string]any{"sessionId": "s1", "event": "PreToolUse", "turnId": "t1",
		"input": map[string]any{"toolName": "Bash", "toolInput": map[string]any{"command": "rm -rf /"}}}, &pre)
	if pre.Decision != "deny" {
		t.Errorf("PreToolUse decision %q, want deny", pre.Decision)
	}
	c.waitNote("hook/completed", nil)

	// Trust review: pending → trusted.
	c.ok("workspaceHooks/status", map[string]any{"sessionId": "s1"}, nil)
	c.ok("workspaceHooks/status", map[string]any{"workspace": ws}, nil)
	var rev struct {
		ReviewID     string `json:"reviewId"`
		Declarations []struct {
			Digest     string `json:"digest"`
			TrustState string `json:"trustState"`
		} `json:"declarations"`
	}
	c.ok("workspaceHooks/review/start", map[string]any{"sessionId": "s1"}, &rev)
	if len(rev.Declarations) != 2 || rev.Declarations[0].TrustState != "pending_trust" {
		t.Fatalf("review/start declarations: %+v", rev.Declarations)
	}
	digests := []string{rev.Declarations[0].Digest, rev.Declarations[1].Digest}
	c.ok("workspaceHooks/review/submit", map[string]any{"reviewId": rev.ReviewID, "decision": "trust_selected", "digests": digests}, nil)
	c.waitNote("workspaceHooks/admissionUpdated", nil)
	c.ok("hooks/run", map[string]any{"sessionId": "s1", "event": "UserPromptSubmit", "turnId": "t1", "input": map[string]any{"prompt": "hi"}}, nil)
	c.waitNote("hook/started", nil)
	var stop struct {
		Stop struct {
			ContinueTurn bool `json:"continueTurn"`
		} `json:"stop"`
	}
	c.ok("hooks/run", map[string]any{"sessionId": "s1", "event": "Stop", "turnId": "t1", "input": map[string]any{"lastAssistantMessage": "done"}}, &stop)
	if !stop.Stop.ContinueTurn {
		t.Error("Stop did not continue the turn")
	}
	c.ok("workspaceHooks/revoke", map[string]any{"sessionId": "s1", "digests": []string{digests[1], "0000"}, "persist": false}, nil)
	c.ok("workspaceHooks/policy/set", map[string]any{"sessionId": "s1", "policy": "allow_trusted_only"}, nil)
	c.waitNote("workspaceHooks/admissionUpdated", nil)
	c.ok("workspaceHooks/policy/set", map[string]any{"policy": "user_decides"}, nil)
	if _, e := c.call("workspaceHooks/review/submit", map[string]any{"reviewId": "rev_gone", "decision": "trust_selected", "digests": digests}); e == nil {
		t.Error("unknown review accepted")
	}

	// V2: definitions for every host action, one binding each, one event.
	c.ok("v2/settings/get", nil, nil)
	c.ok("v2/settings/update", map[string]any{"retention": map[string]any{"runDays": 30}}, nil)
	c.ok("v2/definitions/validate", map[string]any{"definition": map[string]any{"name": "x", "eventName": "turn.completed", "action": map[string]any{"type": "sound"},
		"condition": map[string]any{"op": "eq", "left": map[string]any{"path": "session.id"}, "right": map[string]any{"const": "nobody"}}}}, nil)
	defs := []map[string]any{
		{"id": "note", "name": "Note", "eventName": "turn.completed", "action": map[string]any{"type": "notification",
			"title": map[string]any{"template": "done: ${session.id}"}, "body": map[string]any{"const": "ok"}}},
		{"id": "sound", "name": "Sound", "eventName": "turn.completed", "action": map[string]any{"type": "sound"}, "concurrencyPolicy": "parallel"},
		{"id": "tool", "name": "Tool", "eventName": "turn.completed", "description": "calls a tool",
			"action":       map[string]any{"type": "tool", "target": map[string]any{"sourceKind": "connector", "sourceId": "c1", "toolName": "t", "version": "1"}},
			"inputMapping": map[string]any{"sid": map[string]any{"path": "session.id"}}, "retryPolicy": map[string]any{"mode": "keyed", "maxAttempts": 1}},
		{"id": "cmd", "name": "Cmd", "eventName": "turn.failed", "action": map[string]any{"type": "command", "hook": map[string]any{"type": "process", "command": "/bin/true"}},
			"condition": map[string]any{"op": "and", "conditions": []any{map[string]any{"op": "exists", "left": map[string]any{"path": "session.id"}}}}},
	}
	for _, d := range defs {
		c.ok("v2/definitions/create", map[string]any{"definition": d}, nil)
		c.ok("v2/bindings/create", map[string]any{"hookId": d["id"], "scopeKind": "application"}, nil)
	}
	var sessBinding struct {
		ID string `json:"id"`
	}
	c.ok("v2/bindings/create", map[string]any{"hookId": "cmd", "scopeKind": "session", "scopeId": "nobody"}, &sessBinding)
	c.ok("v2/bindings/update", map[string]any{"id": sessBinding.ID, "enabled": false}, nil)
	c.ok("v2/definitions/upsert", map[string]any{"definition": defs[1]}, nil)
	c.ok("v2/bindings/upsert", map[string]any{"hookId": "sound", "scopeKind": "application"}, nil)
	c.ok("v2/bindings/list", map[string]any{"hookId": "cmd"}, nil)
	c.ok("v2/bindings/list", nil, nil)
	c.ok("v2/definitions/get", map[string]any{"id": "note"}, nil)
	c.ok("v2/definitions/list", map[string]any{"eventName": "turn.completed"}, nil)
	c.ok("v2/definitions/list", nil, nil)
	// timeoutMS is an unknown member: the result carries its warning.
	c.ok("v2/definitions/update", map[string]any{"id": "cmd", "patch": map[string]any{"condition": nil, "timeoutMs": 2000, "timeoutMS": 1}}, nil)
	c.ok("v2/definitions/preview", map[string]any{"id": "note"}, nil)
	c.ok("v2/definitions/preview", map[string]any{"definition": defs[2]}, nil)

	terminal := map[string]bool{"succeeded": true, "failed": true, "blocked": true, "skipped": true, "cancelled": true, "outcome_unknown": true}
	var emit struct {
		EventID string `json:"eventId"`
	}
	c.ok("v2/events/emit", map[string]any{"eventName": "turn.completed", "session": map[string]any{"id": "s1", "title": "T"}, "turn": map[string]any{"id": "t1"},
		"agent": map[string]any{"id": "a1", "name": "A"}, "workspaces": []any{map[string]any{"id": ws, "name": "ws"}}, "primaryWorkspaceId": ws,
		"payload": map[string]any{"response": map[string]any{"messageId": "m1", "text": "hello"}}}, &emit)
	finished := map[string]string{}
	for len(finished) < 3 {
		p := c.waitNote("v2/run/updated", nil)
		var u struct {
			Run struct {
				ID, HookID, Status, EventID string
			} `json:"run"`
		}
		_ = json.Unmarshal(p, &u)
		if u.Run.EventID == emit.EventID && terminal[u.Run.Status] {
			finished[u.Run.HookID] = u.Run.ID
		}
	}
	var runs struct {
		Runs []struct {
			ID     string `json:"id"`
			HookID string `json:"hookId"`
			Status string `json:"status"`
		} `json:"runs"`
	}
	c.ok("v2/runs/list", map[string]any{"eventId": emit.EventID, "limit": 10}, &runs)
	c.ok("v2/runs/list", nil, nil)
	c.ok("v2/runs/get", map[string]any{"id": finished["note"]}, nil)
	c.ok("v2/runs/retry", map[string]any{"id": finished["tool"]}, nil)
	if _, e := c.call("v2/runs/cancel", map[string]any{"id": finished["note"]}); e == nil {
		t.Error("cancelling a finished run succeeded")
	}
	var tr struct {
		RunID string `json:"runId"`
	}
	c.ok("v2/settings/update", map[string]any{"enabled": false}, nil)
	c.ok("v2/definitions/testRun", map[string]any{"id": "cmd"}, &tr)
	c.ok("v2/runs/cancel", map[string]any{"id": tr.RunID}, nil)
	c.ok("v2/settings/update", map[string]any{"enabled": true, "allowHighWrite": false}, nil)
	c.ok("v2/legacy/migrate", map[string]any{"config": map[string]any{"nodes": map[string]any{"session_end": map[string]any{"notification": true, "sound": false}}},
		"agentConfigs": []any{map[string]any{"agentId": "a1", "enabled": true, "nodes": map[string]any{"session_end": map[string]any{"notification": false}}}}}, nil)
	c.ok("session/mailbox/post", map[string]any{"sessionId": "s1", "from": "ci", "text": "build is green"}, nil)
	c.ok("session/mailbox/list", map[string]any{"sessionId": "s1"}, nil)
	c.ok("hooks/run", map[string]any{"sessionId": "s1", "event": "PostToolUse", "input": map[string]any{"toolName": "Read"}}, nil)
	c.ok("session/mailbox/list", map[string]any{"sessionId": "s1", "unreadOnly": false}, nil)
	select {
	case <-factsSeen:
	case <-time.After(30 * time.Second):
		t.Error("no second host/lifecycle/facts request")
	}
	c.ok("v2/bindings/delete", map[string]any{"id": sessBinding.ID}, nil)
	c.ok("v2/definitions/delete", map[string]any{"id": "sound"}, nil)
	c.ok("v2/sessions/purge", map[string]any{"sessionId": "s1"}, nil)
	c.notify("$/cancelRequest", map[string]any{"id": 99999})
	c.ok("session/close", map[string]any{"sessionId": "s1"}, nil)
	c.ok("shutdown", nil, nil)
	c.notify("exit", nil)
	<-c.done

	// diagnostic: a second connection with a policy it does not know.
	d := startWire(t, sch, t.TempDir(), nil)
	d.badParams = true
	d.ok("initialize", map[string]any{"protocolVersion": "1", "clientInfo": map[string]any{"name": "t"}, "workspaceHookPolicy": "sometimes"}, nil)
	d.waitNote("diagnostic", nil)

	// v2/bindings/effective, and v2/binding/updated: a destructive tool is
	// policy-blocked five times, so its binding is auto-paused.
	a := startWire(t, sch, t.TempDir(), map[string]func(json.RawMessage) any{
		"host/tool/resolve": func(json.RawMessage) any {
			return map[string]any{"found": true, "version": "1", "riskLevel": "destructive", "idempotency": "none"}
		},
	})
	a.ok("initialize", map[string]any{"protocolVersion": "1", "clientInfo": map[string]any{"name": "schema-test", "version": "1"},
		"capabilities": map[string]any{"hostActions": []string{"tool"}, "optOutNotifications": []string{"v2/run/updated"}}}, nil)
	a.notify("initialized", map[string]any{})
	a.ok("v2/definitions/create", map[string]any{"definition": map[string]any{"id": "wipe", "name": "Wipe", "eventName": "turn.failed",
		"action": map[string]any{"type": "tool", "target": map[string]any{"sourceKind": "connector", "sourceId": "c1", "toolName": "wipe"}}}}, nil)
	a.ok("v2/bindings/create", map[string]any{"hookId": "wipe", "scopeKind": "application"}, nil)
	a.ok("v2/bindings/create", map[string]any{"hookId": "wipe", "scopeKind": "session", "scopeId": "s1"}, nil)
	a.ok("v2/bindings/effective", map[string]any{"sessionId": "s1", "agentId": "a1", "workspaceId": "w1"}, nil)
	a.ok("v2/bindings/effective", nil, nil)
	for i := range 5 {
		a.ok("v2/events/emit", map[string]any{"eventName": "turn.failed", "session": map[string]any{"id": "s1"},
			"turn": map[string]any{"id": fmt.Sprintf("p%d", i)}, "workspaces": []any{}, "payload": map[string]any{"message": "m"}}, nil)
	}
	a.waitNote("v2/binding/updated", nil)
	a.ok("shutdown", nil, nil)
	a.notify("exit", nil)
	<-a.done

	cl := claudeTraffic(t, sch)

	var missing []string
	for name := range sch.methods {
		if c.seen[name]+d.seen[name]+a.seen[name]+cl.seen[name] == 0 {
			missing = append(missing, name)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("schema methods never exercised: %v", missing)
	}
	for _, w := range []*wire{c, d, a, cl} {
		w.mu.Lock()
		for _, e := range w.errs {
			t.Error(e)
		}
		w.mu.Unlock()
	}
}
