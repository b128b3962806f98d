package rpc

import (
	"encoding/json"
	"testing"

	"github.com/hookside/hookside/output"
)

// mergedVariants builds Merged values that use s in every string, with
// each optional part present or absent as the bits of mask say.
func mergedVariants(s string, mask uint16, code int, updated []byte) output.Merged {
	on := func(bit int) bool { return mask&(1<<bit) != 0 }
	ptr := func(bit int) *string {
		if on(bit) {
			return &s
		}
		return nil
	}
	m := output.Merged{Event: s, Decision: ptr(0), DecisionReason: ptr(1), Blocked: on(2), BlockReason: ptr(3),
		ModelContext: ptr(4), Continue: on(5), StopReason: ptr(6)}
	if on(7) {
		m.UpdatedInput = json.RawMessage(updated)
	}
	if on(8) {
		m.AdditionalContext = []string{s, "second"}
		m.SystemMessages = []string{}
	} else if on(9) {
		m.AdditionalContext, m.SystemMessages = []string{}, []string{s}
	}
	if on(10) {
		m.Stop = &output.StopState{ContinueTurn: on(2), Continuation: ptr(1), Limit: code, StopHookActive: on(5)}
	}
	if on(11) {
		m.Skipped = s
	}
	if on(12) {
		m.TrustNotice = &output.TrustNotice{Message: s, Hooks: []output.NoticedHook{{HookID: s, Digest: "d", TrustState: "pending_trust", Reason: s}}, ReviewCommand: s, ReviewMethod: "m"}
	}
	if !on(13) {
		run := output.Run{RunID: s, HookID: s, Source: "user", Outcome: output.Outcome(s), DurationMs: int64(code) * 7,
			StdoutTruncated: on(0), StderrTruncated: on(1)}
		if on(14) {
			run.ExitCode = &code
			run.Error, run.Reason, run.Warnings, run.QueuedRunID = s, s, []string{s, s}, s
		}
		m.Runs = []output.Run{run, {RunID: "r2", Outcome: output.OutcomeSucceeded}}
	} else if on(15) {
		m.Runs = []output.Run{}
	}
	return m
}

// checkMerged compares appendResult with json.Marshal for m.
func checkMerged(t *testing.T, m output.Merged) {
	t.Helper()
	want, werr := json.Marshal(m)
	got, gerr := mergedResult{m}.appendResult([]byte("prefix:"))
	if (werr != nil) != (gerr != nil) {
		t.Fatalf("errors differ: json.Marshal %v, appendResult %v", werr, gerr)
	}
	if werr == nil && string(got) != "prefix:"+string(want) {
		t.Fatalf("\n got %s\nwant prefix:%s", got, want)
	}
}

// TestMergedResultJSON: the hand-written encoding of a hooks/run result is
// byte for byte json.Marshal's, for every optional part present or absent
// and for strings encoding/json escapes; an invalid updatedInput fails
// as json.Marshal does.
func TestMergedResultJSON(t *testing.T) {
	odd := []string{"", "plain", `quote " and \ backslash`, "<html> & co", "line\nbreak\ttab\x01", "é ü 日本", "\u2028\u2029", "bad \xff utf8", "\x7f del"}
	updated := [][]byte{[]byte(`{"command": "ls <x> & y",  "n":[1, 2.50, true, null]}`), []byte(`"s"`), []byte(`{bad`)}
	for _, s := range odd {
		for mask := range 1 << 16 {
			if mask%97 != 0 && s != "plain" {
				continue // every mask for one string, a spread for the others
			}
			for _, u := range updated {
				checkMerged(t, mergedVariants(s, uint16(mask), -3+mask%300, u))
			}
		}
	}
	checkMerged(t, output.Merged{})
}

// FuzzMergedResultJSON: appendResult equals json.Marshal for any strings,
// option bits, exit code and updatedInput bytes.
func FuzzMergedResultJSON(f *testing.F) {
	f.Add("plain", uint16(0), 0, []byte(`{}`))
	f.Add("<&> \xff \u2028", uint16(0xffff), -1, []byte(`{"a": [1, "<b>"]}`))
	f.Add("", uint16(0x2000), 255, []byte(`nul`))
	f.Fuzz(func(t *testing.T, s string, mask uint16, code int, updated []byte) {
		checkMerged(t, mergedVariants(s, mask, code, updated))
	})
}
