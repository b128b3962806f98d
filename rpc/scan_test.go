package rpc

import (
	"bytes"
	"encoding/json"
	"testing"
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
		got, ok := topLevel(b)
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
		for _, pair := range [][2]json.RawMessage{{got.JSONRPC, want.JSONRPC}, {got.ID, want.ID}, {got.Method, want.Method}, {got.Result, want.Result}, {got.Error, want.Error}} {
			if !bytes.Equal(pair[0], pair[1]) {
				t.Fatalf("member mismatch in %s: got %s want %s", b, pair[0], pair[1])
			}
		}
	})
}
