package v2bridge

import (
	"strings"
	"testing"
	"time"

	"github.com/hookside/hookside/v2bridge/store"
)

// The first automatic retry waits exactly backoffMs, the second 2×, the
// third 4× (hooks-v2-handbook §10.3: attemptCount is the claim count, so the
// first failure has attemptCount 1 and the backoff is backoffMs·2^0). The
// clock is injected: the delays are exact, and one millisecond early claims
// nothing.
func TestRetryBackoffIsExact(t *testing.T) {
	clk := newFakeClock()
	b := openBridge(t, t.TempDir(), func(o *Options) { o.Store.Now = clk.Now })
	h := toolHost("read", "1", "none", answer(map[string]any{"ok": false, "errorCode": "transient_failure", "message": "flaky"}))
	b.AttachHost(h, []string{"tool"})
	mkDef(t, b, strings.Replace(toolDef, "%s", `,"retryPolicy":{"mode":"safe","maxAttempts":4,"backoffMs":1000}`, 1), true)
	res := emitResponse(t, b, "m1", "x")
	for attempt, want := range []time.Duration{1000 * time.Millisecond, 2000 * time.Millisecond, 4000 * time.Millisecond} {
		n := attempt + 1
		r := waitRuns(t, b, res.EventID, 5*time.Second, func(rs []store.Run) bool {
			return len(rs) == 1 && rs[0].Status == store.RunQueued && rs[0].AttemptCount == n
		})[0]
		if got := r.NextAttemptAt.Sub(clk.Now()); got != want {
			t.Fatalf("attempt %d: retry after %v, want exactly %v", n, got, want)
		}
		if r.ErrorCode != CodeTransientFailure {
			t.Fatalf("attempt %d: %s", n, dump(r))
		}
		// One millisecond early: nothing is claimable.
		clk.Add(want - time.Millisecond)
		if _, ok, err := b.DB().ClaimRun(bg, "probe", time.Minute, clk.Now(), store.ClaimFilter{}); err != nil || ok {
			t.Fatalf("attempt %d: claimable %v before its backoff elapsed (%v)", n, ok, err)
		}
		clk.Add(time.Millisecond)
		b.workerWake.kick()
	}
	r := waitStatus(t, b, res.EventID, store.RunFailed, 5*time.Second)
	if r.AttemptCount != 4 || h.count(MethodToolInvoke) != 4 {
		t.Fatalf("%s invokes=%d", dump(r), h.count(MethodToolInvoke))
	}
}
