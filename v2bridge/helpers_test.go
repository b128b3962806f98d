package v2bridge

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/hookside/hookside/v2bridge/expr"
	"github.com/hookside/hookside/v2bridge/store"
)

var bg = context.Background()

// fakeHost is a Host whose answers tests script per method.
type fakeHost struct {
	mu      sync.Mutex
	calls   []hostCall
	answers map[string]func(params json.RawMessage) (any, error)
	called  chan hostCall
}

type hostCall struct {
	Method string
	Params json.RawMessage
	At     time.Time
}

func newFakeHost() *fakeHost {
	return &fakeHost{answers: map[string]func(json.RawMessage) (any, error){}, called: make(chan hostCall, 1024)}
}

func (h *fakeHost) on(method string, fn func(params json.RawMessage) (any, error)) {
	h.mu.Lock()
	h.answers[method] = fn
	h.mu.Unlock()
}

func (h *fakeHost) Call(ctx context.Context, method string, params, result any) error {
	raw, _ := json.Marshal(params)
	c := hostCall{Method: method, Params: raw, At: time.Now()}
	h.mu.Lock()
	h.calls = append(h.calls, c)
	fn := h.answers[method]
	h.mu.Unlock()
	select {
	case h.called <- c:
	default:
	}
	if fn == nil {
		<-ctx.Done() // never answers
		return ctx.Err()
	}
	res, err := fn(raw)
	if err != nil {
		return err
	}
	if res == nil {
		<-ctx.Done()
		return ctx.Err()
	}
	b, _ := json.Marshal(res)
	return json.Unmarshal(b, result)
}

func (h *fakeHost) count(method string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, c := range h.calls {
		if c.Method == method {
			n++
		}
	}
	return n
}

func answer(v any) func(json.RawMessage) (any, error) {
	return func(json.RawMessage) (any, error) { return v, nil }
}

func quietLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func openBridge(t *testing.T, home string, mod func(*Options)) *Bridge {
	t.Helper()
	opts := Options{Home: home, Logger: quietLogger(), Store: store.Options{Synchronous: "NORMAL"}}
	if mod != nil {
		mod(&opts)
	}
	b, err := Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close(0) })
	return b
}

// mkDef creates a definition from JSON and binds it at application scope.
func mkDef(t *testing.T, b *Bridge, defJSON string, bind bool) store.Definition {
	t.Helper()
	res, err := b.CreateDefinition(bg, json.RawMessage(defJSON))
	if err != nil {
		t.Fatalf("create %s: %v", defJSON, err)
	}
	if bind {
		if _, err := b.CreateBinding(bg, res.Definition.ID, store.ScopeApplication, ""); err != nil {
			t.Fatal(err)
		}
	}
	return res.Definition
}

func emitTurn(t *testing.T, b *Bridge, event, turnID string, payload map[string]any) EmitResult {
	t.Helper()
	p := EmitParams{EventName: event, Session: sess("s1"), Turn: turn(turnID), Payload: payload}
	res, err := b.Emit(bg, p)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// waitRuns waits until the runs of eventID satisfy ok.
// hangGuard is the least time a wait for a condition that must come true
// allows: a guard against hangs, not a speed assertion (the suite runs on
// shared 2-core machines where dispatch can take seconds).
const hangGuard = 60 * time.Second

func waitRuns(t *testing.T, b *Bridge, eventID string, timeout time.Duration, ok func([]store.Run) bool) []store.Run {
	t.Helper()
	deadline := time.Now().Add(max(timeout, hangGuard))
	for {
		runs, _, err := b.DB().ListRuns(bg, store.RunFilter{EventID: eventID, Limit: 500})
		if err != nil {
			t.Fatal(err)
		}
		if ok(runs) {
			return runs
		}
		if time.Now().After(deadline) {
			t.Fatalf("timeout waiting for runs of %s; have %s", eventID, dump(runs))
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func waitStatus(t *testing.T, b *Bridge, eventID, status string, timeout time.Duration) store.Run {
	t.Helper()
	runs := waitRuns(t, b, eventID, timeout, func(rs []store.Run) bool { return len(rs) == 1 && rs[0].Status == status })
	return runs[0]
}

func dump(v any) string { b, _ := json.Marshal(v); return string(b) }

func sess(id string) *expr.Session { return &expr.Session{ID: id} }
func turn(id string) *expr.Turn    { return &expr.Turn{ID: id} }
