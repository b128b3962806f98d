package config

import (
	"testing"

	"github.com/hookside/hookside/internal/hook"
)

// TestMatcherAllIsSilent: "" and "*" on an event without matcher support
// say nothing in the claude and spark dialects; another matcher there is
// reported, on the claude profile as claude_matcher_ignored in one line,
// and every group is kept.
func TestMatcherAllIsSilent(t *testing.T) {
	doc := `{"hooks": {"UserPromptSubmit": [{"matcher": "", "hooks": [{"type": "command", "command": "a"}]}],
		"Stop": [{"matcher": "*", "hooks": [{"type": "command", "command": "b"}]},
		         {"matcher": "Bash", "hooks": [{"type": "command", "command": "c"}]}]}}`
	for _, tc := range []struct {
		d    *hook.Dialect
		code string
	}{{hook.Claude, hook.CodeClaudeMatcherIgnored}, {hook.Spark, hook.CodeSparkMatcherIgnored}} {
		f, diags := ParseSettingsFile(tc.d, "/p", []byte(doc), hook.SourceUser)
		if !eq(codes(diags), []string{tc.code}) || len(f.Hooks) != 3 {
			t.Fatalf("%s: diags %+v, %d hooks", tc.d.Name, diags, len(f.Hooks))
		}
		if tc.d == hook.Claude {
			want := `Stop[1]: matcher "Bash" is ignored: Stop takes no matcher in Claude Code; the group runs for every Stop`
			if diags[0].Message != want {
				t.Errorf("message %q, want %q", diags[0].Message, want)
			}
		}
	}
}
