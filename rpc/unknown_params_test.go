package rpc

import (
	"bytes"
	"log/slog"
	"reflect"
	"strings"
	"sync"
	"testing"
)

// syncBuffer is a log sink the server writes from several goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// TestUnknownParamsKeysAreAcceptedAndLoggedOnce: members a method does not
// define are ignored (the call succeeds), and each method+key is logged
// once at debug level, nested ones as dotted paths, names equal to a
// field's ignoring case with that field (they are not read as it); values
// never appear.
func TestUnknownParamsKeysAreAcceptedAndLoggedOnce(t *testing.T) {
	var logs syncBuffer
	log := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	c := startServerOpts(t, Options{Home: t.TempDir(), Logger: log})
	ws := t.TempDir()
	if r := c.call("initialize", map[string]any{"protocolVersion": "1", "clientInfo": map[string]any{"name": "t", "vesion": "SECRET1"},
		"bogus": "SECRET2", "capabilities": map[string]any{"hostAction": []string{}}}); r["result"] == nil {
		t.Fatalf("initialize: %v", r)
	}
	for range 2 {
		if r := c.call("session/open", map[string]any{"sessionId": "s1", "cwd": ws, "workspaceHook": true, "Profile": "zcode", "env": map[string]string{"ANY": "x"}}); r["result"] == nil {
			t.Fatalf("session/open: %v", r)
		}
		if r := c.call("session/close", map[string]any{"sessionId": "s1", "workspaceHook": true}); r["error"] != nil {
			t.Fatalf("session/close: %v", r)
		}
	}
	// The next frame is answered as usual.
	if r := c.call("hooks/list", map[string]any{"sessionId": "nosuch"}); errCode(r) != CodeUnknownSession {
		t.Fatalf("hooks/list: %v", r)
	}
	out := logs.String()
	for _, want := range []string{
		`msg="unknown params key ignored" method=initialize key=clientInfo.vesion`,
		`msg="unknown params key ignored" method=initialize key=bogus`,
		`msg="unknown params key ignored" method=initialize key=capabilities.hostAction`,
		`msg="unknown params key ignored" method=session/open key=workspaceHook`,
		`msg="unknown params key ignored: member names are exact" method=session/open key=Profile sameIgnoringCase=profile`,
		`msg="unknown params key ignored" method=session/close key=workspaceHook`,
	} {
		if n := strings.Count(out, want+"\n"); n != 1 {
			t.Errorf("%d lines %s; log:\n%s", n, want, out)
		}
	}
	for _, not := range []string{"SECRET", "key=env", "key=ANY", "key=sessionId", "key=cwd"} {
		if strings.Contains(out, not) {
			t.Errorf("log has %q:\n%s", not, out)
		}
	}
}

// TestShapeOfParams: the members looked for are encoding/json's.
func TestShapeOfParams(t *testing.T) {
	type inner struct {
		A string `json:"a"`
	}
	type Embedded struct {
		E int `json:"e"`
	}
	type params struct {
		Embedded
		Tagged  string `json:"tagged,omitempty"`
		Plain   int
		Skipped string  `json:"-"`
		In      *inner  `json:"in"`
		List    []inner `json:"list"`
		Raw     jsonRawOrAbsent
		Names   []string          `json:"names"`
		M       map[string]string `json:"m"`
	}
	sh := shapeOf(reflect.TypeFor[params]())
	var names []string
	for n := range sh.fields {
		names = append(names, n)
	}
	for _, want := range []string{"e", "tagged", "Plain", "in", "list", "Raw", "names", "m"} {
		if _, ok := sh.fields[want]; !ok {
			t.Errorf("no field %q in %v", want, names)
		}
	}
	if len(sh.fields) != 8 {
		t.Errorf("fields %v", names)
	}
	if sh.fields["in"] == nil || sh.fields["in"].fields["a"] != nil || len(sh.fields["in"].fields) != 1 {
		t.Errorf("in: %+v", sh.fields["in"])
	}
	if l := sh.fields["list"]; l == nil || l.elems == nil || len(l.elems.fields) != 1 {
		t.Errorf("list: %+v", l)
	}
	for _, n := range []string{"Raw", "names", "m", "tagged"} {
		if sh.fields[n] != nil {
			t.Errorf("%s is looked into", n)
		}
	}
}

// TestParamsMemberNamesAreExact: a member whose name differs from a
// field's only in case does not fill it (docs/protocol.md §1): "CWD" is
// not cwd, "Event" is not event, on the fast path and the slow one.
func TestParamsMemberNamesAreExact(t *testing.T) {
	c := startServerOpts(t, Options{Home: t.TempDir()})
	ws := t.TempDir()
	if r := c.call("initialize", map[string]any{"protocolVersion": "1", "clientInfo": map[string]any{"name": "t"}}); r["result"] == nil {
		t.Fatalf("initialize: %v", r)
	}
	if r := c.call("session/open", map[string]any{"sessionId": "s1", "CWD": ws}); errCode(r) != CodeInvalidParams {
		t.Fatalf("session/open with CWD: %v", r)
	}
	if r := c.call("session/open", map[string]any{"sessionId": "s1", "cwd": ws, "SessionId": "s2"}); r["result"] == nil {
		t.Fatalf("session/open: %v", r)
	}
	for _, p := range []map[string]any{
		{"sessionId": "s1", "Event": "SessionStart", "input": map[string]any{}},
		{"sessionId": "s1", "Event": "SessionStart", "input": map[string]any{"source": "\u00e9\\"}}, // escaped strings: the slow path
	} {
		if r := c.call("hooks/run", p); errCode(r) != CodeInvalidParams {
			t.Errorf("hooks/run with Event: %v", r)
		}
	}
	if r := c.call("hooks/run", map[string]any{"SessionId": "s2", "sessionId": "s1", "event": "SessionStart", "input": map[string]any{}}); r["result"] == nil {
		t.Errorf("hooks/run: %v", r)
	}
}
