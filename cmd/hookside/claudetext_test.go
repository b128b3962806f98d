package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestClaudeRunTextShowsAnswer: the claude-profile text output of hooks run
// shows what the hooks answered beyond the decision — updatedInput (of
// PreToolUse and of a PermissionRequest decision), systemMessage,
// sessionTitle — redacted as the rest of the text is.
func TestClaudeRunTextShowsAnswer(t *testing.T) {
	e := newCLIEnv(t)
	ch := filepath.Join(e.root, "claudehome")
	in := filepath.Join(e.root, "in.json")
	writeFiles(t, map[string]string{
		filepath.Join(ch, "settings.json"): `{"hooks":{
"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"echo '{\"systemMessage\":\"rewrote it\",\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"allow\",\"updatedInput\":{\"command\":\"ls -la\",\"env\":\"token=abcd1234secret\"}}}'"}]}],
"PermissionRequest":[{"hooks":[{"type":"command","command":"echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PermissionRequest\",\"decision\":{\"behavior\":\"allow\",\"updatedInput\":{\"command\":\"ls -1\"}}}}'"}]}],
"SessionStart":[{"hooks":[{"type":"command","command":"echo '{\"hookSpecificOutput\":{\"hookEventName\":\"SessionStart\",\"sessionTitle\":\"fix the build\"}}'"}]}]}}`,
		in: `{"tool_name":"Bash","tool_input":{"command":"ls"}}`,
	})
	for _, tc := range []struct {
		event string
		want  []string
	}{
		{"PreToolUse", []string{"permissionDecision: allow\n", `updatedInput: {"command":"ls -la","env":"token=[REDACTED]"}` + "\n", "systemMessage: rewrote it\n"}},
		{"PermissionRequest", []string{"permission: allow\n", `permission updatedInput: {"command":"ls -1"}` + "\n"}},
		{"SessionStart", []string{"sessionTitle: fix the build\n"}},
	} {
		code, out, errs := e.hookside(t, "", "hooks", "run", "--profile", "claude", "--claude-home", ch, "--event", tc.event, "--input", in)
		if code != exitOK {
			t.Fatalf("%s: exit %d: %s", tc.event, code, errs)
		}
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: stdout lacks %q:\n%s", tc.event, w, out)
			}
		}
		if strings.Contains(out, "abcd1234secret") {
			t.Errorf("%s: a secret of the answer printed unredacted:\n%s", tc.event, out)
		}
	}
}

// TestClaudeExplainInputAsRun: hooks explain --profile claude reads its
// --input as hooks run does: a member named twice is refused (exit 1,
// its path and the position of the repeat), not explained with the last
// value.
func TestClaudeExplainInputAsRun(t *testing.T) {
	e := newCLIEnv(t)
	for in, want := range map[string]string{
		`{"tool_name":"Bash","tool_name":"Write"}`:                         `<stdin>:1:21: duplicate member "tool_name"`,
		`{"tool_input":{"x":{"command":1},"command":"ls","command":"rm"}}`: `<stdin>:1:49: duplicate member "tool_input.command"`,
	} {
		code, out, errs := e.hookside(t, in, "hooks", "explain", "--profile", "claude", "--event", "PreToolUse", "--input", "-")
		if code != exitError || out != "" || !strings.Contains(errs, want) {
			t.Errorf("%s: exit %d\nstdout %q\nstderr %q\nwant %q", in, code, out, errs, want)
		}
	}
}

// TestRunSummarySameInEveryProfile: the first line of `hooks run`'s text
// answer counts the hooks that ran and the ones skipped (an untrusted
// workspace hook) in the same words under the zcode and the claude
// profile.
func TestRunSummarySameInEveryProfile(t *testing.T) {
	e := newCLIEnv(t)
	ch := filepath.Join(e.root, "claudehome")
	in := filepath.Join(e.root, "in.json")
	group := `[{"matcher":"Bash","hooks":[{"type":"command","command":"true"}]}]`
	wsGroup := `[{"matcher":"Bash","hooks":[{"type":"command","command":"exit 0"}]}]`
	e.userConfig(t, map[string]any{"PreToolUse": []any{map[string]any{"matcher": "Bash",
		"hooks": []any{map[string]any{"type": "command", "command": "true"}}}}})
	writeFiles(t, map[string]string{
		filepath.Join(ch, "settings.json"):              `{"hooks":{"PreToolUse":` + group + `}}`,
		filepath.Join(e.ws, ".claude", "settings.json"): `{"hooks":{"PreToolUse":` + wsGroup + `}}`,
		filepath.Join(e.ws, "zcode.json"):               `{"hooks":{"events":{"PreToolUse":` + wsGroup + `}}}`,
		in:                                              `{"tool_name":"Bash","tool_input":{"command":"ls"}}`,
	})
	const want = "PreToolUse: 1 hook(s) ran, 1 skipped\n"
	for _, profile := range []string{"zcode", "claude"} {
		args := []string{"hooks", "run", "--profile", profile, "--event", "PreToolUse", "--input", in}
		if profile == "claude" {
			args = append(args, "--claude-home", ch) // a flag of the claude profile only
		}
		code, out, errs := e.hookside(t, "", args...)
		if code != exitOK || !strings.HasPrefix(out, want) {
			t.Errorf("%s: exit %d, stdout does not start with %q:\n%s\nstderr:\n%s", profile, code, want, out, errs)
		}
	}
}

// TestRunNotesMissingMatcherField: `hooks run --profile claude` whose
// input lacks the event's matcher field (source on SessionStart) notes on
// stderr how many hooks did not run for that reason and what to pass;
// with the field, or without a filtering matcher, it says nothing.
func TestRunNotesMissingMatcherField(t *testing.T) {
	e := newCLIEnv(t)
	ch := filepath.Join(e.root, "claudehome")
	writeFiles(t, map[string]string{filepath.Join(ch, "settings.json"): `{"hooks":{
		"SessionStart":[{"matcher":"startup","hooks":[{"type":"command","command":"true"}]},{"matcher":"*","hooks":[{"type":"command","command":"exit 0"}]}],
		"Stop":[{"hooks":[{"type":"command","command":"true"}]}]}}`})
	run := func(event, stdin string) (string, string) {
		args := []string{"hooks", "run", "--profile", "claude", "--claude-home", ch, "--event", event}
		if stdin != "" {
			args = append(args, "--input", "-")
		}
		code, out, errs := e.hookside(t, stdin, args...)
		if code != exitOK {
			t.Fatalf("%s %s: exit %d\n%s%s", event, stdin, code, out, errs)
		}
		return out, errs
	}
	out, errs := run("SessionStart", "")
	const want = `note: 1 SessionStart hook(s) did not run: their matcher is tested against the input's "source", which the input does not give; pass it with --input, e.g. {"source":"startup"} (Claude Code sends startup, resume, clear, compact)`
	if !strings.HasPrefix(out, "SessionStart: 1 hook(s) ran") || !strings.Contains(errs, want) {
		t.Errorf("no source: stdout %q, stderr %q, want %q", out, errs, want)
	}
	if out, errs := run("SessionStart", `{"source":"startup"}`); !strings.HasPrefix(out, "SessionStart: 2 hook(s) ran") || strings.Contains(errs, "note:") {
		t.Errorf("source given: stdout %q, stderr %q", out, errs)
	}
	if _, errs := run("Stop", ""); strings.Contains(errs, "note:") {
		t.Errorf("Stop has no matcher field: stderr %q", errs)
	}
}
