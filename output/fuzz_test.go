package output

import (
	"encoding/json"
	"testing"
	"unicode/utf8"

	"github.com/hookside/hookside/internal/hook"
)

// FuzzParse checks that Parse, Merge, DecideStop and the wire encoding never
// panic on arbitrary output, and that every string they produce is valid
// UTF-8 and every updatedInput a JSON object.
func FuzzParse(f *testing.F) {
	seeds := []struct {
		stdout, stderr string
		code           int
	}{
		{`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"x","updatedInput":{"a":1},"additionalContext":"c"}}`, "", 0},
		{`{"decision":"block","reason":"r","continue":true,"systemMessage":"m"}`, "", 0},
		{"plain text\n", "", 0},
		{"", "stderr reason", 2},
		{`{"reason":"json"}`, "err", 2},
		{"{\"additionalContext\":\"\xff\"}", "\xfe", 0},
		{`{"continue":"x","hookSpecificOutput":[]}`, "", 1},
	}
	for _, s := range seeds {
		f.Add(s.stdout, s.stderr, s.code, uint8(0))
	}
	f.Fuzz(func(t *testing.T, stdout, stderr string, code int, ev uint8) {
		event := hook.Events[int(ev)%len(hook.Events)]
		r := ProcessResult{ExitCode: code, Stdout: []byte(stdout), Stderr: []byte(stderr)}
		a := Parse(event, r)
		for _, s := range append([]string{a.DecisionReason, a.BlockReason, a.StopReason, a.SystemMessage, a.Error}, a.AdditionalContext...) {
			if !utf8.ValidString(s) {
				t.Fatalf("invalid UTF-8 in answer: %q", s)
			}
		}
		if a.UpdatedInput != nil && (!json.Valid(a.UpdatedInput) || a.UpdatedInput[0] != '{' || !utf8.Valid(a.UpdatedInput)) {
			t.Fatalf("bad updatedInput %q", a.UpdatedInput)
		}
		if code != 0 && code != 2 && (a.Decision != "" || a.Block || len(a.AdditionalContext) > 0) {
			t.Fatalf("failed hook (exit %d) was not silent: %+v", code, a)
		}
		m := Merge(event, []Answer{a, a})
		st := DecideStop([]Answer{a}, m, 0, MaxStopContinuations)
		m.Stop = &st
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatalf("marshal: %v", err)
		}
		if !utf8.Valid(b) {
			t.Fatalf("wire output is not UTF-8: %q", b)
		}
		NewRun("r", "h", "user", 1, r, a)
		checkObjectIter(t, []byte(stdout))
	})
}

func BenchmarkParseMerge(b *testing.B) {
	results := []ProcessResult{
		exit(0, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"safe command"}}`+"\n", ""),
		exit(0, "", ""),
	}
	b.ReportAllocs()
	answers := make([]Answer, len(results))
	for b.Loop() {
		for i, r := range results {
			answers[i] = Parse(hook.PreToolUse, r)
		}
		Merge(hook.PreToolUse, answers)
	}
}

func BenchmarkParseMergeContext(b *testing.B) {
	r := exit(0, `{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"lint: 2 warnings in main.go"}}`, "")
	b.ReportAllocs()
	for b.Loop() {
		Merge(hook.PostToolUse, []Answer{Parse(hook.PostToolUse, r)})
	}
}

// checkObjectIter compares parseObject's iterator with encoding/json on b.
func checkObjectIter(t *testing.T, b []byte) {
	it, ok := parseObject(b)
	var want map[string]json.RawMessage
	if err := json.Unmarshal(b, &want); err != nil || len(b) == 0 || b[0] != '{' {
		if ok {
			t.Fatalf("parseObject accepted %q", b)
		}
		return
	}
	if !ok {
		t.Fatalf("parseObject rejected %q", b)
	}
	got := map[string]json.RawMessage{}
	for {
		k, v, ok := it.Next()
		if !ok {
			break
		}
		var key string
		if err := json.Unmarshal(k, &key); err != nil {
			t.Fatalf("bad key %q in %q", k, b)
		}
		got[key] = v
	}
	if len(got) != len(want) {
		t.Fatalf("%q: %d members, want %d", b, len(got), len(want))
	}
	for k, v := range want {
		if string(got[k]) != string(v) {
			t.Fatalf("%q: member %q = %q, want %q", b, k, got[k], v)
		}
	}
}

func BenchmarkParseClaude(b *testing.B) {
	r := exit(0, `{"continue":true,"systemMessage":"ok","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"safe command","additionalContext":"c"}}`+"\n", "")
	b.ReportAllocs()
	for b.Loop() {
		ParseClaude(hook.PreToolUse, r)
	}
}
