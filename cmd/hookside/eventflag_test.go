package main

import (
	"strings"
	"testing"
)

// TestEventFlagDidYouMean: a misspelled --event (also with two adjacent
// letters swapped) gets the config files' "did you mean"
// (config.SuggestEvent) on hooks run, list and explain,
// with each command's usage status; a real event of another profile gets
// none; hooks list --profile claude takes every Claude Code event.
func TestEventFlagDidYouMean(t *testing.T) {
	e := newCLIEnv(t)
	claudeHome := t.TempDir()
	for _, c := range []struct {
		args []string
		code int
		want string // "" = no suggestion
	}{
		{[]string{"run", "--event", "PreToolUSe"}, exitError, "did you mean PreToolUse?"},
		{[]string{"explain", "--event", "pretooluse"}, exitError, "did you mean PreToolUse?"},
		{[]string{"list", "--event", "UserPromtSubmit"}, exitUsage, "did you mean UserPromptSubmit?"},
		{[]string{"explain", "--profile", "claude", "--claude-home", claudeHome, "--event", "SubagentStpo"}, exitError, "did you mean SubagentStop?"},
		{[]string{"run", "--event", "Stpo"}, exitError, "did you mean Stop?"},
		{[]string{"list", "--event", "SesisonStart"}, exitUsage, "did you mean SessionStart?"},
		{[]string{"explain", "--event", "PerToolUse"}, exitError, "did you mean PreToolUse?"},
		{[]string{"run", "--event", "Sopt"}, exitError, ""},
		{[]string{"run", "--event", "SubagentStop"}, exitError, ""},
		{[]string{"list", "--event", "Bogus"}, exitUsage, ""},
	} {
		code, _, errs := e.hookside(t, "", append([]string{"hooks"}, c.args...)...)
		if code != c.code || !strings.Contains(errs, "--event must be one of SessionStart") {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and the events", c.args, code, errs, c.code)
		}
		if c.want == "" && strings.Contains(errs, "did you mean") || c.want != "" && !strings.Contains(errs, "; "+c.want+"\n") {
			t.Errorf("%v: stderr %q, want suggestion %q", c.args, errs, c.want)
		}
	}
	if code, out, errs := e.hookside(t, "", "hooks", "list", "--profile", "claude", "--claude-home", claudeHome, "--event", "SubagentStop"); code != exitOK {
		t.Errorf("list --profile claude --event SubagentStop: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}
