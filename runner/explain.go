package runner

import (
	"fmt"
	"strings"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/matcher"
	"github.com/hookside/hookside/runner/config"
	"github.com/hookside/hookside/truststore"
)

// Why a configured hook would not run (ExplainEntry.Reason).
const (
	WhyWrongEvent        = "wrong_event"          // declared for another event
	WhyEventNotInProfile = "event_not_in_profile" // the profile has no such event (spark: four events)
	WhyMatcher           = "matcher"              // its matcher does not match the tool
	WhyDisabled          = config.ReasonDisabled
	WhyRootSwitchOff     = config.ReasonRootSwitchOff
	WhyFileDisabled      = config.ReasonFileDisabled
	WhyAdmission         = "admission"   // workspace hook not admitted (see TrustState)
	WhyLimit             = "limit"       // dropped: over a spark limit
	WhyInvalid           = "invalid"     // dropped: malformed declaration
	WhyUnsupported       = "unsupported" // dropped: unsupported handler type or event
)

// ExplainEntry is one configured declaration and whether it would run.
type ExplainEntry struct {
	ID           string        `json:"id,omitempty"`
	Event        string        `json:"event"`
	Source       ExplainSource `json:"source"`
	Matcher      *string       `json:"matcher"`
	MatcherIndex int           `json:"matcherIndex"`
	HookIndex    int           `json:"hookIndex"`
	Type         string        `json:"type,omitempty"`
	Command      string        `json:"command,omitempty"`
	Args         []string      `json:"args,omitempty"`
	TimeoutMs    int           `json:"timeoutMs,omitempty"`
	Parallel     bool          `json:"parallel,omitempty"`
	// WouldRun: the hook would start for this event and tool right now
	// (workspace hooks: admitted by the trust gate at this moment).
	WouldRun bool `json:"wouldRun"`
	// Order is the 1-based start position among the hooks that would run.
	Order int `json:"order,omitempty"`
	// Reason is one of the Why* codes when WouldRun is false.
	Reason string `json:"reason,omitempty"`
	// Detail explains Reason (or notes something, e.g. an ignored matcher).
	Detail     string `json:"detail,omitempty"`
	TrustState string `json:"trustState,omitempty"`
	Digest     string `json:"digest,omitempty"`
}

// ExplainSource locates a declaration.
type ExplainSource struct {
	Kind string `json:"kind"`
	Path string `json:"path"`
	Name string `json:"name,omitempty"`
	// At is "path:line:col" for dropped declarations.
	At string `json:"at,omitempty"`
}

// Explanation is the answer of Explain.
type Explanation struct {
	Profile     string            `json:"profile"`
	Event       string            `json:"event"`
	Tool        string            `json:"tool,omitempty"`
	Hooks       []ExplainEntry    `json:"hooks"`
	Diagnostics []hook.Diagnostic `json:"diagnostics"`
}

// Explain lists every declaration of every source — running ones in run
// order, then loaded ones a switch keeps off, then the ones dropped while
// parsing — and says whether each would run for event with tool as the
// matcher value (the tool name on tool events, the source on SessionStart;
// "" = matchers are not consulted, as hooks/run does without a tool name),
// and why not. It re-reads changed files first and asks the trust gate
// about workspace hooks, without running anything. Internal hooks are not
// listed.
func (s *Session) Explain(event, tool string) Explanation {
	s.reload()
	return s.ExplainEach([]string{event}, tool)[0]
}

// ExplainEach is Explain for each of events (the result in the same
// order), against the configuration as the session last read it (Hooks,
// Explain, WorkspaceStatus re-read the changed files; ExplainEach does
// not): one reading and one trust evaluation for any number of events, so
// a command that has just listed the hooks explains them without reading
// its files again.
func (s *Session) ExplainEach(events []string, tool string) []Explanation {
	s.mu.Lock()
	set, ws, found := s.set, s.ws, s.found
	s.mu.Unlock()
	evs := s.gate.Evaluate(ws.Declarations)
	byID := make(map[string]int, len(ws.Declarations))
	for i, d := range ws.Declarations {
		byID[d.Hook.ID] = i
	}
	out := make([]Explanation, len(events))
	for i, event := range events {
		out[i] = s.explain(set, ws, found, evs, byID, event, tool)
	}
	return out
}

