package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/runner"
)

// claudeMatcherValues are the values Claude Code gives the matcher field
// of an event whose values are a closed set
// (https://code.claude.com/docs/en/hooks#matcher-patterns), for the hint
// of printMatcherFieldMissing.
var claudeMatcherValues = map[string][]string{
	hook.SessionStart: {"startup", "resume", "clear", "compact"},
	hook.PreCompact:   {"manual", "auto"},
	hook.PostCompact:  {"manual", "auto"},
}

// printMatcherFieldMissing says, after a `hooks run --profile claude`
// whose input lacks the event's matcher field (source on SessionStart,
// trigger on PreCompact, …: hook.Dialect.MatcherField), how many hooks of
// the event did not run because their matcher was tested against "" —
// Claude Code always sends the field, so an input typed by hand that
// forgets it runs none of them, without a word otherwise. Nothing is
// printed when the field is there or no matcher filtered a hook out.
func printMatcherFieldMissing(w io.Writer, s *runner.Session, event string, in map[string]any) {
	field, ok := hook.Claude.MatcherField(event)
	if !ok || field == "tool_name" { // tool_name is required: RunClaude refused the input
		return
	}
	if v, isStr := in[field].(string); isStr && v != "" {
		return
	}
	x, err := s.ExplainClaude(event, nil)
	if err != nil {
		return
	}
	n := 0
	for _, e := range x.Hooks {
		if e.Reason == runner.WhyMatcher {
			n++
		}
	}
	if n == 0 {
		return
	}
	value, sends := "…", ""
	if vs := claudeMatcherValues[event]; len(vs) > 0 {
		value, sends = vs[0], " (Claude Code sends "+strings.Join(vs, ", ")+")"
	}
	eg := fmt.Sprintf(`{"%s":"%s"}%s`, field, value, sends)
	fmt.Fprintf(w, "hookside hooks run: note: %d %s hook(s) did not run: their matcher is tested against the input's %q, which the input does not give; pass it with --input, e.g. %s\n",
		n, event, field, eg)
}
