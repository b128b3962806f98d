package compat

import (
	"testing"
)

// tryoutCorpus holds what broke when public plugins (anthropics/claude-code
// plugins/: security-guidance, hookify, ralph-wiggum,
// explanatory-output-style) were installed into a Claude home and run
// unmodified through --profile claude, rewritten as small scripts in the
// same style (the plugins' own scripts are not redistributable).
func tryoutCorpus() []claudeScenario {
	review := obj("type", "command", "command", "${ROOT}/bin/commit_review.sh", "if", "Bash(git commit:*)", "asyncRewake", true,
		"rewakeMessage", "Background review of the commit: address the findings below.",
		"rewakeSummary", "Commit review found issues")
	return []claudeScenario{
		{
			name: "runtime_async_marker", description: "a SessionStart hook that prints the runtime async marker {\"async\": true, \"asyncTimeout\": …} as its first line is answered at once as a background hook while it goes on running (held here on a FIFO that the resume hook opens): nothing of its stdout becomes context; its first other JSON line is its output, delivered in asyncResults of a later reply (security-guidance's ensure_agent_sdk.py; https://github.com/anthropics/claude-code/issues/24794).",
			scripts: []string{"sdk_bootstrap.py"}, event: "SessionStart",
			plugin: obj("hooks", obj("SessionStart", []any{
				obj("matcher", "startup", "hooks", []any{obj("type", "command", "command", "python3 ${ROOT}/bin/sdk_bootstrap.py", "timeout", 180)}),
				obj("matcher", "resume", "hooks", []any{obj("type", "command", "command", `echo go > "$CLAUDE_PLUGIN_DATA/go"`)}),
			})),
			runs: []runExpect{
				{obj("source", "startup"), obj("additionalContext", []any{}, "asyncResults", "$absent",
					"runs", []any{obj("outcome", "started_async")})},
				{obj("source", "resume"), obj("runs", []any{obj("outcome", "succeeded")})},
			},
			after: []any{obj("expectFile", obj("path", "${ROOT}/claudehome/plugins/data/formatter-market/done", "text", "ready\n"))},
		},
		{
			name: "rewake_message_and_summary", description: "an asyncRewake PostToolUse[Bash] reviewer gated by if Bash(git commit:*): exit 2 pushes hook/asyncRewake with the handler's rewakeMessage before stderr and the output's rewakeSummary (else the handler's) as the user notice; other commands skip it (security-guidance's hooks.json).",
			scripts: []string{"commit_review.sh"}, event: "PostToolUse",
			plugin: obj("hooks", obj("PostToolUse", claudeGroup("Bash", review))),
			runs: []runExpect{
				{obj("tool_name", "Bash", "tool_input", obj("command", "git commit -m wip"), "tool_response", obj("stdout", "ok")),
					obj("runs", []any{obj("outcome", "started_async")})},
				{obj("tool_name", "Bash", "tool_input", obj("command", "ls")),
					obj("runs", []any{obj("outcome", "skipped", "reason", obj("$regex", "^if_not_matched"))})},
			},
			after: []any{obj("expectNotification", obj("method", "hook/asyncRewake", "params", obj("sessionId", "s1", "result", obj(
				"wake", true, "wakeSummary", "Commit review found 1 issue",
				"wakeText", "Background review of the commit: address the findings below.\n\napp.js:3 innerHTML set from user input (XSS)"))),
				"timeoutMs", 20000)},
		},
	}
}

// TestClaudeTryOut runs the try-out findings against the real binary.
func TestClaudeTryOut(t *testing.T) {
	runClaudeScenarios(t, tryoutCorpus(), true)
}
