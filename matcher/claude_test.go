package matcher

import "testing"

// TestClaudeMatcher runs the examples of Claude Code's hooks reference,
// https://code.claude.com/docs/en/hooks#matcher-patterns and #match-mcp-tools.
func TestClaudeMatcher(t *testing.T) {
	type probe struct {
		value string
		want  bool
	}
	tests := []struct {
		name    string
		pattern *string
		rules   Rules
		kind    kind
		probes  []probe
	}{
		{"omitted_matches_all", nil, Claude, kindAll, []probe{{"Bash", true}, {"", true}}},
		{"star_matches_all", ptr("*"), Claude, kindAll, []probe{{"Bash", true}}},
		{"empty_matches_all", ptr(""), Claude, kindAll, []probe{{"startup", true}}},
		{"Bash_matches_only_Bash", ptr("Bash"), Claude, kindNames, []probe{{"Bash", true}, {"BashOutput", false}, {"bash", false}}},
		{"bar_list_is_exact", ptr("Edit|Write"), Claude, kindNames, []probe{{"Edit", true}, {"Write", true}, {"NotebookEdit", false}}},
		{"comma_list_is_exact", ptr("Edit, Write"), Claude, kindNames, []probe{{"Edit", true}, {"Write", true}, {"NotebookEdit", false}, {" Write", false}}},
		{"comma_without_space", ptr("Edit,Write"), Claude, kindNames, []probe{{"Write", true}}},
		{"spaces_around_bars_trimmed", ptr(" Edit | Write "), Claude, kindNames, []probe{{"Edit", true}, {"Write", true}}},
		{"empty_parts_ignored", ptr("Edit,,|Write"), Claude, kindNames, []probe{{"Edit", true}, {"Write", true}}},
		{"hyphenated_agent_type_is_exact", ptr("code-reviewer"), Claude, kindNames, []probe{{"code-reviewer", true}, {"senior-code-reviewer", false}}},
		{"hyphenated_mcp_prefix_is_exact_and_matches_no_tool", ptr("mcp__brave-search"), Claude, kindNames, []probe{{"mcp__brave-search__web_search", false}, {"mcp__brave-search", true}}},
		{"bare_server_prefix_matches_no_tool", ptr("mcp__memory"), Claude, kindNames, []probe{{"mcp__memory__create_entities", false}}},
		{"full_mcp_tool_name_is_exact", ptr("mcp__memory__create_entities"), Claude, kindNames, []probe{{"mcp__memory__create_entities", true}, {"mcp__memory__create", false}}},
		{"server_wildcard_is_regex", ptr("mcp__memory__.*"), Claude, kindRE2, []probe{{"mcp__memory__create_entities", true}, {"mcp__filesystem__read_file", false}}},
		{"hyphenated_server_wildcard", ptr("mcp__brave-search__.*"), Claude, kindRE2, []probe{{"mcp__brave-search__web_search", true}, {"mcp__brave__x", false}}},
		{"any_server_write_tools", ptr("mcp__.*__write.*"), Claude, kindRE2, []probe{{"mcp__filesystem__write_file", true}, {"mcp__memory__read", false}}},
		{"plugin_scoped_server", ptr("mcp__plugin_my-plugin_db__.*"), Claude, kindRE2, []probe{{"mcp__plugin_my-plugin_db__query", true}, {"mcp__db__query", false}}},
		{"all_mcp_tools", ptr("mcp__.*"), Claude, kindRE2, []probe{{"mcp__github__search_repositories", true}, {"Bash", false}}},
		{"caret_is_regex", ptr("^Notebook"), Claude, kindRE2, []probe{{"NotebookEdit", true}, {"Notebook", true}, {"EditNotebook", false}}},
		{"regex_is_unanchored", ptr("Edit.*"), Claude, kindRE2, []probe{{"Edit", true}, {"NotebookEdit", true}}},
		{"anchored_regex", ptr("^Edit$"), Claude, kindRE2, []probe{{"Edit", true}, {"NotebookEdit", false}}},
		{"plugin_agent_regex", ptr("^my-plugin:reviewer$"), Claude, kindRE2, []probe{{"my-plugin:reviewer", true}, {"reviewer", false}}},
		{"session_start_sources", ptr("startup|resume"), Claude, kindNames, []probe{{"startup", true}, {"resume", true}, {"clear", false}}},
		{"notification_types", ptr("permission_prompt, idle_prompt"), Claude, kindNames, []probe{{"idle_prompt", true}, {"auth_success", false}}},
		{"empty_value_not_matched_by_a_name", ptr("Bash"), Claude, kindNames, []probe{{"", false}}},
		{"empty_value_tested_by_regex", ptr("^$"), Claude, kindRE2, []probe{{"", true}}},
		{"invalid_regex_matches_nothing", ptr("Bash("), Claude, kindNothing, []probe{{"Bash", false}, {"", false}}},
		{"Task_alias_of_Agent", ptr("Task"), Claude, kindNames, []probe{{"Agent", true}}},
		{"Agent_alias_of_Task", ptr("^Agent$"), Claude, kindRE2, []probe{{"Task", true}}},
		{"no_ApplyPatch_alias", ptr("Write"), Claude, kindNames, []probe{{"ApplyPatch", false}}},
		// FileChanged and StopFailure: letters, digits, _ and | only.
		{"narrow_bar_list_is_exact", ptr("rate_limit|overloaded"), ClaudeNarrow, kindNames, []probe{{"overloaded", true}, {"server_error", false}}},
		{"narrow_comma_is_regex", ptr("rate_limit,overloaded"), ClaudeNarrow, kindRE2, []probe{{"rate_limit", false}, {"xrate_limit,overloadedx", true}}},
		{"narrow_hyphen_is_regex", ptr("a-b"), ClaudeNarrow, kindRE2, []probe{{"xa-bx", true}}},
		{"narrow_dotted_filenames_regex", ptr(".envrc|.env"), ClaudeNarrow, kindRE2, []probe{{".env", true}, {"xenv", true}}},
		{"narrow_empty_value", ptr("rate_limit"), ClaudeNarrow, kindNames, []probe{{"", false}}},
		{"range_edges_are_exact", ptr("azAZ09_- ,|"), Claude, kindNames, []probe{{"azAZ09_-", true}}},
		{"dot_is_regex", ptr("a.b"), Claude, kindRE2, []probe{{"axb", true}}},
		{"slash_is_regex", ptr("a/b"), Claude, kindRE2, []probe{{"xa/bx", true}}},
		{"colon_is_regex", ptr("a:b"), Claude, kindRE2, []probe{{"xa:bx", true}}},
		{"at_is_regex", ptr("a@b"), Claude, kindRE2, []probe{{"xa@bx", true}}},
		{"bracket_is_regex", ptr("[ab]"), Claude, kindRE2, []probe{{"b", true}}},
		{"backtick_is_regex", ptr("a`b"), Claude, kindRE2, []probe{{"a`b", true}}},
		{"brace_is_regex", ptr("a{2}"), Claude, kindRE2, []probe{{"aa", true}, {"a{2}", false}}},
		{"tab_is_regex", ptr("a\tb"), Claude, kindRE2, []probe{{"a\tb", true}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, _ := CompileRules(tt.pattern, tt.rules)
			if m.kind != tt.kind {
				t.Errorf("CompileRules(%v, %d) kind = %d, want %d", deref(tt.pattern), tt.rules, m.kind, tt.kind)
			}
			for _, p := range tt.probes {
				if got := m.Match(p.value); got != p.want {
					t.Errorf("CompileRules(%v, %d).Match(%q) = %v, want %v", deref(tt.pattern), tt.rules, p.value, got, p.want)
				}
			}
		})
	}
}

