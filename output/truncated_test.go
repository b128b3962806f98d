package output

import (
	"strings"
	"testing"

	"github.com/hookside/hookside/internal/hook"
)

// TestCutJSONAnswerFails: a JSON answer cut at maxOutputBytes fails the run
// (output_truncated) in both dialects instead of turning a deny into plain
// text; cut plain text and a complete JSON answer are unaffected.
func TestCutJSONAnswerFails(t *testing.T) {
	cut := ProcessResult{ExitCode: 0, StdoutTruncated: true,
		Stdout: []byte(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"xxxx`)}
	a := Parse(hook.PreToolUse, cut)
	if a.Outcome != OutcomeFailed || !strings.HasPrefix(a.Error, CodeOutputTruncated+": ") || a.Decision != "" {
		t.Fatalf("zcode: %+v", a)
	}
	c := ParseClaude(hook.PreToolUse, cut)
	if c.Outcome != OutcomeFailed || !strings.HasPrefix(c.Error, CodeOutputTruncated+": ") || c.Block || c.HookError == "" {
		t.Fatalf("claude: %+v", c)
	}
	plain := ProcessResult{ExitCode: 0, StdoutTruncated: true, Stdout: []byte("some long context")}
	if a := Parse(hook.SessionStart, plain); a.Outcome != OutcomeSucceeded || len(a.AdditionalContext) != 1 {
		t.Fatalf("cut plain text stays context: %+v", a)
	}
	whole := ProcessResult{ExitCode: 0, StdoutTruncated: true,
		Stdout: []byte(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}`)}
	if a := Parse(hook.PreToolUse, whole); a.Outcome != OutcomeSucceeded || a.Decision != DecisionDeny {
		t.Fatalf("a complete JSON object before the cut still answers: %+v", a)
	}
	notCut := cut
	notCut.StdoutTruncated = false
	if a := Parse(hook.PreToolUse, notCut); a.Outcome != OutcomeSucceeded {
		t.Fatalf("invalid JSON without a cut keeps the plain-text rule: %+v", a)
	}
}
