package v2bridge

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hookside/hookside/internal/jsonpos"
	"github.com/hookside/hookside/v2bridge/store"
)

func emitJSON(t *testing.T, b *Bridge, raw string) EmitResult {
	t.Helper()
	var p EmitParams
	if err := json.Unmarshal([]byte(raw), &p); err != nil {
		t.Fatal(err)
	}
	res, err := b.Emit(bg, p)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// Objects in templates and summaries keep JavaScript's property order
// (hooks-v2-handbook §5.2, §11.3: JSON.stringify): integer keys ascending,
// then insertion order — through the outbox, the snapshot and the worker.
// The 64-entry cut keeps the first 64 in that order.
func TestObjectsKeepInsertionOrder(t *testing.T) {
	b := openBridge(t, t.TempDir(), nil)
	h := newFakeHost()
	h.on(MethodNotificationShow, answer(map[string]any{"shown": true}))
	var big strings.Builder
	big.WriteString("{")
	for i := 69; i >= 0; i-- {
		if i < 69 {
			big.WriteString(",")
		}
		fmt.Fprintf(&big, `"k%02d":%d`, i, i)
	}
	big.WriteString("}")
	h.on(MethodToolResolve, answer(map[string]any{"found": true, "version": "1", "riskLevel": "read", "idempotency": "none"}))
	h.on(MethodToolInvoke, answer(map[string]any{"ok": true, "output": json.RawMessage(big.String())}))
	b.AttachHost(h, []string{"notification", "tool"})
	mkDef(t, b, `{"name":"n","eventName":"turn.failed","action":{"type":"notification","title":{"template":"${payload}"}}}`, true)
	mkDef(t, b, `{"name":"t","eventName":"turn.failed","action":{"type":"tool","target":{"sourceKind":"connector","sourceId":"s","toolName":"t"}},
		"inputMapping":{"p":{"path":"payload"}}}`, true)

	const payload = `{"message":"m","zeta":1,"alpha":{"b":1,"a":2},"10":0,"2":0}`
	const want = `{"2":0,"10":0,"message":"m","zeta":1,"alpha":{"b":1,"a":2}}`
	res := emitJSON(t, b, `{"eventName":"turn.failed","session":{"id":"s1"},"turn":{"id":"t1"},"payload":`+payload+`}`)
	runs := waitRuns(t, b, res.EventID, 5*time.Second, func(rs []store.Run) bool {
		return len(rs) == 2 && rs[0].Status == store.RunSucceeded && rs[1].Status == store.RunSucceeded
	})
	var title string
	var toolInput string
	h.mu.Lock()
	for _, c := range h.calls {
		switch c.Method {
		case MethodNotificationShow:
			var p notificationParams
			_ = json.Unmarshal(c.Params, &p)
			title = p.Title
		case MethodToolInvoke:
			var p struct {
				Input json.RawMessage `json:"input"`
			}
			_ = json.Unmarshal(c.Params, &p)
			toolInput = string(p.Input)
		}
	}
	h.mu.Unlock()
	if title != want {
		t.Errorf("template: %s, want %s", title, want)
	}
	if toolInput != `{"p":`+want+`}` {
		t.Errorf("tool input: %s", toolInput)
	}
	for _, r := range runs {
		switch {
		case strings.Contains(string(r.InputSummary), "title"):
			if string(r.InputSummary) != `{"title":`+mustJSON(want)+`}` {
				t.Errorf("notification input summary: %s", r.InputSummary)
			}
		default:
			if string(r.InputSummary) != `{"p":`+want+`}` {
				t.Errorf("tool input summary: %s", r.InputSummary)
			}
			var keys []string
			dec := json.NewDecoder(strings.NewReader(string(r.OutputSummary)))
			dec.Token()
			for dec.More() {
				k, _ := dec.Token()
				keys = append(keys, k.(string))
				var v any
				_ = dec.Decode(&v)
			}
			if len(keys) != 65 || keys[0] != "k69" || keys[63] != "k06" || keys[64] != "[truncated]" {
				t.Errorf("output summary keys: %v", keys)
			}
		}
	}
}

func mustJSON(s string) string { b, _ := json.Marshal(s); return string(b) }

// The ordered decoding keeps the wire errors: a payload that is not an
// object names the field.
func TestEmitParamsPayloadTypeErrorNamesTheField(t *testing.T) {
	var p EmitParams
	err := json.Unmarshal([]byte(`{"eventName":"turn.failed","payload":"x"}`), &p)
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) || te.Field != "payload" {
		t.Fatalf("%v", err)
	}
	err = json.Unmarshal([]byte(`{"eventName":"turn.failed","session":{"id":5}}`), &p)
	if !errors.As(err, &te) || te.Field != "session.id" {
		t.Fatalf("%#v", err)
	}
}

// TestEmitParamsPayloadTypeErrorIsAtThePayload: decoding params whose
// payload is no object is a type error on "payload" whose offset is the
// payload value's in the whole params (not counted from the payload).
func TestEmitParamsPayloadTypeErrorIsAtThePayload(t *testing.T) {
	for _, pl := range []string{`"str"`, `true`, `false`, `12`, `[1]`} {
		raw := `{"eventName": "turn.completed",` + "\n" + `  "payload": ` + pl + `}`
		var p EmitParams
		err := json.Unmarshal([]byte(raw), &p)
		var te *json.UnmarshalTypeError
		if !errors.As(err, &te) || te.Field != "payload" {
			t.Fatalf("payload %s: %v", pl, err)
		}
		if got := jsonpos.TypeErrorOffset([]byte(raw), te); got != strings.Index(raw, pl) {
			t.Errorf("payload %s: the error is at offset %d, want %d (the payload's)", pl, got, strings.Index(raw, pl))
		}
	}
}
