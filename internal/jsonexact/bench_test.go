package jsonexact

import (
	"encoding/json"
	"testing"
)

// benchInput is a PreToolUse hook input of a common size, with one
// unknown member (renamed: the copy is made).
var benchInput = []byte(`{"session_id":"abc123","transcript_path":"/home/u/.claude/projects/p/abc123.jsonl","cwd":"/home/u/p",` +
	`"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git status --porcelain","description":"status"},"extra":1}`)

type benchTarget struct {
	SessionID  string          `json:"session_id"`
	Transcript string          `json:"transcript_path"`
	Cwd        string          `json:"cwd"`
	Event      string          `json:"hook_event_name"`
	ToolName   string          `json:"tool_name"`
	ToolInput  json.RawMessage `json:"tool_input"`
}

// BenchmarkUnmarshal is the cost of exact names over encoding/json on one
// hook input: compare the two sub-benchmarks.
func BenchmarkUnmarshal(b *testing.B) {
	b.Run("jsonexact", func(b *testing.B) {
		for b.Loop() {
			var v benchTarget
			if err := Unmarshal(benchInput, &v); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding_json", func(b *testing.B) {
		for b.Loop() {
			var v benchTarget
			if err := json.Unmarshal(benchInput, &v); err != nil {
				b.Fatal(err)
			}
		}
	})
}
