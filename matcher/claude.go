package matcher

import "strings"

// Rules selects the matcher language a declaration is written in.
type Rules uint8

const (
	// Lifecycle is lifecycle-hooks-and-workspace-trust §"配置格式与默认值",
	// used by the zcode and spark dialects: [A-Za-z0-9_|] only is an exact
	// list split on "|", an empty value is matched by every matcher, and
	// the tool aliases of Aliases apply.
	Lifecycle Rules = iota
	// Claude is Claude Code's matcher rule for every event with matcher
	// support except FileChanged and StopFailure, per
	// https://code.claude.com/docs/en/hooks#matcher-patterns:
	//   - nil, "" or "*" matches every value;
	//   - a pattern made only of ASCII letters, digits, "_", "-", spaces,
	//     "," and "|" is a list of exact strings separated by "|" or ","
	//     with optional surrounding spaces ("Edit|Write", "Edit, Write",
	//     "code-reviewer", "mcp__brave-search"); a bare MCP server prefix
	//     such as "mcp__memory" is therefore an exact string that matches
	//     no tool (https://code.claude.com/docs/en/hooks#match-mcp-tools);
	//   - anything else is a JavaScript regular expression tested
	//     unanchored ("^Notebook", "mcp__memory__.*",
	//     "mcp__plugin_my-plugin_db__.*", "^my-plugin:reviewer$").
	// The only alias is Agent <-> Task: the Task tool was renamed Agent and
	// "Task" references in settings keep working
	// (https://code.claude.com/docs/en/sub-agents).
	Claude
	// ClaudeNarrow is Claude Code's rule for FileChanged and StopFailure:
	// only [A-Za-z0-9_|] is an exact list (split on "|" alone); a hyphen,
	// space or comma makes the pattern a regular expression
	// (https://code.claude.com/docs/en/hooks#matcher-patterns). Aliases as
	// for Claude.
	ClaudeNarrow
)

// ClaudeRulesFor returns the Rules Claude Code applies to event's matcher:
// ClaudeNarrow for FileChanged and StopFailure, Claude for every other event.
func ClaudeRulesFor(event string) Rules {
	if event == "FileChanged" || event == "StopFailure" {
		return ClaudeNarrow
	}
	return Claude
}

// ClaudeIgnoresMatcher reports whether Claude Code ignores the matcher of
// event's groups (the event has no matcher support and always fires):
// UserPromptSubmit, PostToolBatch, Stop, TeammateIdle, TaskCreated,
// TaskCompleted, WorktreeCreate, WorktreeRemove, MessageDisplay, CwdChanged
// (https://code.claude.com/docs/en/hooks#matcher-patterns).
func ClaudeIgnoresMatcher(event string) bool {
	switch event {
	case "UserPromptSubmit", "PostToolBatch", "Stop", "TeammateIdle", "TaskCreated",
		"TaskCompleted", "WorktreeCreate", "WorktreeRemove", "MessageDisplay", "CwdChanged":
		return true
	}
	return false
}

func isClaudeNameList(p string) bool {
	for i := 0; i < len(p); i++ {
		c := p[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			c == '_' || c == '-' || c == ' ' || c == ',' || c == '|') {
			return false
		}
	}
	return true
}

// claudeNames splits an exact list on "|" and ",", trims the spaces around
// each name and drops empty names.
func claudeNames(p string) []string {
	var names []string
	for _, n := range strings.FieldsFunc(p, func(r rune) bool { return r == '|' || r == ',' }) {
		if n = strings.Trim(n, " "); n != "" {
			names = append(names, n)
		}
	}
	return names
}

// claudeAlias is the other name of a renamed Claude Code tool, "" if none.
func claudeAlias(tool string) string {
	switch tool {
	case "Agent":
		return "Task"
	case "Task":
		return "Agent"
	}
	return ""
}