// TestLifecycleRulesUnchanged: the zcode/spark rule keeps treating commas,
// hyphens and spaces as regular-expression text.
func TestLifecycleRulesUnchanged(t *testing.T) {
	for _, tc := range []struct {
		pattern, value string
		want           bool
	}{
		{"Edit, Write", "Edit", false},
		{"code-reviewer", "senior-code-reviewer", true},
		{"mcp__brave-search", "mcp__brave-search__web_search", true},
		{"Bash", "", true},
		{"Write", "ApplyPatch", true},
	} {
		m, _ := Compile(ptr(tc.pattern))
		if got := m.Match(tc.value); got != tc.want {
			t.Errorf("Compile(%q).Match(%q) = %v, want %v", tc.pattern, tc.value, got, tc.want)
		}
	}
}

func TestClaudeRulesFor(t *testing.T) {
	for ev, want := range map[string]Rules{"FileChanged": ClaudeNarrow, "StopFailure": ClaudeNarrow, "PreToolUse": Claude, "SessionStart": Claude, "SubagentStart": Claude} {
		if got := ClaudeRulesFor(ev); got != want {
			t.Errorf("ClaudeRulesFor(%q) = %d, want %d", ev, got, want)
		}
	}
}

func TestCompileRulesCacheSeparatesRules(t *testing.T) {
	a, _ := CompileRules(ptr("Edit, Write"), Claude)
	b, _ := CompileRules(ptr("Edit, Write"), Lifecycle)
	if a == b || a.kind != kindNames || b.kind == kindNames {
		t.Errorf("one cache entry served two rule sets: %d %d", a.kind, b.kind)
	}
	if m, _ := CompileRules(ptr("Bash"), Rules(99)); m.rules != Lifecycle {
		t.Error("unknown Rules is not Lifecycle")
	}
}

func TestClaudeIgnoresMatcher(t *testing.T) {
	for _, ev := range []string{"UserPromptSubmit", "PostToolBatch", "Stop", "TeammateIdle", "TaskCreated", "TaskCompleted", "WorktreeCreate", "WorktreeRemove", "MessageDisplay", "CwdChanged"} {
		if !ClaudeIgnoresMatcher(ev) {
			t.Errorf("ClaudeIgnoresMatcher(%q) = false", ev)
		}
	}
	for _, ev := range []string{"PreToolUse", "PostToolUse", "PermissionRequest", "SessionStart", "SessionEnd", "Notification", "SubagentStart", "SubagentStop", "PreCompact", "FileChanged", "StopFailure", "ConfigChange"} {
		if ClaudeIgnoresMatcher(ev) {
			t.Errorf("ClaudeIgnoresMatcher(%q) = true, but the event filters on its matcher", ev)
		}
	}
}
