package v2bridge

import (
	"strings"
	"testing"
	"time"

	"github.com/hookside/hookside/v2bridge/store"
)

// A stored envelope without an event name (or with an unknown one) fails
// that event: it must not match the definitions of every event.
func TestStoredEnvelopeWithoutEventNameFailsTheEvent(t *testing.T) {
	b := openBridge(t, t.TempDir(), nil)
	h := newFakeHost()
	h.on(MethodSoundPlay, answer(map[string]any{"played": true}))
	b.AttachHost(h, []string{"sound"})
	mkDef(t, b, `{"name":"s","eventName":"turn.completed","action":{"type":"sound"}}`, true)
	for _, c := range []struct{ id, envelope string }{
		{"hev_noname", `{"schemaVersion":1,"eventId":"hev_noname","session":{"id":"s1"},"turn":{"id":"t1"},"payload":{}}`},
		{"hev_unknown", `{"schemaVersion":1,"eventId":"hev_unknown","eventName":"turn.exploded","session":{"id":"s1"},"turn":{"id":"t1"},"payload":{}}`},
	} {
		if _, err := b.DB().Emit(bg, store.Event{ID: c.id, Name: "turn.completed", SessionID: "s1", TurnID: "t1",
			Envelope: []byte(c.envelope), Status: store.EventPending}); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(5 * time.Second)
		var ev store.Event
		for {
			var err error
			if ev, err = b.DB().GetEvent(bg, c.id); err != nil {
				t.Fatal(err)
			}
			if ev.Status != store.EventPending && ev.Status != store.EventDispatching {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s still %s", c.id, ev.Status)
			}
			b.wakeBacklog()
			time.Sleep(5 * time.Millisecond)
		}
		if ev.Status != store.EventFailed || !strings.Contains(ev.LastError, "event name") {
			t.Fatalf("%s: %s %q", c.id, ev.Status, ev.LastError)
		}
		runs, _, _ := b.DB().ListRuns(bg, store.RunFilter{EventID: c.id, Limit: 10})
		if len(runs) != 0 {
			t.Fatalf("%s: runs created: %s", c.id, dump(runs))
		}
	}
}
