package hook

import "testing"

// https://code.claude.com/docs/en/hooks#hook-lifecycle (31 events),
// #common-fields (timeouts), #matcher-patterns (matcher fields).
func TestClaudeDialect(t *testing.T) {
	if len(ClaudeEvents) != 31 {
		t.Fatalf("%d events", len(ClaudeEvents))
	}
	seen := map[string]bool{}
	for _, e := range ClaudeEvents {
		if seen[e] {
			t.Errorf("duplicate %s", e)
		}
		seen[e] = true
	}
	for ev, want := range map[string]int{PreToolUse: 600000, UserPromptSubmit: 30000, MessageDisplay: 10000, SessionEnd: 1500, Stop: 600000} {
		if got := Claude.TimeoutFor(ev); got != want {
			t.Errorf("TimeoutFor(%s) = %d, want %d", ev, got, want)
		}
	}
	if Zcode.TimeoutFor(PreToolUse) != 0 || Spark.TimeoutFor(Stop) != 0 {
		t.Error("zcode and spark keep the lifecycle default chain")
	}
	for ev, want := range map[string]string{PreToolUse: "tool_name", SessionStart: "source", Notification: "notification_type", SubagentStop: "agent_type", PreCompact: "trigger", SessionEnd: "reason", Elicitation: "mcp_server_name"} {
		if f, ok := Claude.MatcherField(ev); !ok || f != want {
			t.Errorf("MatcherField(%s) = %q, %v", ev, f, ok)
		}
	}
	for _, ev := range []string{UserPromptSubmit, Stop, PostToolBatch, TeammateIdle, TaskCreated, TaskCompleted, WorktreeCreate, WorktreeRemove, MessageDisplay, CwdChanged} {
		if _, ok := Claude.MatcherField(ev); ok || Claude.MatcherApplies(ev) {
			t.Errorf("%s has no matcher support", ev)
		}
	}
	if !Claude.Runs(TypeHTTP) || !Claude.Runs(TypeCommand) || Claude.Runs("prompt") {
		t.Error("handler types")
	}
	if Claude.PluginRules() != Claude || Zcode.PluginRules() != Plugin || Spark.PluginRules() != Plugin {
		t.Error("plugin rules")
	}
	if Claude.ManagedSettingsPath == "" || Zcode.ManagedSettingsPath != "" {
		t.Error("managed settings path")
	}
}
