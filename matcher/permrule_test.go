package matcher

import (
	"errors"
	"strings"
	"testing"
)

func bash(cmd string) ToolCall {
	return ToolCall{ToolName: "Bash", Input: map[string]any{"command": cmd}}
}

func file(tool, p string) ToolCall {
	return ToolCall{ToolName: tool, Input: map[string]any{"file_path": p}, Cwd: "/work/proj/sub", ProjectDir: "/work/proj", Home: "/home/alice"}
}

// TestRuleMatch runs the examples of https://code.claude.com/docs/en/hooks
// (the `if` field and its Bash table) and
// https://code.claude.com/docs/en/permissions (rule syntax, Bash, Read and
// Edit, WebFetch, MCP, Agent).
func TestRuleMatch(t *testing.T) {
	tests := []struct {
		name string
		rule string
		call ToolCall
		want bool
	}{
		// hooks reference: the Bash `if` table.
		{"assignments_stripped", "Bash(git *)", bash("FOO=bar git push"), true},
		{"each_subcommand_checked", "Bash(git *)", bash("npm test && git push"), true},
		{"command_substitution_checked", "Bash(rm *)", bash("echo $(rm -rf /)"), true},
		{"substitution_without_match", "Bash(rm *)", bash("echo $(date)"), false},
		{"more_than_command_name_fails_open_on_substitution", "Bash(git push *)", bash("echo $(date)"), true},
		{"backticks_checked", "Bash(rm *)", bash("echo `rm -rf /tmp/x`"), true},
		{"variable_fails_open_for_long_pattern", "Bash(git push *)", bash("$CMD"), true},
		{"variable_does_not_open_command_name_pattern", "Bash(git *)", bash("echo $HOME"), false},
		{"unparseable_fails_open", "Bash(git *)", bash(`echo "unterminated`), true},
		// $() bodies: quoted parentheses do not close them, and the
		// substitution's text stays in its subcommand.
		{"single_quoted_paren_inside_substitution", "Bash(rm *)", bash(`echo $(echo ')') ; ls`), false},
		{"double_quoted_paren_inside_substitution", "Bash(rm *)", bash(`echo $(echo ")") ; ls`), false},
		{"substitution_text_kept_in_subcommand", "Bash(a$(b)c)", bash(`a$(b)c`), true},
		// hooks reference: the example and the `if` prose.
		{"git_commit_prefix", "Bash(git commit:*)", bash("git commit -m 'x'"), true},
		{"git_commit_prefix_other_subcommand", "Bash(git commit:*)", bash("git push"), false},
		{"Edit_ts_matches_ts", "Edit(*.ts)", file("Edit", "/work/proj/sub/a/b.ts"), true},
		{"Edit_ts_skips_js", "Edit(*.ts)", file("Edit", "/work/proj/sub/a/b.js"), false},
		// permissions: rule syntax.
		{"bare_tool_matches_all", "Bash", bash("anything at all"), true},
		{"bash_star_is_bare", "Bash(*)", bash("rm -rf /"), true},
		{"bare_tool_other_tool", "Bash", file("Read", "/x"), false},
		{"exact_command", "Bash(npm run build)", bash("npm run build"), true},
		{"exact_command_rejects_more", "Bash(npm run build)", bash("npm run build --watch"), false},
		{"prefix_wildcard", "Bash(npm run test *)", bash("npm run test -- --ci"), true},
		{"npm_star", "Bash(npm *)", bash("npm install"), true},
		{"leading_wildcard", "Bash(* install)", bash("pnpm install"), true},
		{"leading_wildcard_needs_suffix", "Bash(* install)", bash("pnpm i"), false},
		{"middle_wildcard", "Bash(git * main)", bash("git checkout main"), true},
		{"middle_wildcard_spans_words", "Bash(git * main)", bash("git log --oneline main"), true},
		{"middle_wildcard_push", "Bash(git * main)", bash("git push origin main"), true},
		{"middle_wildcard_merge", "Bash(git * main)", bash("git merge main"), true},
		{"star_spans_arguments", "Bash(git:*)", bash("git log --oneline --all"), true},
		{"space_before_star_is_word_boundary", "Bash(ls *)", bash("ls -la"), true},
		{"space_before_star_rejects_lsof", "Bash(ls *)", bash("lsof"), false},
		{"space_before_star_matches_bare_command", "Bash(ls *)", bash("ls"), true},
		{"no_space_matches_both", "Bash(ls*)", bash("lsof"), true},
		{"no_space_matches_ls", "Bash(ls*)", bash("ls -la"), true},
		{"colon_star_same_as_space_star", "Bash(ls:*)", bash("lsof"), false},
		{"colon_star_only_at_end", "Bash(git:* push)", bash("git push"), false},
		{"colon_literal_in_middle", "Bash(git:* push)", bash("git:x push"), true},
		{"compound_and", "Bash(safe-cmd *)", bash("other-cmd && safe-cmd"), true},
		{"separator_or", "Bash(rm *)", bash("false || rm x"), true},
		{"separator_semicolon", "Bash(rm *)", bash("cd /tmp; rm x"), true},
		{"separator_pipe", "Bash(grep *)", bash("cat f | grep x"), true},
		{"separator_pipe_amp", "Bash(grep *)", bash("cat f |& grep x"), true},
		{"separator_background", "Bash(rm *)", bash("sleep 1 & rm x"), true},
		{"separator_newline", "Bash(rm *)", bash("ls\nrm x"), true},
		{"redirection_is_not_a_separator", "Bash(rm *)", bash("ls 2>&1 rm"), false},
		{"quoted_operator_is_not_a_separator", "Bash(rm *)", bash(`echo "a && rm x"`), false},
		{"single_quoted_operator", "Bash(rm *)", bash(`echo 'a; rm x'`), false},
		{"timeout_wrapper_stripped", "Bash(npm test *)", bash("timeout 30 npm test"), true},
		{"time_nice_nohup_stdbuf_stripped", "Bash(make *)", bash("nohup nice -n 5 stdbuf -oL time make all"), true},
		{"bare_xargs_stripped", "Bash(grep *)", bash("xargs grep pattern"), true},
		{"xargs_with_flags_kept", "Bash(grep *)", bash("xargs -n1 grep pattern"), false},
		{"extra_spaces_do_not_match", "Bash(curl http://github.com/ *)", bash("curl  http://github.com/x"), false},
		{"subshell_parens_trimmed", "Bash(rm *)", bash("(cd x && rm -rf y)"), true},
		{"brace_group_trimmed", "Bash(rm *)", bash("{ rm -rf y; }"), true},
		{"timeout_with_signal_and_kill_after", "Bash(npm test *)", bash("timeout -s KILL -k 5 30 npm test"), true},
		{"timeout_long_flag", "Bash(npm test *)", bash("timeout --preserve-status 30 npm test"), true},
		{"nice_without_n", "Bash(make *)", bash("nice make"), true},
		{"tabs_separate_words", "Bash(make *)", bash("nohup\tmake all"), true},
		{"assignment_name_cannot_start_with_digit", "Bash(rm *)", bash("1A=x rm y"), false},
		{"assignment_with_digits_and_underscore", "Bash(rm *)", bash("_A9=x rm y"), true},
		{"assignment_with_zero", "Bash(rm *)", bash("A0=x rm y"), true},
		{"single_quoted_paren_closes_nothing", "Bash(rm *)", bash(`echo $(echo ')' ; ls x)`), false},
		{"double_quoted_paren_closes_nothing", "Bash(rm *)", bash(`echo $(echo ")" ; ls x)`), false},
		{"nested_parens_in_substitution", "Bash(rm *)", bash(`echo $( (ls) ; ls x)`), false},
		{"equals_first_is_not_assignment", "Bash(rm *)", bash("=x rm y"), false},
		{"trailing_dollar", "Bash(echo *)", bash("echo $"), true},
		{"trailing_backslash", "Bash(ls *)", bash(`ls \`), true},
		{"substitution_text_kept_in_subcommand", "Bash(echo $(date) done)", bash("echo $(date) done"), true},
		{"backtick_text_kept_in_subcommand", "Bash(echo `date` done)", bash("echo `date` done"), true},
		{"empty_backticks_parse", "Bash(ls *)", bash("echo `` ; rm x"), false},
		{"empty_substitution_parses", "Bash(ls *)", bash("echo $() ; rm x"), false},
		{"trailing_backslash_in_substitution", "Bash(ls *)", bash(`echo $(ls \`), true},
		{"trailing_pipe", "Bash(ls *)", bash("ls |"), true},
		{"trailing_and", "Bash(ls *)", bash("ls &"), true},
		{"leading_ampersand", "Bash(ls *)", bash("&ls"), true},
		{"amp_redirect_to_file", "Bash(rm *)", bash("ls &>out rm"), false},
		{"quoted_paren_in_substitution", "Bash(rm *)", bash(`echo $(echo ")" ; rm x)`), true},
		{"escaped_paren_in_substitution", "Bash(rm *)", bash(`echo $(echo \) ; rm x)`), true},
		{"single_quoted_paren_in_substitution", "Bash(rm *)", bash(`echo $(echo ')' ; rm x)`), true},
		{"escaped_quote_outside_quotes", "Bash(rm *)", bash(`echo \" ; rm x`), true},
		{"escaped_quote_inside_double_quotes", "Bash(rm *)", bash(`echo "a\" ; rm x"`), false},
		{"substitution_inside_double_quotes", "Bash(rm *)", bash(`echo "$(rm -rf /)"`), true},
		{"unterminated_substitution_fails_open", "Bash(ls *)", bash("echo $(rm"), true},
		{"unterminated_backtick_fails_open", "Bash(ls *)", bash("echo `rm"), true},
		{"dollar_brace_is_dynamic", "Bash(git push *)", bash("echo ${X}"), true},
		{"dollar_a_is_dynamic", "Bash(git push *)", bash("echo $a"), true},
		{"dollar_z_is_dynamic", "Bash(git push *)", bash("echo $z"), true},
		{"dollar_A_is_dynamic", "Bash(git push *)", bash("echo $A"), true},
		{"dollar_Z_is_dynamic", "Bash(git push *)", bash("echo $Z"), true},
		{"dollar_caret_is_not_dynamic", "Bash(git push *)", bash("echo $^"), false},
		{"dollar_at_is_not_dynamic", "Bash(git push *)", bash("echo $@"), false},
		{"dollar_bracket_is_not_dynamic", "Bash(git push *)", bash("echo $["), false},
		{"dollar_open_brace_is_dynamic", "Bash(git push *)", bash("echo ${"), true},
		{"dollar_underscore_is_dynamic", "Bash(git push *)", bash("$_x"), true},
		{"dollar_digit_is_not_dynamic", "Bash(git push *)", bash("echo $1"), false},
		{"dollar_in_single_quotes_still_dynamic_for_long_patterns", "Bash(git push *)", bash("echo '$(date)'"), false},
		{"bash_missing_command", "Bash(ls *)", ToolCall{ToolName: "Bash", Input: map[string]any{}}, false},
		// permissions: Read and Edit paths.
		{"dot_slash_env_in_cwd", "Read(./.env)", file("Read", "/work/proj/sub/.env"), true},
		{"dot_slash_env_not_deeper", "Read(./.env)", file("Read", "/work/proj/sub/x/.env"), false},
		{"relative_file_path_resolved_against_cwd", "Read(./.env)", file("Read", ".env"), true},
		{"no_slash_matches_any_depth", "Read(*.env)", file("Read", "/work/proj/sub/a/prod.env"), true},
		{"src_double_star", "Edit(src/**)", file("Edit", "/work/proj/sub/src/a/b.go"), true},
		{"src_double_star_outside", "Edit(src/**)", file("Edit", "/work/proj/sub/lib/a.go"), false},
		{"project_root_pattern", "Edit(/src/**/*.ts)", file("Edit", "/work/proj/src/x/y/z.ts"), true},
		{"project_root_pattern_not_cwd", "Edit(/src/**/*.ts)", file("Edit", "/work/proj/sub/src/z.ts"), false},
		{"project_root_direct_child", "Edit(/src/**/*.ts)", file("Edit", "/work/proj/src/z.ts"), true},
		{"docs_is_project_docs", "Edit(/docs/**)", file("Edit", "/work/proj/docs/a.md"), true},
		{"docs_is_not_root_docs", "Edit(/docs/**)", file("Edit", "/docs/a.md"), false},
		{"docs_is_not_claude_docs", "Edit(/docs/**)", file("Edit", "/work/proj/.claude/docs/a.md"), false},
		{"home_pattern", "Read(~/.zshrc)", file("Read", "/home/alice/.zshrc"), true},
		{"home_documents_pdf", "Read(~/Documents/*.pdf)", file("Read", "/home/alice/Documents/a.pdf"), true},
		{"single_star_one_directory", "Read(~/Documents/*.pdf)", file("Read", "/home/alice/Documents/x/a.pdf"), false},
		{"home_unknown_matches_nothing", "Read(~/.zshrc)", ToolCall{ToolName: "Read", Input: map[string]any{"file_path": "/home/alice/.zshrc"}}, false},
		{"absolute_pattern", "Edit(//tmp/scratch.txt)", file("Edit", "/tmp/scratch.txt"), true},
		{"absolute_secrets", "Read(//Users/alice/secrets/**)", file("Read", "/Users/alice/secrets/k/id"), true},
		{"single_slash_is_not_absolute", "Read(/Users/alice/file)", file("Read", "/Users/alice/file"), false},
		{"windows_path_normalised", "Read(//c/**/.env)", file("Read", `C:\Users\alice\app\.env`), true},
		{"all_drives", "Read(//**/.env)", file("Read", `D:\x\.env`), true},
		{"directory_match_covers_contents", "Read(secrets)", file("Read", "/work/proj/sub/a/secrets/key"), true},
		{"Edit_rule_covers_Write", "Edit(*.ts)", file("Write", "/work/proj/sub/x.ts"), true},
		{"Edit_rule_covers_NotebookEdit", "Edit(*.ipynb)", ToolCall{ToolName: "NotebookEdit", Input: map[string]any{"notebook_path": "/w/n.ipynb"}, Cwd: "/w"}, true},
		{"Read_rule_covers_Grep_path", "Read(src/**)", ToolCall{ToolName: "Grep", Input: map[string]any{"path": "/w/src/a"}, Cwd: "/w"}, true},
		{"Read_rule_not_Edit", "Read(*.ts)", file("Edit", "/work/proj/sub/x.ts"), false},
		{"Write_rule_not_Edit", "Write(*.ts)", file("Edit", "/work/proj/sub/x.ts"), false},
		{"path_rule_without_path", "Read(*.ts)", ToolCall{ToolName: "Read", Input: map[string]any{}}, false},
		{"outside_base", "Read(./x)", file("Read", "/elsewhere/x"), false},
		{"base_itself_is_not_a_file_under_it", "Read(**)", file("Read", "/work/proj/sub"), false},
		{"drive_a", "Read(//a/**/.env)", file("Read", `a:\x\.env`), true},
		{"drive_z", "Read(//z/**/.env)", file("Read", `Z:\.env`), true},
		{"colon_without_drive_letter", "Read(//1/**/.env)", file("Read", `1:\x\.env`), false},
		{"double_star_in_middle_matches_zero_dirs", "Edit(/a/**/b)", file("Edit", "/work/proj/a/b"), true},
		{"repeated_double_star", "Edit(/a/**/**/b)", file("Edit", "/work/proj/a/x/y/b"), true},
		{"double_star_needs_rest", "Edit(/a/**/b)", file("Edit", "/work/proj/a/x/c"), false},
		{"bad_glob_matches_nothing", "Edit(/[)", file("Edit", "/work/proj/["), false},
		{"trailing_slash_directory", "Read(build/)", file("Read", "/work/proj/sub/build/out.o"), true},
		{"relative_cwd_windows", "Read(./.env)", ToolCall{ToolName: "Read", Input: map[string]any{"file_path": ".env"}, Cwd: `C:\w`}, true},
		{"relative_base_matches_nothing", "Read(./.env)", ToolCall{ToolName: "Read", Input: map[string]any{"file_path": ".env"}, Cwd: "w"}, false},
		{"project_dir_defaults_to_cwd", "Edit(/src/*.go)", ToolCall{ToolName: "Edit", Input: map[string]any{"file_path": "/w/src/a.go"}, Cwd: "/w"}, true},
		{"root_pattern_on_root_file", "Read(//etc/passwd)", file("Read", "/etc/passwd"), true},
		{"notebook_path_field", "Read(*.ipynb)", ToolCall{ToolName: "Read", Input: map[string]any{"notebook_path": "/w/n.ipynb"}, Cwd: "/w"}, true},
		{"empty_file_path_uses_next_field", "Read(*.go)", ToolCall{ToolName: "Glob", Input: map[string]any{"file_path": "", "path": "/w/a.go"}, Cwd: "/w"}, true},
		{"sibling_prefix_is_not_under_base", "Read(./x)", file("Read", "/work/proj/subx/x"), false},
		// permissions: WebFetch, MCP, Agent.
		{"webfetch_domain", "WebFetch(domain:example.com)", ToolCall{ToolName: "WebFetch", Input: map[string]any{"url": "https://Example.com/a"}}, true},
		{"webfetch_other_domain", "WebFetch(domain:example.com)", ToolCall{ToolName: "WebFetch", Input: map[string]any{"url": "https://example.org/"}}, false},
		{"webfetch_without_domain_prefix", "WebFetch(example.com)", ToolCall{ToolName: "WebFetch", Input: map[string]any{"url": "https://example.com/"}}, false},
		{"webfetch_url_without_host", "WebFetch(domain:)", ToolCall{ToolName: "WebFetch", Input: map[string]any{"url": "/relative"}}, false},
		{"webfetch_bad_url", "WebFetch(domain:example.com)", ToolCall{ToolName: "WebFetch", Input: map[string]any{"url": "http://example.com/%zz"}}, false},
		{"names_with_range_edges", "azAZ09_-", ToolCall{ToolName: "azAZ09_-"}, true},
		{"mcp_server_rule", "mcp__puppeteer", ToolCall{ToolName: "mcp__puppeteer__puppeteer_navigate"}, true},
		{"mcp_server_wildcard", "mcp__puppeteer__*", ToolCall{ToolName: "mcp__puppeteer__puppeteer_navigate"}, true},
		{"mcp_tool_rule", "mcp__puppeteer__puppeteer_navigate", ToolCall{ToolName: "mcp__puppeteer__puppeteer_navigate"}, true},
		{"mcp_tool_rule_other_tool", "mcp__puppeteer__puppeteer_navigate", ToolCall{ToolName: "mcp__puppeteer__click"}, false},
		{"mcp_server_rule_other_server", "mcp__puppeteer", ToolCall{ToolName: "mcp__github__x"}, false},
		{"mcp_server_prefix_is_whole_segment", "mcp__pup", ToolCall{ToolName: "mcp__puppeteer__x"}, false},
		{"mcp_plugin_scoped", "mcp__plugin_my-plugin_db", ToolCall{ToolName: "mcp__plugin_my-plugin_db__query"}, true},
		{"agent_type", "Agent(Explore)", ToolCall{ToolName: "Agent", Input: map[string]any{"subagent_type": "Explore"}}, true},
		{"agent_type_other", "Agent(Explore)", ToolCall{ToolName: "Agent", Input: map[string]any{"subagent_type": "Plan"}}, false},
		{"task_alias", "Task(my-custom-agent)", ToolCall{ToolName: "Agent", Input: map[string]any{"subagent_type": "my-custom-agent"}}, true},
		{"unknown_specifier_matches_nothing", "Glob2(x)", ToolCall{ToolName: "Glob2", Input: map[string]any{"x": "x"}}, false},
		{"mcp_specifier_matches_nothing", "mcp__a__b(x)", ToolCall{ToolName: "mcp__a__b"}, false},
		{"empty_parens_are_all", "Bash()", bash("x"), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := ParseRule(tt.rule)
			if err != nil {
				t.Fatalf("ParseRule(%q): %v", tt.rule, err)
			}
			if got := r.Match(tt.call); got != tt.want {
				t.Errorf("%s on %s %v = %v, want %v", tt.rule, tt.call.ToolName, tt.call.Input, got, tt.want)
			}
		})
	}
}

// TestBashNestingLimit: $() nested deeper than maxShellDepth (16) counts
// as unparseable, so the filter fails open.
func TestBashNestingLimit(t *testing.T) {
	r, _ := ParseRule("Bash(ls *)")
	nest := func(n int) string {
		return "echo " + strings.Repeat("$(", n) + "rm x" + strings.Repeat(")", n)
	}
	if r.Match(bash(nest(16))) {
		t.Error("16 levels of $() are parsed: rm x is not ls")
	}
	if !r.Match(bash(nest(17))) {
		t.Error("17 levels of $() must fail open")
	}
}

func TestParseRule(t *testing.T) {
	good := []struct{ in, tool, spec, str string }{
		{"Bash", "Bash", "", "Bash"},
		{" Bash(git commit:*) ", "Bash", "git commit:*", "Bash(git commit:*)"},
		{"Edit(src/**)", "Edit", "src/**", "Edit(src/**)"},
		{"Read(./.env)", "Read", "./.env", "Read(./.env)"},
		{"Bash(*)", "Bash", "*", "Bash"},
		{"Bash(echo (a))", "Bash", "echo (a)", "Bash(echo (a))"},
		{"mcp__brave-search__*", "mcp__brave-search__*", "", "mcp__brave-search__*"},
		{"WebFetch(domain:example.com)", "WebFetch", "domain:example.com", "WebFetch(domain:example.com)"},
	}
	for _, g := range good {
		r, err := ParseRule(g.in)
		if err != nil || r.Tool != g.tool || r.Specifier != g.spec || r.String() != g.str {
			t.Errorf("ParseRule(%q) = %+v %q, %v; want tool %q spec %q string %q", g.in, r, r.String(), err, g.tool, g.spec, g.str)
		}
	}
	for _, bad := range []string{"", "   ", "Bash(a) && Bash(b)", "Bash(x) || Bash(y)", "Bash(git *), Read", "Bash, Read", "Bash(unclosed", "Bash(a))", "(x)", "Ba sh", "Bash((x)", "Bash(x)y", "*", "mcp__*__x", "Bash(\xda)", "Bash.", "Bash@", "Bash[", "Bash`", "Bash{", "Bash/", "Bash:"} {
		if _, err := ParseRule(bad); !errors.Is(err, ErrRule) {
			t.Errorf("ParseRule(%q) error = %v, want ErrRule", bad, err)
		}
	}
	// A rule starting with "(" names an empty tool.
	if _, err := ParseRule("(x)"); err == nil || !strings.Contains(err.Error(), `tool name ""`) {
		t.Errorf(`ParseRule("(x)") error = %v, want the empty tool name named`, err)
	}
}

func TestIfApplies(t *testing.T) {
	for _, ev := range []string{"PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest", "PermissionDenied"} {
		if !IfApplies(ev) {
			t.Errorf("IfApplies(%q) = false", ev)
		}
	}
	for _, ev := range []string{"Stop", "UserPromptSubmit", "SessionStart", ""} {
		if IfApplies(ev) {
			t.Errorf("IfApplies(%q) = true: on other events a handler with if never runs", ev)
		}
	}
}
