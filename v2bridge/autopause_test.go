package v2bridge

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookside/hookside/v2bridge/store"
)

// Five consecutive policy-blocked runs put the binding back to needs_review
// and the host is told (v2/binding/updated, reason auto_paused); the sixth
// run is then blocked trust_required. Consecutive failed runs never pause
// (hooks-v2-handbook §14.1).
func TestAutoPauseAfterFivePolicyBlockedRuns(t *testing.T) {
	var mu sync.Mutex
	var pushed []string
	pushedCh := make(chan struct{}, 8)
	b := openBridge(t, t.TempDir(), func(o *Options) {
		o.OnBindingUpdated = func(v BindingView, reason string) {
			mu.Lock()
			pushed = append(pushed, v.ID+" "+v.State+" "+reason)
			mu.Unlock()
			pushedCh <- struct{}{}
		}
	})
	h := toolHost("destructive", "1", "none", answer(map[string]any{"ok": true}))
	b.AttachHost(h, []string{"tool"})
	d := mkDef(t, b, strings.Replace(toolDef, "%s", "", 1), true)
	bs, _ := b.ListBindings(bg, d.ID)
	for i := 1; i <= 5; i++ {
		r := waitStatus(t, b, emitResponse(t, b, fmt.Sprintf("m%d", i), "x").EventID, store.RunBlocked, 5*time.Second)
		if r.ErrorCode != CodePolicyBlocked {
			t.Fatalf("%s", dump(r))
		}
		want := store.BindingActive
		if i == 5 {
			// The pause follows the fifth run's terminal write.
			select {
			case <-pushedCh:
			case <-time.After(5 * time.Second):
				t.Fatal("no v2/binding/updated after the fifth policy-blocked run")
			}
			want = store.BindingNeedsReview
		}
		v, _ := b.ListBindings(bg, d.ID)
		if v[0].State != want {
			t.Fatalf("after %d policy-blocked runs: binding %s, want %s", i, v[0].State, want)
		}
	}
	mu.Lock()
	got := append([]string(nil), pushed...)
	mu.Unlock()
	if len(got) != 1 || got[0] != bs[0].ID+" needs_review auto_paused" {
		t.Fatalf("pushed %q", got)
	}
	if r := waitStatus(t, b, emitResponse(t, b, "m6", "x").EventID, store.RunBlocked, 5*time.Second); r.ErrorCode != CodeTrustRequired {
		t.Fatalf("%s", dump(r))
	}
}

func TestConsecutiveFailedRunsDoNotAutoPause(t *testing.T) {
	b := openBridge(t, t.TempDir(), nil)
	h := toolHost("read", "1", "none", answer(map[string]any{"ok": false, "errorCode": "action_failed", "message": "no"}))
	b.AttachHost(h, []string{"tool"})
	d := mkDef(t, b, strings.Replace(toolDef, "%s", "", 1), true)
	for i := 1; i <= 7; i++ {
		waitStatus(t, b, emitResponse(t, b, fmt.Sprintf("m%d", i), "x").EventID, store.RunFailed, 5*time.Second)
	}
	if v, _ := b.ListBindings(bg, d.ID); v[0].State != store.BindingActive {
		t.Fatalf("failed runs paused the binding: %s", dump(v))
	}
}
