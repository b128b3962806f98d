package rpc

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookside/hookside/v2bridge"
	"github.com/hookside/hookside/v2bridge/store"
)

// driverText is what SQLite and the store put in their messages; none of
// it may reach a v2 reply.
var driverText = []string{"UNIQUE", "constraint", "sqlite", "SQLITE", "(1555)", "(2067)", "(26)", "store:", "not a database"}

func noDriverText(t *testing.T, what string, reply map[string]any) {
	t.Helper()
	b, _ := json.Marshal(reply["error"])
	for _, s := range driverText {
		if strings.Contains(string(b), s) {
			t.Errorf("%s: the error carries %q: %s", what, s, b)
		}
	}
}

// TestV2DuplicateCreateIsAPlainConflict: v2/definitions/create of a stored
// id and v2/bindings/create of a bound (hook, scope) answer -32016 with a
// message naming the record and update/upsert, and no SQLite text.
func TestV2DuplicateCreateIsAPlainConflict(t *testing.T) {
	c := initialized(t, t.TempDir(), t.TempDir())
	def := map[string]any{"id": "note", "name": "Note", "eventName": "turn.completed", "action": map[string]any{"type": "sound"}}
	for _, tc := range []struct {
		method, what, created string
		params                map[string]any
		want                  string
	}{
		{"v2/definitions/create", "duplicate definition", "create", map[string]any{"definition": def},
			"a definition with id note already exists; use update or upsert"},
		{"v2/bindings/create", "duplicate binding", "binding create", map[string]any{"hookId": "note", "scopeKind": "session", "scopeId": "s9"},
			"a binding of hook note at scope session s9 already exists; use update or upsert"},
	} {
		if r := c.call(tc.method, tc.params); r["result"] == nil {
			t.Fatalf("%s: %v", tc.created, r)
		}
		r := c.call(tc.method, tc.params)
		if errCode(r) != CodeConflict || r["error"].(map[string]any)["message"] != tc.want {
			t.Errorf("%s: %v, want %d %q", tc.what, r, CodeConflict, tc.want)
		}
		noDriverText(t, tc.what, r)
	}
}

// TestV2CorruptDatabaseIsAPlainDatabaseError: a hookside.db that is not
// SQLite answers -32014 with a plain reason, not the driver's message.
func TestV2CorruptDatabaseIsAPlainDatabaseError(t *testing.T) {
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "hookside.db"), bytes.Repeat([]byte("not sqlite "), 1000), 0o600); err != nil {
		t.Fatal(err)
	}
	c := initialized(t, home, t.TempDir())
	r := c.call("v2/definitions/list", map[string]any{})
	msg, _ := r["error"].(map[string]any)["message"].(string)
	if errCode(r) != CodeV2Unavailable || !strings.Contains(msg, "database error: the database file is corrupt or not an SQLite database") {
		t.Errorf("corrupt db: %v", r)
	}
	noDriverText(t, "corrupt db", r)
}

// TestLogV2DetailKeepsTheDriverText: what the wire message leaves out is
// in the debug log.
func TestLogV2DetailKeepsTheDriverText(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	err := &v2bridge.DatabaseError{Reason: "the database is locked", Err: fmt.Errorf("%w: database is locked (5)", store.ErrBusy)}
	if we := V2WireError(err); we.Code != CodeV2Unavailable || strings.Contains(we.Message, "(5)") {
		t.Errorf("wire: %+v", we)
	}
	LogV2Detail(log, err)
	LogV2Detail(log, fmt.Errorf("odd failure 42"))
	if out := buf.String(); !strings.Contains(out, "database is locked (5)") || !strings.Contains(out, "odd failure 42") {
		t.Errorf("debug log lacks the detail:\n%s", out)
	}
	if we := V2WireError(fmt.Errorf("odd failure 42")); we.Code != CodeInternalError || strings.Contains(we.Message, "42") {
		t.Errorf("internal: %+v", we)
	}
}

// TestV2EmitPayloadOfTheWrongTypeNamesPayload: a payload that is a
// string, boolean, number or array is -32602 with field "payload" (the
// string and boolean ones once named eventName).
func TestV2EmitPayloadOfTheWrongTypeNamesPayload(t *testing.T) {
	c := initialized(t, t.TempDir(), t.TempDir())
	for _, pl := range []any{"str", strings.Repeat("s", 40), true, 5, []any{1}} {
		r := c.call("v2/events/emit", map[string]any{"eventName": "turn.completed", "session": map[string]any{"id": "s1"}, "payload": pl})
		e, _ := r["error"].(map[string]any)
		data, _ := e["data"].(map[string]any)
		if errCode(r) != CodeInvalidParams || data["field"] != "payload" || !strings.HasPrefix(fmt.Sprint(e["message"]), "invalid params: payload: must be an object") {
			t.Errorf("payload %v: %v", pl, r)
		}
	}
}

// TestV2NotFoundAndInvalidArgumentsCarryNoStoreText: an unknown run,
// definition or binding is -32013 "not found: run x", and an unknown
// status filter -32602 naming the statuses, without the store's wording.
func TestV2NotFoundAndInvalidArgumentsCarryNoStoreText(t *testing.T) {
	c := initialized(t, t.TempDir(), t.TempDir())
	for _, tc := range []struct {
		method string
		params map[string]any
		code   int
		want   string
	}{
		{"v2/runs/get", map[string]any{"id": "x"}, CodeNotFound, "not found: run x"},
		{"v2/definitions/get", map[string]any{"id": "nope"}, CodeNotFound, "not found: definition nope"},
		{"v2/runs/list", map[string]any{"status": "bogus"}, CodeInvalidParams, `invalid params: status: unknown status "bogus" (want queued, running,`},
	} {
		r := c.call(tc.method, tc.params)
		if errCode(r) != tc.code || !strings.HasPrefix(fmt.Sprint(r["error"].(map[string]any)["message"]), tc.want) {
			t.Errorf("%s: %v, want %d %q", tc.method, r, tc.code, tc.want)
		}
		noDriverText(t, tc.method, r)
	}
}

// TestV2StoreWordingDoesNotReachTheHost: the store's own wording
// ("store: invalid argument", "store: not found") is not in a reply; the
// code and data.field stay; the next request is answered.
func TestV2StoreWordingDoesNotReachTheHost(t *testing.T) {
	c := initialized(t, t.TempDir(), t.TempDir())
	r := c.call("v2/runs/list", map[string]any{"cursor": "zzz"})
	e, _ := r["error"].(map[string]any)
	data, _ := e["data"].(map[string]any)
	if errCode(r) != CodeInvalidParams || data["field"] != "cursor" || data["reason"] != "bad cursor (pass a nextCursor from a previous page)" {
		t.Fatalf("bad cursor: %v", r)
	}
	noDriverText(t, "bad cursor", r)
	r = c.call("v2/runs/get", map[string]any{"id": "nosuch"})
	if errCode(r) != CodeNotFound || r["error"].(map[string]any)["message"] != "not found: run nosuch" {
		t.Fatalf("unknown run: %v", r)
	}
	noDriverText(t, "unknown run", r)
	if r := c.call("v2/runs/list", map[string]any{}); r["result"] == nil {
		t.Fatalf("the next request: %v", r)
	}
}
