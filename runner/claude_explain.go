package runner

import (
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/internal/jsonexact"
	"github.com/hookside/hookside/matcher"
)

// Why a claude-profile hook would not run, beyond the Why* codes of
// Explain.
const (
	WhyIf            = "if"             // its `if` rule does not match the tool call (or the event is not a tool event)
	WhyDuplicate     = "duplicate"      // an identical handler of another settings file runs instead
	WhyHooksDisabled = "hooks_disabled" // disableAllHooks / allowManagedHooksOnly
)

// ExplainClaude is Explain for a claude-profile session, given the event
// input Claude Code would send (snake_case; the matcher field, tool_name and
// tool_input are read): every declaration, whether it would run, and why
// not, applying what RunClaude applies — Claude Code's matcher syntax on
// the event's matcher field, disableAllHooks and allowManagedHooksOnly,
// the `if` rule (evaluated against tool_name / tool_input, with the rule
// in Detail either way) and the dedupe of identical settings-file
// handlers (Detail names the handler that runs instead). It runs nothing.
// Errors are *InputError: an input that is not an object, a tool_name
// present but not a string (toolNameError, as RunClaude refuses it; absent
// or "", the explanation is of a call with no tool), a bad cwd.
func (s *Session) ExplainClaude(event string, input json.RawMessage) (Explanation, error) {
	in := claudeInput{}
	if len(input) > 0 && string(input) != "null" {
		if err := jsonexact.Unmarshal(input, &in); err != nil || in == nil {
			return Explanation{}, &InputError{Reason: "must be a JSON object"}
		}
	}
	field, hasMatcher := s.dialect.MatcherField(event)
	value, isStr := in.str(field)
	if raw, present := in[field]; field == "tool_name" && present && !isStr && string(raw) != "null" {
		return Explanation{}, toolNameError(field, event, raw) // the run refuses it too
	}
	if event == hook.FileChanged {
		value = filepath.Base(value)
	}
	x := s.Explain(event, "")
	x.Tool = value
	set, _ := s.current()
	byID := make(map[string]*hook.Hook, len(set.Hooks))
	for i := range set.Hooks {
		byID[set.Hooks[i].ID] = &set.Hooks[i]
	}
	cwd, cwdOK, err := s.claudeRunCwd(in) // as the run resolves it (RunClaude)
	if err != nil {
		return x, err
	}
	sw := s.claudeSwitches()
	x.Diagnostics = append(sw.diagnostics(), x.Diagnostics...)
	cst := s.claudeSt()
	seen := map[string]string{}
	order := 0
	for i := range x.Hooks {
		e := &x.Hooks[i]
		h := byID[e.ID]
		if h == nil || h.Event != event || (e.Reason != "" && e.Reason != WhyAdmission) {
			continue
		}
		if h.Source.Kind == hook.SourceWorkspace && cwd != s.opts.Cwd {
			// Admitted where this run starts it, as the run asks.
			ev, ok := s.admitRun(h, cwd, cwdOK)
			e.TrustState = string(ev.State)
			e.WouldRun, e.Reason, e.Detail = ok, "", ""
			if !ok {
				e.Reason, e.Detail = WhyAdmission, admissionDetail(ev)
			}
		}
		stop := func(reason, detail string) {
			e.WouldRun, e.Order, e.Reason, e.Detail = false, 0, reason, detail
		}
		if p := s.claudePlugins[h.Source.PluginRoot]; p != nil && p.Workspace != "" && h.Source.Kind == hook.SourceWorkspace {
			// Why a plugin's hook needs trust: the repository picked it.
			note := "workspace hook: plugin " + p.ID + " is " + p.Workspace
			if e.Detail != "" {
				note = e.Detail + "; " + note
			}
			e.Detail = note
		}
		if hasMatcher && !cst.matcherMatches(event, h.Matcher, value) {
			if _, err := matcher.CompileRules(h.Matcher, matcher.ClaudeRulesFor(event)); err != nil {
				// As the zcode explain says it: config_invalid_matcher at load.
				stop(WhyMatcher, fmt.Sprintf("matcher %q is invalid and matches nothing", deref(h.Matcher)))
			} else {
				stop(WhyMatcher, fmt.Sprintf("matcher %q does not match %s %q", deref(h.Matcher), field, value))
			}
			continue
		}
		if s.keptOff(sw, h) {
			off, _ := sw.off()
			stop(WhyHooksDisabled, off.Detail)
			continue
		}
		if h.If != "" {
			if ok, why := claudeIfMatches(event, h.If, in, cwd, s.opts.Cwd); !ok {
				stop(WhyIf, why)
				continue
			}
			e.Detail = "if " + h.If + " matches this call"
		}
		if s.dialect.DedupeHandlers && !isPluginHook(h) {
			key := handlerKey(h)
			if first, dup := seen[key]; dup {
				stop(WhyDuplicate, "identical to "+first+", which runs instead")
				continue
			}
			seen[key] = h.ID
		}
		if e.WouldRun {
			order++
			e.Order = order
		}
	}
	return x, nil
}

