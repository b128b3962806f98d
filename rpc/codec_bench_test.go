package rpc

import (
	"encoding/json"
	"testing"

	"github.com/hookside/hookside/output"
	"github.com/sourcegraph/jsonrpc2"
)

var benchFrame = []byte(`{"jsonrpc":"2.0","id":101,"method":"hooks/run","params":{"sessionId":"s1","event":"PreToolUse","input":{"toolName":"Read","toolInput":{"command":"ls"},"toolCallId":"c1"}}}`)

// BenchmarkLibraryDecode is what the JSON-RPC library spends decoding one
// hooks/run frame (a floor under the pipe round trip).
func BenchmarkLibraryDecode(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		var r jsonrpc2.Request
		if err := json.Unmarshal(benchFrame, &r); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRequestDecode is what the server spends turning the same frame
// into a request: the envelope scan, the validity check and the request
// built from the scanned values.
func BenchmarkRequestDecode(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		p, _, _, _, _ := validateFrame(benchFrame)
		if !json.Valid(benchFrame) {
			b.Fatal("not JSON")
		}
		if _, msg := request(p); msg != "" {
			b.Fatal(msg)
		}
	}
}

func BenchmarkValidateFrame(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, _, code, _, _ := validateFrame(benchFrame); code != 0 {
			b.Fatal(code)
		}
	}
}

func BenchmarkLibraryEncodeReply(b *testing.B) {
	m := output.Merge("PreToolUse", nil)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		resp := &jsonrpc2.Response{ID: jsonrpc2.ID{Num: 101}}
		if err := resp.SetResult(m); err != nil {
			b.Fatal(err)
		}
		if _, err := json.Marshal(resp); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheckFrame is validateFrame plus the whole-frame checks every
// frame gets (json.Valid, UTF-8).
func BenchmarkCheckFrame(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, _, code, _, _ := checkFrame(benchFrame); code != 0 {
			b.Fatal(code)
		}
	}
}
