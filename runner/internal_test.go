package runner

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/output"
)

type recObserver struct{ started, completed int }

func (o *recObserver) HookStarted(HookStart)  { o.started++ }
func (o *recObserver) HookCompleted(HookDone) { o.completed++ }

func TestInternalHookIsPrivateAndAddsContext(t *testing.T) {
	var got InternalRequest
	s, diags := NewSession(SessionOptions{
		ID: "s1", Cwd: t.TempDir(), UserConfigPath: t.TempDir() + "/none.json",
		Internal: []hook.Hook{InternalHook("mailbox", "UserPromptSubmit", 0)},
		InternalHandlers: map[string]InternalHandler{"mailbox": func(_ context.Context, req InternalRequest) (output.Answer, error) {
			got = req
			return output.Answer{AdditionalContext: []string{"message from lead: rebase first"}}, nil
		}},
	})
	defer s.Close()
	if len(diags) != 0 {
		t.Fatalf("diagnostics: %+v", diags)
	}
	obs := &recObserver{}
	m, err := s.Run(context.Background(), RunRequest{Event: "UserPromptSubmit", TurnID: "t1", Input: json.RawMessage(`{"prompt":"hi"}`)}, obs)
	if err != nil {
		t.Fatal(err)
	}
	if got.SessionID != "s1" || got.Event != "UserPromptSubmit" || string(got.Input) != `{"prompt":"hi"}` {
		t.Fatalf("handler got %+v", got)
	}
	if len(m.Runs) != 0 || obs.started+obs.completed != 0 {
		t.Fatalf("internal hook not private: runs %+v, notifications %d", m.Runs, obs.started+obs.completed)
	}
	if len(m.AdditionalContext) != 1 || m.ModelContext == nil {
		t.Fatalf("context not merged: %+v", m)
	}
}
