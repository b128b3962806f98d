package main

import (
	"strconv"
	"strings"
	"testing"
)

// TestEventFlagDidYouMean: a misspelled --event (also with two adjacent
// letters swapped) is quoted, then gets the config files' "did you mean"
// (config.UnknownEvent) on hooks run, list and explain,
// with each command's usage status; a real event of another profile is
// not taken for a misspelling; hooks list --profile claude takes every
// Claude Code event.
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
		if code != c.code || !strings.Contains(errs, ": --event: unknown event "+strconv.Quote(c.args[len(c.args)-1])+" (want one of SessionStart, ") {
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

// TestEventFlagQuotesValueAndNamesProfile: an --event with a whitespace
// or case slip is quoted as given ("Stop " shows its space) before the
// suggestion; a Claude Code event under the zcode or spark profile (the
// default included) says to use --profile claude, on hooks run, list and
// explain, each with its usage status; --profile claude takes it.
func TestEventFlagQuotesValueAndNamesProfile(t *testing.T) {
	e := newCLIEnv(t)
	claudeHome := t.TempDir()
	const events = " (want one of SessionStart, UserPromptSubmit, PreToolUse, PermissionRequest, PostToolUse, PostToolUseFailure, Stop)"
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"run", "--event", "Stop "}, exitError, `hookside hooks run: --event: unknown event "Stop "` + events + "; did you mean Stop?\n"},
		{[]string{"list", "--event", " stop\t"}, exitUsage, `hookside hooks list: --event: unknown event " stop\t"` + events + "; did you mean Stop?\n"},
		{[]string{"explain", "--event", "PreToolUse\u00a0"}, exitError, `hookside hooks explain: --event: unknown event "PreToolUse\u00a0"` + events + "; did you mean PreToolUse?\n"},
		{[]string{"run", "--event", "Notification"}, exitError, `hookside hooks run: --event: unknown event "Notification"` + events + "; Notification is a Claude Code event: use --profile claude\n"},
		{[]string{"list", "--profile", "zcode", "--event", "PreCompact"}, exitUsage, `hookside hooks list: --event: unknown event "PreCompact"` + events + "; PreCompact is a Claude Code event: use --profile claude\n"},
		{[]string{"explain", "--profile", "spark", "--event", "Setup"}, exitError, `hookside hooks explain: --event: unknown event "Setup"` + events + "; Setup is a Claude Code event: use --profile claude\n"},
		{[]string{"run", "--event", "sessionend "}, exitError, `hookside hooks run: --event: unknown event "sessionend "` + events + "; did you mean SessionEnd? SessionEnd is a Claude Code event: use --profile claude\n"},
		// Missing, not wrong.
		{[]string{"run"}, exitError, "hookside hooks run: --event is required: one of SessionStart, UserPromptSubmit, PreToolUse, PermissionRequest, PostToolUse, PostToolUseFailure, Stop\n"},
	} {
		code, _, errs := e.hookside(t, "", append([]string{"hooks"}, c.args...)...)
		if code != c.code || errs != c.want {
			t.Errorf("%q: exit %d, stderr\n%s\nwant exit %d, stderr\n%s", c.args, code, errs, c.code, c.want)
		}
	}
	code, _, errs := e.hookside(t, "", "hooks", "list", "--profile", "claude", "--claude-home", claudeHome, "--event", "Stop ")
	if code != exitUsage || !strings.Contains(errs, `--event: unknown event "Stop " (want one of SessionStart, Setup, `) || !strings.HasSuffix(errs, "SessionEnd); did you mean Stop?\n") {
		t.Errorf("claude, \"Stop \": exit %d, stderr %q", code, errs)
	}
	for _, cmd := range [][]string{{"list"}, {"explain"}} {
		if code, out, errs := e.hookside(t, "", append(append([]string{"hooks"}, cmd...), "--profile", "claude", "--claude-home", claudeHome, "--event", "Notification")...); code != exitOK {
			t.Errorf("%s --profile claude --event Notification: exit %d, stdout %q, stderr %q", cmd[0], code, out, errs)
		}
	}
}
