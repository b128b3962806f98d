package rpc

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sourcegraph/jsonrpc2"
)

// TestDuplicateMembersAreRefused: a frame that names an envelope member
// twice (also when one spelling is escaped) is -32600 naming the member,
// with the request's id unless "id" is the repeated one; params that name
// a member twice, at any depth, are -32602 with the member's path, before
// the method runs (the matching hook does not start); the connection
// stays up.
func TestDuplicateMembersAreRefused(t *testing.T) {
	home, ws := t.TempDir(), t.TempDir()
	ran := filepath.Join(t.TempDir(), "ran")
	script := filepath.Join(t.TempDir(), "h.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\ncat >/dev/null\ntouch "+ran+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeHookConfig(t, home, script)
	c := initialized(t, home, ws)
	for _, tc := range []struct {
		frame      string
		code       int
		id         any
		msg, field string
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"a","method":"hooks/list","params":{"sessionId":"s1"}}`, CodeInvalidRequest, 1.0, `duplicate member "method"`, ""},
		{`{"jsonrpc":"2.0","id":2,"method":"hooks/list","\u006dethod":"x","params":{"sessionId":"s1"}}`, CodeInvalidRequest, 2.0, `duplicate member "method"`, ""},
		{`{"jsonrpc":"2.0","id":3,"id":4,"method":"hooks/list","params":{"sessionId":"s1"}}`, CodeInvalidRequest, nil, `duplicate member "id"`, ""},
		{`{"jsonrpc":"2.0","id":5,"method":"hooks/list","params":{"sessionId":"s1"},"params":{"sessionId":"s2"}}`, CodeInvalidRequest, 5.0, `duplicate member "params"`, ""},
		{`{"jsonrpc":"2.0","id":6,"method":"hooks/run","params":{"sessionId":"s1","event":"PreToolUse","input":{"toolName":"Bash","toolInput":{"command":"ls","command":"rm -rf /"}}}}`, CodeInvalidParams, 6.0, "input.toolInput.command", "input.toolInput.command"},
		{`{"jsonrpc":"2.0","id":7,"method":"hooks/run","params":{"sessionId":"s1","event":"PreToolUse","input":{"toolName":"Read","toolName":"Bash"}}}`, CodeInvalidParams, 7.0, "input.toolName", "input.toolName"},
		{`{"jsonrpc":"2.0","id":8,"method":"hooks/list","params":{"sessionId":"s1","sessionId":"s1"}}`, CodeInvalidParams, 8.0, "sessionId: duplicate member", "sessionId"},
	} {
		c.sendRaw(tc.frame + "\n")
		m := c.read(true)
		e, _ := m["error"].(map[string]any)
		if errCode(m) != tc.code || m["id"] != tc.id || !strings.Contains(e["message"].(string), tc.msg) {
			t.Errorf("%s:\n got %v\nwant code %d id %v message with %q", tc.frame, m, tc.code, tc.id, tc.msg)
		}
		if tc.field != "" && fieldOf(m) != tc.field {
			t.Errorf("%s: data.field %v, want %q", tc.frame, fieldOf(m), tc.field)
		}
	}
	if _, err := os.Stat(ran); err == nil {
		t.Error("a hook ran for a refused hooks/run")
	}
	// Same names in different objects are fine; the connection is up.
	c.sendRaw(`{"jsonrpc":"2.0","id":9,"method":"hooks/run","params":{"sessionId":"s1","event":"PreToolUse","input":{"toolName":"Read","toolInput":{"toolName":"x"}}}}` + "\n")
	if m := c.read(true); m["result"] == nil {
		t.Fatalf("a frame without repeated names: %v", m)
	}
}

// TestHostReplyWithDuplicateMember: a host's reply to a server→client
// request that names a member twice, at the top or inside its result, is
// answered -32600 (id null) and fails the call it answers with that
// error, so the call does not wait out its timeout; a reply whose "id" is
// repeated cannot be matched to a call and is only answered. A reply's
// members are read as written: "Result" next to "result" is another
// member, not the result.
func TestHostReplyWithDuplicateMember(t *testing.T) {
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":5,"result":{"found":true,"found":false}}`,
		`{"jsonrpc":"2.0","id":6,"result":{"shown":true},"result":{"shown":false}}`,
		`{"jsonrpc":"2.0","id":7,"id":8,"result":{"shown":true}}`,
		`{"jsonrpc":"2.0","id":9,"result":{"shown":true},"Result":{"shown":false}}`,
	}, "\n") + "\n"
	var out bytes.Buffer
	s := &objectStream{f: newFramer(FramingNDJSON, strings.NewReader(in), &out), log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	for _, want := range []struct {
		id     uint64
		errMsg string
		result string
	}{
		{5, `duplicate member "result.found"`, ""},
		{6, `duplicate member "result"`, ""},
		{9, "", `{"shown":true}`},
	} {
		var r jsonrpc2.Response
		if err := s.ReadObject(&r); err != nil {
			t.Fatal(err)
		}
		switch {
		case r.ID.Num != want.id:
			t.Errorf("reply for id %d, want %d", r.ID.Num, want.id)
		case want.errMsg != "" && (r.Error == nil || r.Error.Code != CodeInvalidRequest || !strings.Contains(r.Error.Message, want.errMsg)):
			t.Errorf("id %d: error %+v, want -32600 with %q", want.id, r.Error, want.errMsg)
		case want.result != "" && (r.Result == nil || string(*r.Result) != want.result || r.Error != nil):
			t.Errorf("id %d: result %s error %+v, want %s", want.id, rawOf(r.Result), r.Error, want.result)
		}
	}
	if err := s.ReadObject(new(jsonrpc2.Response)); err != io.EOF {
		t.Fatalf("after the replies: %v, want EOF", err)
	}
	var answers []errorFrame
	for _, line := range bytes.Split(bytes.TrimSpace(out.Bytes()), []byte("\n")) {
		var ef errorFrame
		if err := json.Unmarshal(line, &ef); err != nil {
			t.Fatalf("answer %q: %v", line, err)
		}
		answers = append(answers, ef)
	}
	if len(answers) != 3 {
		t.Fatalf("answers %+v, want 3 (ids 5, 6, and 7/8)", answers)
	}
	for _, a := range answers {
		if string(a.ID) != "null" || a.Error.Code != CodeInvalidRequest || !strings.Contains(a.Error.Message, "duplicate member") {
			t.Errorf("answer %+v, want -32600 id null naming the duplicate member", a)
		}
	}
}

func rawOf(r *json.RawMessage) string {
	if r == nil {
		return "<nil>"
	}
	return string(*r)
}
