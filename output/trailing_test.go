package output

import (
	"slices"
	"strings"
	"testing"

	"github.com/hookside/hookside/internal/hook"
)

// TestTrailingTextWarned: stdout that is one complete JSON object followed
// by other output (a word, a stray "}", a cut second value) is plain text,
// as before: the answer must be the whole of stdout, so the object is not
// read in any profile. The warning quotes what follows (redacted, cut at
// trailingPreviewChars characters) and where it starts in the captured
// stdout: line, column in code points (a leading byte order mark takes
// none) and byte offset. An object followed by white space only is the
// answer, without a warning.
func TestTrailingTextWarned(t *testing.T) {
	w := func(what string) string {
		return "stdout is a JSON object followed by other output: " + what + "; the answer must be exactly one JSON object, the whole of stdout, so it was treated as plain text; print only the JSON object (send the rest to stderr)"
	}
	deny := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}`
	for _, tc := range []struct{ name, stdout, want string }{
		{"word_after", `{"decision":"block"} words`, w(`"words" at line 1, column 22 (byte offset 21)`)},
		{"stray_brace", deny + "}\n", w(`"}" at line 1, column 82 (byte offset 81)`)},
		{"next_line", deny + "\ndone\n", w(`"done" at line 2, column 1 (byte offset 82)`)},
		{"after_bom_and_spaces", "\ufeff  {\"decision\":\"block\"} x", w(`"x" at line 1, column 24 (byte offset 26)`)},
		{"columns_count_code_points", "{\"reason\":\"é€\"} x", w(`"x" at line 1, column 17 (byte offset 19)`)},
		{"long_text_cut", `{"decision":"block"} ` + strings.Repeat("x", 40), w(`"` + strings.Repeat("x", trailingPreviewChars) + `…" at line 1, column 22 (byte offset 21)`)},
		{"secret_redacted", `{"decision":"block"} api_key=abcd1234secret`, w(`"api_key=[REDACTED]" at line 1, column 22 (byte offset 21)`)},
		{"control_characters_quoted", "{\"decision\":\"block\"}\x1b[31m", w(`"\x1b[31m" at line 1, column 21 (byte offset 20)`)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, p := range []struct {
				name string
				d    *hook.Dialect
			}{{"zcode", hook.Zcode}, {"spark", hook.Spark}} {
				a := Parse(hook.PreToolUse, exit(0, tc.stdout, ""))
				if !slices.Equal(a.Warnings, []string{tc.want}) {
					t.Errorf("%s: warnings\n%q\nwant\n%q", p.name, a.Warnings, []string{tc.want})
				}
				if a.Outcome != OutcomeSucceeded || a.Decision != "" || a.Block || a.Continue != nil || a.AdditionalContext != nil {
					t.Errorf("%s: the object was read as the answer: %s", p.name, dump(a))
				}
				if m := MergeFor(p.d, hook.PreToolUse, []Answer{a}); m.Decision != nil || m.Blocked || !m.Continue {
					t.Errorf("%s: merged decision %v blocked %v continue %v", p.name, m.Decision, m.Blocked, m.Continue)
				}
				if u := Parse(hook.UserPromptSubmit, exit(0, tc.stdout, "")); len(u.AdditionalContext) != 1 || u.Block {
					t.Errorf("%s UserPromptSubmit: context %q block %v, want the whole stdout as context", p.name, u.AdditionalContext, u.Block)
				}
			}
			c := ParseClaude(hook.PreToolUse, res(0, tc.stdout, ""))
			if !slices.Equal(c.Warnings, []string{tc.want}) {
				t.Errorf("claude: warnings\n%q\nwant\n%q", c.Warnings, []string{tc.want})
			}
			if c.Outcome != OutcomeSucceeded || c.PermissionDecision != "" || c.Block || c.Continue != nil || c.HookError != "" {
				t.Errorf("claude: the object was read as the answer: %+v", c)
			}
		})
	}
	// White space after the object is not other output.
	a := Parse(hook.PreToolUse, exit(0, deny+" \n\t\u00a0\n", ""))
	c := ParseClaude(hook.PreToolUse, res(0, deny+" \n\t\u00a0\n", ""))
	if a.Warnings != nil || a.Decision != DecisionDeny || c.Warnings != nil || c.PermissionDecision != DecisionDeny {
		t.Errorf("object and white space: zcode %q %q, claude %q %q; want deny, no warning", a.Warnings, a.Decision, c.Warnings, c.PermissionDecision)
	}
}
