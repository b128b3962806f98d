package v2bridge

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookside/hookside/v2bridge/store"
)

type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuf) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// A panic in the pipeline before the action is sent (here: the tool
// resolution) is recovered and logged, and the run is re-queued after a
// fixed 60 s as transient_failure although the retry mode is unsafe (§10.3);
// the process keeps serving other runs, and the re-queued run later succeeds.
func TestPipelinePanicRequeuesAfterFixed60s(t *testing.T) {
	clk := newFakeClock()
	logs := &syncBuf{}
	b := openBridge(t, t.TempDir(), func(o *Options) {
		o.Store.Now = clk.Now
		o.Logger = slog.New(slog.NewTextHandler(logs, nil))
		o.MaintenanceInterval = time.Hour
	})
	var mu sync.Mutex
	panics := 1
	h := newFakeHost()
	h.on(MethodToolResolve, func(json.RawMessage) (any, error) {
		mu.Lock()
		defer mu.Unlock()
		if panics > 0 {
			panics--
			panic("resolver exploded")
		}
		return map[string]any{"found": true, "version": "1", "riskLevel": "read", "idempotency": "none"}, nil
	})
	h.on(MethodToolInvoke, answer(map[string]any{"ok": true}))
	h.on(MethodSoundPlay, answer(map[string]any{"played": true}))
	b.AttachHost(h, []string{"tool", "sound"})
	mkDef(t, b, strings.Replace(toolDef, "%s", "", 1), true) // retry mode unsafe (default)
	mkDef(t, b, `{"name":"s","eventName":"turn.completed","action":{"type":"sound"}}`, true)

	res := emitResponse(t, b, "m1", "x")
	r := waitRuns(t, b, res.EventID, 5*time.Second, func(rs []store.Run) bool {
		return len(rs) == 1 && rs[0].Status == store.RunQueued && rs[0].AttemptCount == 1
	})[0]
	if r.ErrorCode != CodeTransientFailure || !strings.Contains(r.ErrorMessage, "panic: resolver exploded") {
		t.Fatalf("%s", dump(r))
	}
	if got := r.NextAttemptAt.Sub(clk.Now()); got != 60*time.Second {
		t.Fatalf("re-queued after %v, want exactly 60s", got)
	}
	if !strings.Contains(logs.String(), "panic recovered") || !strings.Contains(logs.String(), "resolver exploded") {
		t.Fatalf("panic not logged: %s", logs.String())
	}
	// Still serving.
	waitStatus(t, b, emitTurn(t, b, "turn.completed", "t1", nil).EventID, store.RunSucceeded, 5*time.Second)
	clk.Add(60 * time.Second)
	b.workerWake.kick()
	if r := waitStatus(t, b, res.EventID, store.RunSucceeded, 5*time.Second); r.AttemptCount != 2 || h.count(MethodToolInvoke) != 1 {
		t.Fatalf("%s", dump(r))
	}
}

// A panic after the action was sent is recovered and recorded
// outcome_unknown (it may have happened: never re-sent); a panicking run
// update callback does not stop the notifier.
func TestActionPanicIsRecordedAndProcessKeepsServing(t *testing.T) {
	var mu sync.Mutex
	updates := 0
	b := openBridge(t, t.TempDir(), func(o *Options) {
		o.Logger = quietLogger()
		o.OnRunUpdated = func(store.Run) {
			mu.Lock()
			updates++
			mu.Unlock()
			panic("callback exploded")
		}
	})
	h := newFakeHost()
	h.on(MethodSoundPlay, func(json.RawMessage) (any, error) { panic("sound exploded") })
	h.on(MethodNotificationShow, answer(map[string]any{"shown": true}))
	b.AttachHost(h, []string{"sound", "notification"})
	mkDef(t, b, `{"name":"s","eventName":"turn.completed","action":{"type":"sound"}}`, true)
	mkDef(t, b, `{"name":"n","eventName":"turn.failed","action":{"type":"notification"}}`, true)
	r := waitStatus(t, b, emitTurn(t, b, "turn.completed", "t1", nil).EventID, store.RunOutcomeUnknown, 5*time.Second)
	if !strings.Contains(r.ErrorMessage, "sound exploded") || r.AttemptCount != 1 {
		t.Fatalf("%s", dump(r))
	}
	waitStatus(t, b, emitTurn(t, b, "turn.failed", "t2", nil).EventID, store.RunSucceeded, 5*time.Second)
	deadline := time.Now().Add(5 * time.Second)
	for {
		mu.Lock()
		n := updates
		mu.Unlock()
		if n >= 4 { // queued, running, terminal of the first run, then the second run's
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("notifier stopped after a panicking callback: %d updates", n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