// SwitchOff is a settings switch that keeps a loaded hook from running
// (SwitchedOff).
type SwitchOff struct {
	// Setting is the switch: "disableAllHooks" or "allowManagedHooksOnly".
	Setting string
	// File is the settings file whose value decides, as read.
	File string
	// Detail says it as `hooks explain` does for WhyHooksDisabled.
	Detail string
}

// SwitchedOff returns, by hook ID, the hooks of hooks (as Hooks returns
// them) that a settings switch keeps from running although they are
// loaded, with the switch: what RunClaude skips as ReasonHooksDisabled.
// Only the claude profile has such switches: disableAllHooks (in the
// managed settings it turns every hook off; in the user, project or local
// settings every hook but the managed ones and those of plugins the
// managed settings force on) and the managed settings'
// allowManagedHooksOnly (the same hooks). Nil when none is off; internal
// hooks never are. The settings files are read again when one changed.
func (s *Session) SwitchedOff(hooks []hook.Hook) map[string]SwitchOff {
	if s.dialect.Name != ProfileClaude {
		return nil
	}
	sw := s.claudeSwitches()
	off, on := sw.off()
	if !on {
		return nil
	}
	var out map[string]SwitchOff
	for i := range hooks {
		if s.keptOff(sw, &hooks[i]) {
			if out == nil {
				out = map[string]SwitchOff{}
			}
			out[hooks[i].ID] = off
		}
	}
	return out
}

// off is the switch of sw that keeps hooks from running (keptOff says
// which): the managed settings' disableAllHooks, else the file whose
// disableAllHooks decided (a workspace one named as such), else the
// managed settings' allowManagedHooksOnly. false when none is on.
func (sw claudeSwitches) off() (SwitchOff, bool) {
	const managedRun = "only managed hooks (and plugins the managed settings force on) run"
	switch {
	case sw.ManagedDisable:
		return SwitchOff{"disableAllHooks", sw.Managed, "disableAllHooks is true in the managed settings " + sw.Managed + ": no hook runs"}, true
	case sw.DisabledBy != "":
		return SwitchOff{"disableAllHooks", sw.DisabledBy, "disableAllHooks is true in " + sw.DisabledBy + ", a workspace settings file: " + managedRun}, true
	case sw.DisableAll:
		return SwitchOff{"disableAllHooks", sw.DisabledIn, "disableAllHooks is true in " + sw.DisabledIn + ": " + managedRun}, true
	case sw.ManagedOnly:
		return SwitchOff{"allowManagedHooksOnly", sw.Managed, "allowManagedHooksOnly is true in the managed settings " + sw.Managed + ": " + managedRun}, true
	}
	return SwitchOff{}, false
}

// keptOff reports whether sw's switch (off) keeps h from running: the
// managed disableAllHooks every hook, the other switches every hook but the
// managed ones and those of plugins the managed settings force on;
// internal hooks never.
func (s *Session) keptOff(sw claudeSwitches, h *hook.Hook) bool {
	switch {
	case h.Source.Kind == hook.SourceInternal:
		return false
	case sw.ManagedDisable:
		return true
	}
	return (sw.DisableAll || sw.ManagedOnly) && !isManaged(h) && !s.managedPlugin(h)
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
