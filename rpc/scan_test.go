package rpc

import (
	"bytes"
	"encoding/json"
	"testing"
	"unicode/utf8"

	"github.com/hookside/hookside/internal/jsonscan"
)

// FuzzTopLevel checks the cheap top-level scanner against encoding/json on
// every valid JSON object: same members, never a panic.
func FuzzTopLevel(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"a":[1,{"b":"}"}]}}`,
		`{"id":"x\"y","result":null}`,
		`{ "method" : "m" , "id" : 12 }`,
		`{}`,
		`{"error":{"code":-1},"id":null}`,
		`{"params":"\\\"","method":"\u0041"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		b = bytes.TrimSpace(b)
		if len(b) == 0 || b[0] != '{' {
			return
		}
		got, dup, ok := topLevel(b)
		if !json.Valid(b) {
			return // the library's decode catches it
		}
		var m map[string]json.RawMessage // exact keys, as JSON-RPC names are
		if err := json.Unmarshal(b, &m); err != nil {
			return
		}
		want := probe{JSONRPC: m["jsonrpc"], ID: m["id"], Method: m["method"], Result: m["result"], Error: m["error"]}
		if !ok {
			t.Fatalf("valid object not scanned: %s", b)
		}
		if dup != "" {
			return // refused: which of the two the map keeps is no matter
		}
		for _, pair := range [][2]json.RawMessage{{got.JSONRPC, want.JSONRPC}, {got.ID, want.ID}, {got.Method, want.Method}, {got.Result, want.Result}, {got.Error, want.Error}} {
			if !bytes.Equal(pair[0], pair[1]) {
				t.Fatalf("member mismatch in %s: got %s want %s", b, pair[0], pair[1])
			}
		}
	})
}

// FuzzCheckFrame: the frame check never panics, answers -32700 exactly
// when the frame is not JSON (nesting aside) or not UTF-8, and -32600 for well-formed
// JSON nested past encoding/json's limit (testdata holds 20000-deep arrays
// and objects, bare and inside params, whole and broken).
func FuzzCheckFrame(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"a":[1]}}`,
		`[1]`, `"x"`, `{"id":1,"method":"m","params":[[[]]]}`, `{"id":1,"method":"m","params":[[[]]}`,
		"{\"id\":1,\"method\":\"m\",\"params\":[\"\xff\"]}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		b = bytes.TrimSpace(b)
		if len(b) == 0 {
			return // the framer answers empty frames itself
		}
		_, _, code, msg, _ := checkFrame(b)
		depth, ok := jsonscan.Depth(b)
		ok = ok && utf8.Valid(b) // RFC 8259 §8.1: JSON text is UTF-8
		switch {
		case !ok && code != CodeParseError:
			t.Fatalf("%.80q is not JSON: code %d %s", b, code, msg)
		case ok && code == CodeParseError:
			t.Fatalf("%.80q is JSON (depth %d): code %d %s", b, depth, code, msg)
		case ok && depth > jsonscan.MaxDepth && code != CodeInvalidRequest:
			t.Fatalf("%.80q is %d deep: code %d %s", b, depth, code, msg)
		}
	})
}
