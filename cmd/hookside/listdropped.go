package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/runner"
	"github.com/hookside/hookside/runner/config"
)

// cannotRun are the configured declarations that `hooks list` does not
// list because they cannot run (runner.Explain entries whose reason is
// runner.WhyInvalid, WhyUnsupported, WhyLimit, WhyDisabled or
// WhyFileDisabled: a handler type the profile cannot run, a malformed
// declaration, one over a spark limit, a disabled one), for event only
// when it is not "". xs are the session's explanations of
// explainedEvents(event), as `hooks list` has them from its one
// runner.Session.ExplainEach: a switched-off declaration is disabled or
// file_disabled only in its own event's explanation (wrong_event in the
// others), so those come from every explanation, in event order; a dropped
// one is listed in every event's, so those come from the first. The
// diagnostics printed before name each dropped one.
func cannotRun(xs []runner.Explanation, event string) []runner.ExplainEntry {
	var off, dropped []runner.ExplainEntry
	for i, x := range xs {
		for _, e := range x.Hooks {
			if event != "" && e.Event != event {
				continue
			}
			switch e.Reason {
			case runner.WhyDisabled, runner.WhyFileDisabled:
				off = append(off, e)
			case runner.WhyInvalid, runner.WhyUnsupported, runner.WhyLimit:
				if i == 0 {
					dropped = append(dropped, e)
				}
			}
		}
	}
	return append(off, dropped...)
}

// printCannotRun prints how many configured hooks cannot run — in place
// of "no hooks configured" when none runs ("no hooks run: N configured
// hook(s) cannot run"), after the list when others do ("N more configured
// hook(s) cannot run and are not listed:") — and, one a line, each one's
// event, source kind, location and why ("Stop  user  config.json:1:62
// [0][0]  invalid — hook type "prompt" does not run in hookside files …"),
// then where to learn more (hooks explain, with eventFlag: " --event
// EVENT", or "" for the first entry's event, then hint: the flags of the
// list that select its configuration and workspace, hintFlags).
func printCannotRun(w io.Writer, entries []runner.ExplainEntry, othersRun bool, eventFlag, hint string, events []string) {
	if othersRun {
		fmt.Fprintf(w, "%d more configured hook(s) cannot run and are not listed:\n", len(entries))
	} else {
		fmt.Fprintf(w, "no hooks run: %d configured hook(s) cannot run\n", len(entries))
	}
	for _, e := range entries {
		where := e.Source.Path
		if e.Source.At != "" {
			where = e.Source.At
		}
		idx := ""
		if e.MatcherIndex >= 0 {
			idx = fmt.Sprintf(" [%d]", e.MatcherIndex)
			if e.HookIndex >= 0 {
				idx += fmt.Sprintf("[%d]", e.HookIndex)
			}
		}
		why := e.Reason
		if e.Detail != "" {
			why += " — " + e.Detail
		}
		fmt.Fprintf(w, "  %-18s %-9s %s%s  %s\n", e.Event, e.Source.Kind, dispText(where), idx, dispText(why))
	}
	if eventFlag == "" {
		eventFlag = explainEventFlag(entries, events)
	}
	if eventFlag == "" { // no event explain accepts: the lines above are all it would say
		fmt.Fprintln(w, "The diagnostics above say more.")
		return
	}
	fmt.Fprintf(w, "The diagnostics above say more; hookside hooks explain%s%s shows every hook and why it would not run.\n", eventFlag, hint)
}

// eventFlagOf is " --event EVENT" for a given event, "" for none.
// explainEventFlag is the " --event EVENT" of the hooks explain hint for
// entries: the first entry's event that is one of events (the profile's:
// what --event accepts), else the event a misspelt one resembles
// (config.SuggestEvent: "PreToolUSE" names PreToolUse), else "" (no hint:
// explain needs an --event) — never a value --event refuses.
func explainEventFlag(entries []runner.ExplainEntry, events []string) string {
	for _, e := range entries {
		if slices.Contains(events, e.Event) {
			return " --event " + e.Event
		}
	}
	for _, e := range entries {
		if s := config.SuggestEvent(e.Event, events); s != "" {
			return " --event " + s
		}
	}
	return ""
}

