package config

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/internal/nearmiss"
)

// An EventPlace is where an event name was given: it words the remedy of
// the hint EventHint gives for an event of another profile.
type EventPlace int

const (
	// EventFlag is --event of hooks run, list and explain: the remedy is
	// the --profile flag.
	EventFlag EventPlace = iota
	// EventParam is hooks/run's event param: a session's profile is the
	// one session/open chose, so the remedy is session/open's "profile".
	EventParam
	// EventConfigKey is an event key of a hookside (zcode) config file:
	// the remedy is the other profile's files and how to choose it.
	EventConfigKey
	// EventPluginKey is an event key of a plugin's hooks.json, which every
	// profile reads: the remedy is how to choose the other profile.
	EventPluginKey
	// EventSettingsKey is an event key of a spark or Claude Code settings
	// file, which only its own profile reads: a misspelling is named, an
	// event of another profile is not.
	EventSettingsKey
)

// eventProfile is a profile whose events another profile lacks, as the
// hint for one of them names it.
type eventProfile struct {
	name   string   // the --profile / session/open value
	label  string   // "X is a <label> event"
	events []string // the events a session of the profile runs
	files  string   // where its hooks are declared, for EventConfigKey
}

// eventProfiles are the profiles an event name may belong to when the
// current one lacks it, the first that has it named: zcode (the seven
// events, which spark sessions run too) and claude (hook.ClaudeEvents).
// Every zcode event is a Claude Code event, so a claude session never
// gets the zcode hint; the lookup stays general in case one is not.
var eventProfiles = []eventProfile{
	{name: "zcode", label: "zcode", events: hook.Events,
		files: "a hookside config file (~/.hookside/config.json, zcode.json or .zcode/config.json)"},
	{name: "claude", label: "Claude Code", events: hook.ClaudeEvents,
		files: "Claude Code's settings (~/.claude/settings.json or .claude/settings.json)"},
}

// UnknownEvent is the text of the error for an event name outside known
// (the events of the profile in use), the same for --event and hooks/run:
// `unknown event "Stop " (want one of A, B, …)`, name quoted as Go's %q
// does so whitespace and invisible characters show, then EventHint.
func UnknownEvent(name string, known []string, at EventPlace) string {
	return fmt.Sprintf("unknown event %q (want one of %s)", name, strings.Join(known, ", ")) + EventHint(name, known, at)
}

// EventHint is the tail of every unknown-event message (config files,
// --event, hooks/run), "" when there is nothing to add:
//   - "; did you mean X?" when name misspells the event X of known
//     (SuggestEvent);
//   - "; X is a Claude Code event: REMEDY" when name is, or misspells
//     ("; did you mean X? X is …"), an event X of another profile
//     (eventProfiles) that known lacks; REMEDY depends on at: "use
//     --profile claude" (EventFlag), `open the session with "profile":
//     "claude" in session/open` (EventParam), where that profile's hooks
//     are declared (EventConfigKey) or how to choose it (EventPluginKey);
//     EventSettingsKey gets no such hint.
func EventHint(name string, known []string, at EventPlace) string {
	if s := SuggestEvent(name, known); s != "" {
		return "; did you mean " + s + "?"
	}
	if at == EventSettingsKey {
		return ""
	}
	// An exact name (without surrounding whitespace) first, so that a
	// real event of one profile is never taken for a misspelling of an
	// event of another.
	t := strings.TrimSpace(name)
	for _, fuzzy := range []bool{false, true} {
		for _, p := range eventProfiles {
			e := t
			if fuzzy {
				e = matchEvent(name, p.events)
			} else if !slices.Contains(p.events, t) {
				continue
			}
			if e == "" || slices.Contains(known, e) {
				continue
			}
			hint := "; "
			if e != name {
				hint += "did you mean " + e + "? "
			}
			return hint + e + " is a " + p.label + " event: " + p.remedy(at)
		}
	}
	return ""
}

// remedy says how to run an event of profile p given at at.
func (p eventProfile) remedy(at EventPlace) string {
	choose := fmt.Sprintf(`--profile %s, or "profile": %q in session/open`, p.name, p.name)
	switch at {
	case EventParam:
		return fmt.Sprintf(`open the session with "profile": %q in session/open`, p.name)
	case EventConfigKey:
		return "declare it in " + p.files + " and use the " + p.name + " profile (" + choose + ")"
	case EventPluginKey:
		return "it runs under the " + p.name + " profile (" + choose + ")"
	}
	return "use --profile " + p.name
}

// SuggestEvent returns the event of known that name most likely
// misspells ("PreToolUSE" → "PreToolUse": equal ignoring case and
// surrounding whitespace, "Stop " → "Stop", else within a small edit
// distance, as nearmiss.Suggest), or "" — also when name, without surrounding
// whitespace, is a real event of another profile (eventProfiles),
// which is not a typo (EventHint names its profile instead). The config
// files' unknown events and the command line's --event use it.
func SuggestEvent(name string, known []string) string {
	t := strings.TrimSpace(name)
	for _, p := range eventProfiles {
		if slices.Contains(p.events, t) && !slices.Contains(known, t) {
			return ""
		}
	}
	return matchEvent(name, known)
}

// matchEvent is the event of events that name is, or most likely
// misspells: name without surrounding whitespace, when that is one of
// events, else nearmiss.Suggest of it (equal ignoring case, or a small edit
// distance), else nearmiss.Suggest of name itself (whitespace counting as
// edits); "" for none.
func matchEvent(name string, events []string) string {
	t := strings.TrimSpace(name)
	if slices.Contains(events, t) {
		return t
	}
	if t != "" {
		if s := nearmiss.Suggest(t, events); s != "" {
			return s
		}
	}
	return nearmiss.Suggest(name, events)
}
