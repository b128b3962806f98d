package config

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hookside/hookside/internal/hook"
)

// UnknownEvent is the text of the error for an event name outside known
// (the events of the profile in use), the same for --event and hooks/run:
// `unknown event "Stop " (want one of A, B, …)`, name quoted as Go's %q
// does so whitespace and invisible characters show, then EventHint.
func UnknownEvent(name string, known []string) string {
	return fmt.Sprintf("unknown event %q (want one of %s)", name, strings.Join(known, ", ")) + EventHint(name, known)
}

// EventHint is "; did you mean X?" when name misspells the event X of
// known (SuggestEvent), else "": the tail of every unknown-event message
// (config files, --event, hooks/run).
func EventHint(name string, known []string) string {
	if s := SuggestEvent(name, known); s != "" {
		return "; did you mean " + s + "?"
	}
	return ""
}

// SuggestEvent returns the event of known that name most likely
// misspells ("PreToolUSE" → "PreToolUse": equal ignoring case and
// surrounding whitespace, "Stop " → "Stop", else within a small edit
// distance, as suggestKey), or "" — also when name, without surrounding
// whitespace, is a real event of another profile (hook.ClaudeEvents),
// which is not a typo. The config files' unknown events and the command
// line's --event use it.
func SuggestEvent(name string, known []string) string {
	if t := strings.TrimSpace(name); slices.Contains(hook.ClaudeEvents, t) && !slices.Contains(known, t) {
		return ""
	}
	return matchEvent(name, known)
}

// matchEvent is the event of events that name is, or most likely
// misspells: name without surrounding whitespace, when that is one of
// events, else suggestKey of it (equal ignoring case, or a small edit
// distance), else suggestKey of name itself (whitespace counting as
// edits); "" for none.
func matchEvent(name string, events []string) string {
	t := strings.TrimSpace(name)
	if slices.Contains(events, t) {
		return t
	}
	if t != "" {
		if s := suggestKey(t, events); s != "" {
			return s
		}
	}
	return suggestKey(name, events)
}
