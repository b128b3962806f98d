package runner

import (
	"os"
	"slices"
	"strconv"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/internal/jsonexact"
	"github.com/hookside/hookside/matcher"
)

// claudeMatcherMatches reports whether a group's matcher selects value on
// event, under Claude Code's matcher rules (matcher.ClaudeRulesFor:
// https://code.claude.com/docs/en/hooks#matcher-patterns). Compiled
// matchers are cached per session.
func (c *claudeState) matcherMatches(event string, pattern *string, value string) bool {
	if pattern == nil {
		return true
	}
	rules := matcher.ClaudeRulesFor(event)
	key := strconv.Itoa(int(rules)) + "\x00" + *pattern
	c.mu.Lock()
	m, ok := c.matchers[key]
	c.mu.Unlock()
	if !ok {
		m, _ = matcher.CompileRules(pattern, rules) // an invalid one matches nothing
		c.mu.Lock()
		if c.matchers == nil {
			c.matchers = map[string]*matcher.Matcher{}
		}
		c.matchers[key] = m
		c.mu.Unlock()
	}
	return m.Match(value)
}

// claudeIfMatches evaluates a handler's `if` permission rule against the
// tool call of in (tool_name, tool_input; paths relative to cwd and the
// project dir, ~ from the user's home); on an event that is not a tool
// event the handler never runs
// (https://code.claude.com/docs/en/hooks#common-fields). why says what did
// not match.
func claudeIfMatches(event, rule string, in claudeInput, cwd, projectDir string) (bool, string) {
	if !slices.Contains(hook.ClaudeIfEvents, event) {
		return false, "if is evaluated on tool events only"
	}
	r, err := matcher.ParseRule(rule)
	if err != nil {
		return false, err.Error()
	}
	name, _ := in.str("tool_name")
	var input map[string]any
	_ = jsonexact.Unmarshal(in["tool_input"], &input)
	home, _ := os.UserHomeDir()
	if r.Match(matcher.ToolCall{ToolName: name, Input: input, Cwd: cwd, ProjectDir: projectDir, Home: home}) {
		return true, ""
	}
	return false, rule + " does not match this " + name + " call"
}
