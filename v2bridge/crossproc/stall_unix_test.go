//go:build unix

package crossproc

import (
	"encoding/json"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// A real stall longer than the run lease: the app-server is SIGSTOPped for
// 3 s (lease 1.5 s) while its host holds host/tool/invoke for 5 s. After
// SIGCONT the process renews its own in-flight run before sweeping, so the
// run is not made outcome_unknown nor cancelled, and the answer that then
// arrives is recorded succeeded (hooks-v2-handbook §9.4).
func TestStallLongerThanLeaseKeepsOwnRunAlive(t *testing.T) {
	if testing.Short() {
		t.Skip("stalls the server for 3 s")
	}
	var invokes atomic.Int32
	invoked := make(chan struct{}, 1)
	answer := make(chan struct{})
	s := startAppServerWith(t, t.TempDir(), []string{"HOOKSIDE_V2_RUN_LEASE_MS=1500"}, []string{"tool"}, nil,
		func(method string, _ json.RawMessage) any {
			switch method {
			case "host/tool/resolve":
				return map[string]any{"found": true, "version": "1", "riskLevel": "read", "idempotency": "none"}
			case "host/tool/invoke":
				invokes.Add(1)
				invoked <- struct{}{}
				<-answer
				return map[string]any{"ok": true}
			}
			return nil
		})
	var def struct {
		Definition struct {
			ID string `json:"id"`
		} `json:"definition"`
	}
	raw := s.call(t, "v2/definitions/create", map[string]any{"definition": map[string]any{"name": "t", "eventName": "turn.failed",
		"action": map[string]any{"type": "tool", "target": map[string]any{"sourceKind": "connector", "sourceId": "s", "toolName": "t"}}}})
	if err := json.Unmarshal(raw, &def); err != nil || def.Definition.ID == "" {
		t.Fatalf("%s %v", raw, err)
	}
	s.call(t, "v2/bindings/create", map[string]any{"hookId": def.Definition.ID, "scopeKind": "application"})
	s.call(t, "v2/events/emit", map[string]any{"eventName": "turn.failed", "session": map[string]any{"id": "s1"},
		"turn": map[string]any{"id": "t1"}, "workspaces": []any{}, "payload": map[string]any{"message": "m"}})
	select {
	case <-invoked:
	case <-time.After(10 * time.Second):
		t.Fatal("host/tool/invoke never arrived")
	}
	pid := s.cmd.Process.Pid
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	time.Sleep(3 * time.Second) // the stall: twice the lease
	if err := syscall.Kill(pid, syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	// The host answers 2 s after the process resumed (5 s after the call).
	time.AfterFunc(2*time.Second, func() { close(answer) })
	deadline := time.After(20 * time.Second)
	for {
		select {
		case p := <-s.runs:
			var u struct {
				Run struct {
					Status       string `json:"status"`
					ErrorMessage string `json:"errorMessage"`
				} `json:"run"`
			}
			_ = json.Unmarshal(p, &u)
			switch u.Run.Status {
			case "succeeded":
				if n := invokes.Load(); n != 1 {
					t.Fatalf("%d invokes", n)
				}
				return
			case "outcome_unknown", "failed", "cancelled", "blocked":
				t.Fatalf("the stalled process's own run became %s: %s", u.Run.Status, u.Run.ErrorMessage)
			}
		case <-deadline:
			t.Fatal("the run never finished")
		}
	}
}
