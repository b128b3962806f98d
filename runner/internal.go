package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/output"
)

// TypeInternal is the hook type of internal hooks: no process, a Go
// function of the host process (InternalHandler) named by the hook's
// Command.
const TypeInternal hook.HookType = "internal"

// InternalRequest is what an internal hook is asked.
type InternalRequest struct {
	SessionID string
	TurnID    string
	Event     string
	// Input is the host's hooks/run input (a JSON object).
	Input json.RawMessage
}

// InternalHandler runs an internal hook in-process (the session mailbox:
// lifecycle-hooks-and-workspace-trust §"插件钩子与工作区钩子", last part). It
// returns the hook's answer; an error makes the run failed and silent, like
// a failing process hook.
type InternalHandler func(ctx context.Context, req InternalRequest) (output.Answer, error)

// InternalHook returns the declaration of an internal hook on event, named
// name (the key of its SessionOptions.InternalHandlers entry). Internal
// hooks run after every other source and are private: no hook/started or
// hook/completed notifications, not in hooks/list unless asked, and not in
// the merged result's runs (lifecycle-hooks-and-workspace-trust
// §"钩子输出怎样进模型上下文": 内部钩子的事件对客户端不可见).
func InternalHook(name, event string, index int) hook.Hook {
	return hook.Hook{
		ID:     fmt.Sprintf("internal:%s#%s[%d]", name, event, index),
		Event:  event,
		Source: hook.Source{Kind: hook.SourceInternal, Name: name},
		Type:   TypeInternal, Command: name, HookIndex: index,
		TimeoutMs: 5000, MaxOutputBytes: hook.DefaultMaxOutputBytes,
	}
}

// runInternal runs an internal hook's handler within its timeout.
func (s *Session) runInternal(ctx context.Context, h *hook.Hook, raw json.RawMessage, sc stdinContext) output.Answer {
	handler := s.opts.InternalHandlers[h.Command]
	if handler == nil {
		return output.Answer{Outcome: output.OutcomeFailed, Error: "no handler for internal hook " + h.Command}
	}
	ctx, cancel := context.WithTimeout(ctx, time.Duration(h.TimeoutMs)*time.Millisecond)
	defer cancel()
	ans, err := handler(ctx, InternalRequest{SessionID: s.opts.ID, TurnID: sc.turnID, Event: sc.event, Input: raw})
	if err != nil {
		return output.Answer{Outcome: output.OutcomeFailed, Error: err.Error()}
	}
	if ans.Outcome == "" {
		ans.Outcome = output.OutcomeSucceeded
	}
	return ans
}
