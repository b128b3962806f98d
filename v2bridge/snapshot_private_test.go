package v2bridge

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookside/hookside/v2bridge/store"
)

// A run's execution snapshot keeps the unredacted envelope only while the
// worker needs it: at the terminal state it is dropped (succeeded, skipped
// at dispatch), and a manual retry reads the envelope back from the event.
func TestTerminalRunsDropTheEnvelopeAndRetryReadsTheEvent(t *testing.T) {
	b := openBridge(t, t.TempDir(), nil)
	var mu sync.Mutex
	fail := true
	h := toolHost("read", "1", "none", func(json.RawMessage) (any, error) {
		mu.Lock()
		defer mu.Unlock()
		if fail {
			fail = false
			return map[string]any{"ok": false, "message": "nope"}, nil
		}
		return map[string]any{"ok": true}, nil
	})
	b.AttachHost(h, []string{"tool"})
	mkDef(t, b, strings.Replace(toolDef, "%s", `,"condition":{"op":"contains","left":{"path":"payload.response.finalText"},"right":{"const":"secret"}}`, 1), true)

	private := func(r store.Run) {
		t.Helper()
		got, err := b.DB().GetRun(bg, r.ID)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(got.Execution), "the-secret-text") || strings.Contains(string(got.Execution), `"envelope"`) {
			t.Fatalf("%s run keeps the envelope: %s", got.Status, got.Execution)
		}
		if !strings.Contains(string(got.Execution), `"action"`) {
			t.Fatalf("snapshot lost the action: %s", got.Execution)
		}
	}
	skipped := waitStatus(t, b, emitResponse(t, b, "m0", "no match here").EventID, store.RunSkipped, 5*time.Second)
	private(skipped)

	res := emitResponse(t, b, "m1", "the-secret-text")
	r := waitStatus(t, b, res.EventID, store.RunFailed, 5*time.Second)
	private(r)
	if _, err := b.RetryRun(bg, r.ID); err != nil {
		t.Fatal(err)
	}
	r = waitStatus(t, b, res.EventID, store.RunSucceeded, 5*time.Second)
	private(r)
	var inv toolInvokeParams
	h.mu.Lock()
	for _, c := range h.calls {
		if c.Method == MethodToolInvoke {
			_ = json.Unmarshal(c.Params, &inv)
		}
	}
	h.mu.Unlock()
	if inv.Input["text"] != "the-secret-text" {
		t.Fatalf("retry did not get the event's envelope: %+v", inv)
	}
}