// explain is ExplainEach for one event.
func (s *Session) explain(set *config.Set, ws *truststore.Workspace, found *config.Workspace, evs []truststore.Evaluation, byID map[string]int, event, tool string) Explanation {
	value := ""
	switch event {
	case hook.PreToolUse, hook.PermissionRequest, hook.PostToolUse, hook.PostToolUseFailure, hook.SessionStart:
		value = tool
	}
	x := Explanation{Profile: s.opts.Profile, Event: event, Tool: tool, Hooks: []ExplainEntry{}}
	x.Diagnostics = append(append([]hook.Diagnostic{}, set.Diagnostics...), found.Diagnostics...)

	workspace := func(e *ExplainEntry, id string) (truststore.Evaluation, bool) {
		i, ok := byID[id]
		if !ok {
			return truststore.Evaluation{}, false
		}
		e.Digest, e.TrustState = ws.Declarations[i].Digest, string(evs[i].State)
		return evs[i], true
	}
	// applicable sets Reason when h cannot run for event/value.
	applicable := func(e *ExplainEntry, h *hook.Hook) bool {
		switch {
		case h.Event != event:
			e.Reason, e.Detail = WhyWrongEvent, "declared for "+h.Event
		case !s.dialect.HasEvent(event):
			e.Reason, e.Detail = WhyEventNotInProfile, "the "+s.dialect.Name+" profile has only "+strings.Join(s.dialect.Events, ", ")
		case h.Matcher != nil && !s.dialect.MatcherApplies(event):
			e.Detail = "matcher ignored: " + s.dialect.Name + " applies matchers to " + strings.Join(s.dialect.MatcherEvents, " and ") + " only"
			return true
		case value != "" && h.Matcher != nil:
			m, err := matcher.Compile(h.Matcher)
			if err != nil {
				e.Reason, e.Detail = WhyMatcher, fmt.Sprintf("matcher %q is invalid and matches nothing", *h.Matcher)
				return false
			}
			if !m.Match(value) {
				e.Reason, e.Detail = WhyMatcher, fmt.Sprintf("matcher %q does not match %q", *h.Matcher, value)
				return false
			}
			return true
		default:
			return true
		}
		return false
	}

	order := 0
	for i := range set.Hooks {
		h := &set.Hooks[i]
		if h.Source.Kind == hook.SourceInternal {
			continue
		}
		e := entryOf(h)
		ev, isWS := workspace(&e, h.ID)
		if applicable(&e, h) {
			if isWS && !ev.Runnable() {
				e.Reason = WhyAdmission
				e.Detail = admissionDetail(ev)
			} else {
				order++
				e.WouldRun, e.Order = true, order
				if err := s.processProblem(h); err != nil { // as the run would find it
					e.Detail = "fails without starting: " + err.Error()
				} else if err := s.commandScriptProblem(h); err != nil {
					e.Detail = "runs, then fails: " + err.Error()
				} else if err := s.scriptCRLFProblem(h); err != nil {
					e.Detail = err.(*scriptCRLF).explainDetail()
				}
			}
		}
		x.Hooks = append(x.Hooks, e)
	}
	for _, ih := range set.Inactive {
		e := entryOf(&ih.Hook)
		if applicable(&e, &ih.Hook) {
			e.Reason, e.Detail = ih.Reason, switchDetail(ih.Reason)
		}
		x.Hooks = append(x.Hooks, e)
	}
	for i, d := range ws.Declarations {
		if ws.Enabled[i] {
			continue
		}
		h := d.Hook
		e := entryOf(&h)
		workspace(&e, h.ID)
		if applicable(&e, &h) {
			reason := offReason(&h, found)
			e.Reason, e.Detail = reason, switchDetail(reason)
		}
		x.Hooks = append(x.Hooks, e)
	}
	rejected := append(append([]config.Rejected{}, set.Rejected...), found.Rejected...)
	for _, r := range rejected {
		e := ExplainEntry{
			Event: r.Event, Source: ExplainSource{Kind: string(r.Kind), Path: r.Path, At: r.Source},
			MatcherIndex: r.MatcherIndex, HookIndex: r.HookIndex, Matcher: r.Matcher, Command: r.Command, Detail: r.Message,
		}
		switch r.Code {
		case hook.CodeSparkLimit:
			e.Reason = WhyLimit
		case hook.CodeSparkUnsupportedType, hook.CodeSparkUnsupportedEvent, hook.CodePluginUnsupportedType,
			hook.CodePluginUnsupportedEvent:
			e.Reason = WhyUnsupported
		default:
			e.Reason = WhyInvalid
		}
		x.Hooks = append(x.Hooks, e)
	}
	return x
}

func entryOf(h *hook.Hook) ExplainEntry {
	return ExplainEntry{
		ID: h.ID, Event: h.Event,
		Source:  ExplainSource{Kind: string(h.Source.Kind), Path: h.Source.Path, Name: h.Source.Name},
		Matcher: h.Matcher, MatcherIndex: h.MatcherIndex, HookIndex: h.HookIndex,
		Type: string(h.Type), Command: h.Command, Args: h.Args, TimeoutMs: h.TimeoutMs, Parallel: h.Parallel,
	}
}

func switchDetail(reason string) string {
	switch reason {
	case WhyDisabled:
		return `the declaration says "enabled": false`
	case WhyRootSwitchOff:
		return `hooks are off: the user config does not say "hooks": {"enabled": true}`
	case WhyFileDisabled:
		return `its file says "hooks": {"enabled": false}`
	}
	return ""
}

// admissionDetail is Explanation's Detail for a workspace hook ev does not
// admit: "workspace hook not admitted: <state>", then " (<reason>)" when
// the reason says more than the state.
func admissionDetail(ev truststore.Evaluation) string {
	d := "workspace hook not admitted: " + string(ev.State)
	if ev.Reason != "" && ev.Reason != string(ev.State) {
		d += " (" + ev.Reason + ")"
	}
	return d
}
