package runner

import (
	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/output"
)

// deliverAsync hands a finished background hook's result to the session:
// it waits for the next reply (ClaudeMerged.AsyncResults), and an
// asyncRewake exit 2 also goes to SessionOptions.OnClaudeWake at once,
// with the handler's rewakeMessage before the hook's text and its
// rewakeSummary when the output gives none.
func (s *Session) deliverAsync(h *hook.Hook, event string, pr output.ProcessResult) {
	r := output.ClaudeAsync(event, h.AsyncRewake, pr)
	r.HookID, r.Event = h.ID, event
	if r.Wake {
		if h.RewakeMessage != "" {
			r.WakeText = h.RewakeMessage + "\n\n" + r.WakeText
		}
		if r.WakeSummary == "" {
			r.WakeSummary = h.RewakeSummary
		}
	}
	if len(r.AdditionalContext) == 0 && r.SystemMessage == "" && !r.Wake {
		return
	}
	s.claudeSt().addPending(r)
	if r.Wake && s.opts.OnClaudeWake != nil {
		s.opts.OnClaudeWake(r)
	}
}

// claudeLateAsync handles a command hook that printed Claude Code's runtime
// async marker ({"async": true, …} as its first stdout line,
// output.ClaudeAsyncMarker): the event gets no answer from it (outcome
// started_async) and its output is delivered as a background hook's, in
// asyncResults. hookside reads the marker when the hook has finished, so
// the hook still runs within its declared timeout and its result is
// already in the reply of the run that started it.
func (s *Session) claudeLateAsync(h *hook.Hook, event string, pr output.ProcessResult) output.ClaudeAnswer {
	s.deliverAsync(h, event, pr)
	return output.ClaudeAnswer{Outcome: output.OutcomeStartedAsync}
}