func eventFlagOf(event string) string {
	if event == "" {
		return ""
	}
	return " --event " + event
}

// cannotRunHook is one entry of `hooks list --json`'s cannotRun: a
// configured declaration that is not listed because it cannot run, with
// `hooks explain`'s reason (invalid, unsupported, limit, disabled,
// file_disabled) and detail. source.at is "file:line:col" of a dropped
// one; matcherIndex/hookIndex are -1 when it has none.
type cannotRunHook struct {
	Event        string               `json:"event"`
	Source       runner.ExplainSource `json:"source"`
	MatcherIndex int                  `json:"matcherIndex"`
	HookIndex    int                  `json:"hookIndex"`
	Matcher      *string              `json:"matcher,omitempty"`
	Type         string               `json:"type,omitempty"`
	Command      string               `json:"command,omitempty"`
	Reason       string               `json:"reason"`
	Detail       string               `json:"detail,omitempty"`
}

// cannotRunJSON is entries as cannotRun of `hooks list --json` ([] when
// none).
func cannotRunJSON(entries []runner.ExplainEntry) []cannotRunHook {
	out := make([]cannotRunHook, 0, len(entries))
	for _, e := range entries {
		out = append(out, cannotRunHook{Event: e.Event, Source: e.Source, MatcherIndex: e.MatcherIndex, HookIndex: e.HookIndex,
			Matcher: e.Matcher, Type: e.Type, Command: e.Command, Reason: e.Reason, Detail: e.Detail})
	}
	return out
}

// unreadableFiles counts the configuration files diags say could not be
// read, parsed or loaded (config_parse_error, config_read_error,
// config_too_many_hooks, and config_invalid_field "top-level value must be
// an object": a file that is JSON but not a configuration; one per file):
// files whose hooks, if any, are unknown and do not run.
func unreadableFiles(diags []hook.Diagnostic) int {
	n := 0
	for _, d := range diags {
		switch {
		case d.Code == hook.CodeParseError || d.Code == hook.CodeReadError || d.Code == hook.CodeTooManyHooks,
			d.Code == hook.CodeInvalidField && strings.HasPrefix(d.Message, config.NotAnObject):
			n++
		}
	}
	return n
}

// unloadedDeclarations counts the error diagnostics of diags that drop
// declared hooks while the rest of their file loads (config_invalid_hook:
// an event's value that is not an array of matcher groups, a malformed
// group or hook; config_invalid_matcher and config_unknown_event at error
// severity; config_invalid_field on the "hooks" or "hooks.events" value
// itself: "hooks.events must be an object"): hooks are declared there, so
// "no hooks configured" would be wrong. With event ("" = every event), a
// diagnostic about another event's hooks (its message begins with that
// event's name: "Stop[0][0]: …") is not counted.
func unloadedDeclarations(diags []hook.Diagnostic, event string) int {
	n := 0
	for _, d := range diags {
		if other := messageEvent(d.Message); event != "" && other != "" && other != event {
			continue
		}
		switch d.Code {
		case hook.CodeInvalidHook, hook.CodeInvalidMatcher, hook.CodeUnknownEvent:
			if d.Severity == hook.SeverityError {
				n++
			}
		case hook.CodeInvalidField:
			if strings.HasPrefix(d.Message, "hooks.events ") || strings.HasPrefix(d.Message, "hooks must") {
				n++
			}
		}
	}
	return n
}

// messageEvent is the event a diagnostic message begins with ("Stop" of
// "Stop[0][0]: missing command", "PreToolUse must be an array …"), or ""
// when its first word is no event.
func messageEvent(msg string) string {
	end := strings.IndexAny(msg, " [:")
	if end < 0 {
		end = len(msg)
	}
	if name := msg[:end]; slices.Contains(hook.ClaudeEvents, name) {
		return name
	}
	return ""
}
