package main

import (
	"strings"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/runner"
	"github.com/hookside/hookside/runner/config"
)

// profileEvents are the --event values a command accepts with --profile
// profile: every Claude Code event (hook.ClaudeEvents) for claude, the
// seven shell-hook events (hook.Events) otherwise.
func profileEvents(profile string) []string {
	if profile == runner.ProfileClaude {
		return hook.ClaudeEvents
	}
	return hook.Events
}

// eventError is the usage error of an --event that is not one of events:
// "--event is required: one of A, B, …" when none was given, else `--event:
// unknown event "Stop " (want one of A, B, …)` with the value quoted as
// given and the hint of an unknown event in a config file or in hooks/run
// (config.UnknownEvent): "; did you mean Stop?" for a misspelling, ";
// Notification is a Claude Code event: use --profile claude" for an event
// of another profile.
func eventError(event string, events []string) string {
	if event == "" {
		return "--event is required: one of " + strings.Join(events, ", ")
	}
	return "--event: " + config.UnknownEvent(event, events, config.EventFlag)
}
