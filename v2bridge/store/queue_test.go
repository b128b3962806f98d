package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"sync"
	"testing"
	"time"
)

func TestEmit(t *testing.T) {
	db, _ := openTest(t, Options{})
	var mu sync.Mutex
	var woken []string
	db.SubscribeEvents(func(ids []string) { mu.Lock(); woken = append(woken, ids...); mu.Unlock() })

	t.Run("duplicate_returns_true_and_keeps_first_content", func(t *testing.T) {
		ev := testEvent("hev_1", "s1")
		if dup, err := db.Emit(bg, ev); err != nil || dup {
			t.Fatalf("first emit: dup=%v err=%v", dup, err)
		}
		ev2 := ev
		ev2.Envelope = json.RawMessage(`{"different":true}`)
		if dup, err := db.Emit(bg, ev2); err != nil || !dup {
			t.Fatalf("second emit: dup=%v err=%v", dup, err)
		}
		got := must[Event](t)(db.GetEvent(bg, "hev_1"))
		if string(got.Envelope) != string(ev.Envelope) || got.Status != EventPending {
			t.Fatalf("stored %s %s", got.Status, got.Envelope)
		}
	})

	t.Run("batch_reports_duplicates_also_within_the_batch", func(t *testing.T) {
		dups := must[[]bool](t)(db.EmitBatch(bg, []Event{testEvent("hev_1", "s"), testEvent("b1", "s"), testEvent("b1", "s")}))
		if fmt.Sprint(dups) != "[true false true]" {
			t.Fatalf("dups %v", dups)
		}
	})

	t.Run("concurrent_emits_group_commit", func(t *testing.T) {
		var wg sync.WaitGroup
		var dupCount int
		var dmu sync.Mutex
		for g := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range 50 {
					// Every id is emitted by two goroutines: exactly one wins.
					dup, err := db.Emit(bg, testEvent(fmt.Sprintf("c-%d-%d", g/2, i), "s"))
					if err != nil {
						t.Error(err)
						return
					}
					if dup {
						dmu.Lock()
						dupCount++
						dmu.Unlock()
					}
				}
			}()
		}
		wg.Wait()
		if dupCount != 200 {
			t.Fatalf("duplicates %d, want 200", dupCount)
		}
	})

	t.Run("invalid_event_rejected", func(t *testing.T) {
		if _, err := db.Emit(bg, Event{ID: "x", Name: "turn.completed", Envelope: json.RawMessage(`{`)}); !errors.Is(err, ErrInvalid) {
			t.Fatalf("bad envelope: %v", err)
		}
	})

	mu.Lock()
	defer mu.Unlock()
	if len(woken) != 1+1+200 {
		t.Fatalf("SubscribeEvents saw %d new ids, want 202", len(woken))
	}
}

func TestResolveEventIsIdempotent(t *testing.T) {
	db, _ := openTest(t, Options{})
	db.Emit(bg, testEvent("e1", "s1"))
	evs := must[[]Event](t)(db.ClaimEvents(bg, "d1", time.Minute, 10))
	if len(evs) != 1 || evs[0].Status != EventDispatching || evs[0].Attempts != 1 {
		t.Fatalf("claimed %+v", evs)
	}
	runs := []NewRun{
		{HookID: "h1", HookRevision: 1},
		{HookID: "h2", HookRevision: 1, Status: RunSkipped, ErrorCode: "condition_not_matched"},
	}
	created := must[[]Run](t)(db.ResolveEvent(bg, "e1", runs))
	if len(created) != 2 || created[0].SessionID != "s1" || created[0].EventName != "turn.completed" || created[0].TurnID != "t-e1" {
		t.Fatalf("created %+v", created)
	}
	if created[1].Status != RunSkipped || created[1].FinishedAt.IsZero() {
		t.Fatalf("skipped run %+v", created[1])
	}
	// Again (e.g. a second dispatcher after a lease expiry), even at a new revision.
	runs[0].HookRevision = 2
	again := must[[]Run](t)(db.ResolveEvent(bg, "e1", runs))
	if len(again) != 0 {
		t.Fatalf("second resolve created %d runs", len(again))
	}
	if n := must[int](t)(db.CountRunsOfHook(bg, "h1")); n != 1 {
		t.Fatalf("h1 runs %d", n)
	}
	if ev := must[Event](t)(db.GetEvent(bg, "e1")); ev.Status != EventResolved || ev.ResolvedAt.IsZero() {
		t.Fatalf("event %+v", ev)
	}
	if _, err := db.ResolveEvent(bg, "nope", nil); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown event: %v", err)
	}
	// Test runs are exempt from UNIQUE(event_id, hook_id).
	for range 2 {
		must[Run](t)(db.CreateTestRun(bg, NewRun{EventID: "e1", HookID: "h1", EventName: "turn.completed"}))
	}
	if n := must[int](t)(db.CountRunsOfHook(bg, "h1")); n != 3 {
		t.Fatalf("h1 runs with test runs %d", n)
	}
}

func TestEventLeases(t *testing.T) {
	clk := newClock()
	db, _ := openTest(t, Options{Now: clk.Now})
	for i := range 5 {
		db.Emit(bg, testEvent(fmt.Sprintf("e%d", i), "s"))
	}
	a := must[[]Event](t)(db.ClaimEvents(bg, "A", 60*time.Second, 3))
	if len(a) != 3 || a[0].ID != "e0" || a[2].ID != "e2" {
		t.Fatalf("A claimed %v", ids(a))
	}
	b := must[[]Event](t)(db.ClaimEvents(bg, "B", 60*time.Second, 10))
	if len(b) != 2 || b[0].ID != "e3" {
		t.Fatalf("B claimed %v", ids(b))
	}
	must[[]Run](t)(db.ResolveEvent(bg, "e0", nil))
	if err := db.ReleaseEvent(bg, "e1", "A", "host busy"); err != nil {
		t.Fatal(err)
	}
	if err := db.FailEvent(bg, "e2", "B", "bad envelope"); !errors.Is(err, ErrLeaseLost) {
		t.Fatalf("fail by non-owner: %v", err)
	}
	if err := db.FailEvent(bg, "e2", "A", "bad envelope"); err != nil {
		t.Fatal(err)
	}
	// B crashes; 61 s later its events are recoverable, e1 (released) is pending.
	clk.Advance(61 * time.Second)
	rec := must[Recovered](t)(db.RecoverExpired(bg, clk.Now()))
	if rec.EventsReleased != 2 {
		t.Fatalf("released %d", rec.EventsReleased)
	}
	c := must[[]Event](t)(db.ClaimEvents(bg, "C", 60*time.Second, 10))
	if fmt.Sprint(ids(c)) != "[e1 e3 e4]" || c[1].Attempts != 2 {
		t.Fatalf("C claimed %v (attempts %d)", ids(c), c[1].Attempts)
	}
	// Expired leases are also claimable without an explicit recovery.
	clk.Advance(61 * time.Second)
	d := must[[]Event](t)(db.ClaimEvents(bg, "D", 60*time.Second, 10))
	if len(d) != 3 {
		t.Fatalf("D claimed %v", ids(d))
	}
	if err := db.ReleaseEvent(bg, "e1", "C", ""); !errors.Is(err, ErrLeaseLost) {
		t.Fatalf("release by old owner: %v", err)
	}
}

func ids(evs []Event) []string {
	var out []string
	for _, e := range evs {
		out = append(out, e.ID)
	}
	return out
}

func TestRunLeaseExpiryIsOutcomeUnknown(t *testing.T) {
	clk := newClock()
	db, _ := openTest(t, Options{Now: clk.Now})
	var mu sync.Mutex
	var pushed []string
	db.SubscribeRuns(func(r Run) { mu.Lock(); pushed = append(pushed, r.Status); mu.Unlock() })
	seedRuns(t, db, "e", []string{"s1"}, []string{"h1"}, SerialPerSession)
	r, ok, err := db.ClaimRun(bg, "W1", 5*time.Minute, clk.Now(), ClaimFilter{})
	if err != nil || !ok || r.AttemptCount != 1 || r.StartedAt.IsZero() {
		t.Fatalf("claim: %+v %v %v", r, ok, err)
	}
	clk.Advance(4 * time.Minute)
	if err := db.RenewRunLease(bg, r.ID, "W1", 5*time.Minute); err != nil {
		t.Fatal(err)
	}
	clk.Advance(4 * time.Minute) // 8 min after claim, 4 after renewal: still leased
	if rec := must[Recovered](t)(db.RecoverExpired(bg, clk.Now())); len(rec.RunsUnknown) != 0 {
		t.Fatal("renewed lease recovered")
	}
	clk.Advance(2 * time.Minute)
	rec := must[Recovered](t)(db.RecoverExpired(bg, clk.Now()))
	if len(rec.RunsUnknown) != 1 || rec.RunsUnknown[0].Status != RunOutcomeUnknown || *rec.RunsUnknown[0].DurationMs != (10*time.Minute).Milliseconds() {
		t.Fatalf("recovered %+v", rec)
	}
	if _, ok, _ := db.ClaimRun(bg, "W2", 5*time.Minute, clk.Now(), ClaimFilter{}); ok {
		t.Fatal("outcome_unknown run was re-sent")
	}
	if _, err := db.FinishRun(bg, r.ID, "W1", Finish{Status: RunSucceeded}); !errors.Is(err, ErrLeaseLost) {
		t.Fatalf("finish after expiry: %v", err)
	}
	if err := db.RenewRunLease(bg, r.ID, "W1", time.Minute); !errors.Is(err, ErrLeaseLost) {
		t.Fatalf("renew after expiry: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if fmt.Sprint(pushed) != "[queued running outcome_unknown]" {
		t.Fatalf("pushed %v", pushed)
	}
}

func TestRetriesAndBackoff(t *testing.T) {
	clk := newClock()
	db, _ := openTest(t, Options{Now: clk.Now})
	seedRuns(t, db, "e", []string{"s1"}, []string{"h1"}, SerialPerSession)
	r, _, _ := db.ClaimRun(bg, "W", time.Minute, clk.Now(), ClaimFilter{})
	clk.Advance(100 * time.Millisecond)
	// First failure: backoff = backoffMs × 2^(1−1) (§10.3), computed by the caller.
	rq := must[Run](t)(db.RequeueRun(bg, r.ID, "W", clk.Now().Add(time.Second), "transient_failure", "ECONNRESET"))
	if rq.Status != RunQueued || rq.AttemptCount != 1 || rq.ErrorCode != "transient_failure" {
		t.Fatalf("requeued %+v", rq)
	}
	if _, ok, _ := db.ClaimRun(bg, "W", time.Minute, clk.Now(), ClaimFilter{}); ok {
		t.Fatal("claimed before next_attempt_at")
	}
	if got := must[Run](t)(db.GetRun(bg, r.ID)); got.AttemptCount != 1 {
		t.Fatalf("attempt count changed by a failed claim: %d", got.AttemptCount)
	}
	clk.Advance(time.Second)
	r2, ok, _ := db.ClaimRun(bg, "W", time.Minute, clk.Now(), ClaimFilter{})
	if !ok || r2.AttemptCount != 2 || !r2.StartedAt.Equal(r.StartedAt) {
		t.Fatalf("second claim %+v", r2)
	}
	clk.Advance(500 * time.Millisecond)
	out := must[Run](t)(db.FinishRun(bg, r.ID, "W", Finish{Status: RunFailed, ErrorCode: "action_failed",
		ErrorMessage: "boom", OutputSummary: json.RawMessage(`{"ok":false}`)}))
	if out.Status != RunFailed || out.DurationMs == nil || *out.DurationMs != 1600 || string(out.OutputSummary) != `{"ok":false}` {
		t.Fatalf("finished %+v dur %v", out, out.DurationMs)
	}
}

func TestManualRetryAndCancel(t *testing.T) {
	clk := newClock()
	db, _ := openTest(t, Options{Now: clk.Now})
	runs := seedRuns(t, db, "e", []string{"s1", "s2", "s3"}, []string{"h1"}, Parallel)
	// runs[0] → failed; runs[1] stays queued; runs[2] → running
	r0, _, _ := db.ClaimRun(bg, "W", time.Minute, clk.Now(), ClaimFilter{})
	db.FinishRun(bg, r0.ID, "W", Finish{Status: RunFailed, ErrorCode: "action_failed", ErrorMessage: "x"})
	if _, err := db.CancelRun(bg, runs[1].ID); err != nil {
		t.Fatal(err)
	}
	r1, _, _ := db.ClaimRun(bg, "W", time.Minute, clk.Now(), ClaimFilter{})
	if r1.ID != runs[2].ID {
		t.Fatalf("claimed %s", r1.ID)
	}

	var se *RunStateError
	if _, err := db.RetryRun(bg, runs[2].ID); !errors.Is(err, ErrNotRetryable) || !errors.As(err, &se) || se.Status != RunRunning {
		t.Fatalf("retry running: %v", err)
	}
	if _, err := db.CancelRun(bg, runs[2].ID); !errors.Is(err, ErrNotCancellable) {
		t.Fatalf("cancel running: %v", err)
	}
	if _, err := db.CancelRun(bg, runs[0].ID); !errors.Is(err, ErrNotCancellable) {
		t.Fatalf("cancel failed: %v", err)
	}
	if _, err := db.RetryRun(bg, "nope"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("retry unknown: %v", err)
	}
	// Manual retry clears error and timing, keeps attempt count (§10.5, §11.2).
	rr := must[Run](t)(db.RetryRun(bg, runs[0].ID))
	if rr.Status != RunQueued || rr.ErrorCode != "" || rr.ErrorMessage != "" || !rr.FinishedAt.IsZero() || rr.DurationMs != nil || rr.AttemptCount != 1 {
		t.Fatalf("retried %+v", rr)
	}
	// cancelled is retryable too.
	if rr := must[Run](t)(db.RetryRun(bg, runs[1].ID)); rr.Status != RunQueued {
		t.Fatal(rr.Status)
	}
	if _, err := db.RetryRun(bg, runs[1].ID); !errors.Is(err, ErrNotRetryable) {
		t.Fatalf("retry queued: %v", err)
	}
}

// TestSerialPerSession checks the claim rule documented on ClaimRun.
func TestSerialPerSession(t *testing.T) {
	claimAll := func(db *DB, now time.Time) []string {
		var got []string
		for {
			r, ok, err := db.ClaimRun(bg, "W", time.Minute, now, ClaimFilter{})
			if err != nil {
				t.Fatal(err)
			}
			if !ok {
				return got
			}
			got = append(got, r.HookID+"/"+r.SessionID)
		}
	}

	t.Run("same_hook_same_session_one_at_a_time_in_order", func(t *testing.T) {
		clk := newClock()
		db, _ := openTest(t, Options{Now: clk.Now})
		runs := seedRuns(t, db, "e", []string{"s1", "s1", "s1"}, []string{"h1"}, SerialPerSession)
		if got := claimAll(db, clk.Now()); fmt.Sprint(got) != "[h1/s1]" {
			t.Fatalf("claimed %v", got)
		}
		db.FinishRun(bg, runs[0].ID, "W", Finish{Status: RunSucceeded})
		r, ok, _ := db.ClaimRun(bg, "W", time.Minute, clk.Now(), ClaimFilter{})
		if !ok || r.ID != runs[1].ID {
			t.Fatalf("next claim %v %v", r.ID, ok)
		}
	})

	t.Run("other_hooks_and_sessions_do_not_block", func(t *testing.T) {
		clk := newClock()
		db, _ := openTest(t, Options{Now: clk.Now})
		seedRuns(t, db, "e", []string{"s1", "s1", "s2"}, []string{"h1", "h2"}, SerialPerSession)
		got := claimAll(db, clk.Now())
		sort.Strings(got)
		if fmt.Sprint(got) != "[h1/s1 h1/s2 h2/s1 h2/s2]" {
			t.Fatalf("claimed %v", got)
		}
	})

	t.Run("queued_in_backoff_blocks_later_runs", func(t *testing.T) {
		clk := newClock()
		db, _ := openTest(t, Options{Now: clk.Now})
		runs := seedRuns(t, db, "e", []string{"s1", "s1"}, []string{"h1"}, SerialPerSession)
		r, _, _ := db.ClaimRun(bg, "W", time.Minute, clk.Now(), ClaimFilter{})
		db.RequeueRun(bg, r.ID, "W", clk.Now().Add(10*time.Second), "timeout", "")
		if got := claimAll(db, clk.Now()); len(got) != 0 {
			t.Fatalf("claimed %v while the earlier run waits for its backoff", got)
		}
		clk.Advance(10 * time.Second)
		r, ok, _ := db.ClaimRun(bg, "W", time.Minute, clk.Now(), ClaimFilter{})
		if !ok || r.ID != runs[0].ID {
			t.Fatalf("after backoff claimed %v", r.ID)
		}
	})

	t.Run("running_blocks_an_older_manually_retried_run", func(t *testing.T) {
		clk := newClock()
		db, _ := openTest(t, Options{Now: clk.Now})
		runs := seedRuns(t, db, "e", []string{"s1", "s1"}, []string{"h1"}, SerialPerSession)
		r, _, _ := db.ClaimRun(bg, "W", time.Minute, clk.Now(), ClaimFilter{})
		db.FinishRun(bg, r.ID, "W", Finish{Status: RunFailed})
		r2, _, _ := db.ClaimRun(bg, "W", time.Minute, clk.Now(), ClaimFilter{})
		if r2.ID != runs[1].ID {
			t.Fatal("second run not claimed")
		}
		db.RetryRun(bg, runs[0].ID)
		if got := claimAll(db, clk.Now()); len(got) != 0 {
			t.Fatalf("claimed %v while a run of the same hook+session is running", got)
		}
	})

	t.Run("parallel_ignores_the_gate", func(t *testing.T) {
		clk := newClock()
		db, _ := openTest(t, Options{Now: clk.Now})
		seedRuns(t, db, "e", []string{"s1", "s1", "s1"}, []string{"h1"}, Parallel)
		if got := claimAll(db, clk.Now()); len(got) != 3 {
			t.Fatalf("claimed %v", got)
		}
	})

	t.Run("master_switch_off_claims_nothing", func(t *testing.T) {
		clk := newClock()
		db, _ := openTest(t, Options{Now: clk.Now})
		seedRuns(t, db, "e", []string{"s1"}, []string{"h1"}, Parallel)
		db.Emit(bg, testEvent("pending", "s1"))
		off, on := false, true
		db.UpdateSettings(bg, SettingsPatch{Enabled: &off})
		if got := claimAll(db, clk.Now()); len(got) != 0 {
			t.Fatal("claimed a run with the switch off")
		}
		if evs := must[[]Event](t)(db.ClaimEvents(bg, "D", time.Minute, 10)); len(evs) != 0 {
			t.Fatal("claimed an event with the switch off")
		}
		if _, ok, _ := db.ClaimRun(bg, "W", time.Minute, clk.Now(), ClaimFilter{IgnoreMasterSwitch: true}); !ok {
			t.Fatal("IgnoreMasterSwitch")
		}
		db.UpdateSettings(bg, SettingsPatch{Enabled: &on})
		if evs := must[[]Event](t)(db.ClaimEvents(bg, "D", time.Minute, 10)); len(evs) != 1 {
			t.Fatal("switch back on")
		}
	})
}

// TestTwoHandlesClaimEachRunOnce: two DB handles on one file (as two
// processes would have), each with several claimers.
func TestTwoHandlesClaimEachRunOnce(t *testing.T) {
	a, path := openTest(t, Options{})
	b := reopen(t, path, Options{})
	var sessions []string
	for i := range 40 {
		sessions = append(sessions, fmt.Sprintf("s%d", i%7))
	}
	runs := seedRuns(t, a, "e", sessions, []string{"h1", "h2"}, SerialPerSession)
	var mu sync.Mutex
	seen := map[string]int{}
	var wg sync.WaitGroup
	for w := range 4 {
		db := a
		if w%2 == 1 {
			db = b
		}
		owner := fmt.Sprintf("w%d", w)
		wg.Add(1)
		go func() {
			defer wg.Done()
			idle := 0
			for idle < 20 {
				r, ok, err := db.ClaimRun(bg, owner, time.Minute, time.Now(), ClaimFilter{})
				if err != nil {
					t.Error(err)
					return
				}
				if !ok {
					idle++
					time.Sleep(2 * time.Millisecond)
					continue
				}
				idle = 0
				mu.Lock()
				seen[r.ID]++
				mu.Unlock()
				if _, err := db.FinishRun(bg, r.ID, owner, Finish{Status: RunSucceeded}); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if len(seen) != len(runs) {
		t.Fatalf("claimed %d distinct runs of %d", len(seen), len(runs))
	}
	for id, n := range seen {
		if n != 1 {
			t.Fatalf("run %s claimed %d times", id, n)
		}
	}
}

func TestListRunsPaging(t *testing.T) {
	clk := newClock()
	db, _ := openTest(t, Options{Now: clk.Now})
	// 25 events × 2 hooks; several runs share a created_at (ties broken by id).
	for i := range 25 {
		if i%3 == 0 {
			clk.Advance(time.Second)
		}
		seedRuns(t, db, fmt.Sprintf("e%02d", i), []string{fmt.Sprintf("s%d", i%2)}, []string{"h1", "h2"}, SerialPerSession)
	}
	all := must[[]Run](t)(func() ([]Run, error) { r, _, e := db.ListRuns(bg, RunFilter{Limit: 500}); return r, e }())
	if len(all) != 50 {
		t.Fatalf("all: %d", len(all))
	}
	for i := 1; i < len(all); i++ {
		p, c := all[i-1], all[i]
		if c.CreatedAt.After(p.CreatedAt) || (c.CreatedAt.Equal(p.CreatedAt) && c.ID > p.ID) {
			t.Fatalf("order broken at %d", i)
		}
	}

	t.Run("pages_cover_everything_once", func(t *testing.T) {
		var got []string
		cur := ""
		pages := 0
		for {
			page, next, err := db.ListRuns(bg, RunFilter{Limit: 7, Cursor: cur})
			if err != nil {
				t.Fatal(err)
			}
			pages++
			for _, r := range page {
				got = append(got, r.ID)
			}
			if next == "" {
				break
			}
			cur = next
			// Inserting newer rows between pages does not disturb later pages.
			if pages == 2 {
				clk.Advance(time.Minute)
				seedRuns(t, db, "late", []string{"s9"}, []string{"h1"}, SerialPerSession)
			}
		}
		if pages != 8 || len(got) != 50 {
			t.Fatalf("pages %d rows %d", pages, len(got))
		}
		for i, r := range all {
			if got[i] != r.ID {
				t.Fatalf("row %d: %s want %s", i, got[i], r.ID)
			}
		}
	})

	t.Run("filters", func(t *testing.T) {
		count := func(f RunFilter) int {
			f.Limit = 500
			r, _, err := db.ListRuns(bg, f)
			if err != nil {
				t.Fatal(err)
			}
			return len(r)
		}
		if n := count(RunFilter{SessionID: "s0"}); n != 26 {
			t.Fatalf("session s0: %d", n)
		}
		if n := count(RunFilter{HookID: "h2", SessionID: "s1"}); n != 12 {
			t.Fatalf("h2/s1: %d", n)
		}
		if n := count(RunFilter{EventID: "e03-0"}); n != 2 {
			t.Fatalf("event: %d", n)
		}
		if n := count(RunFilter{EventName: "turn.completed", Status: RunQueued}); n != 51 {
			t.Fatalf("name+status: %d", n)
		}
		since := newClock().Now().Add(3 * time.Second)
		until := since.Add(2 * time.Second)
		if n := count(RunFilter{Since: since, Until: until}); n != 12 {
			t.Fatalf("time window: %d", n)
		}
	})

	t.Run("limits_and_bad_cursor", func(t *testing.T) {
		r, _, _ := db.ListRuns(bg, RunFilter{})
		if len(r) != DefaultListLimit {
			t.Fatalf("default limit %d", len(r))
		}
		if _, _, err := db.ListRuns(bg, RunFilter{Cursor: "!!"}); !errors.Is(err, ErrInvalid) {
			t.Fatalf("bad cursor: %v", err)
		}
		if _, err := db.GetRun(bg, "nope"); !errors.Is(err, ErrNotFound) {
			t.Fatalf("GetRun: %v", err)
		}
	})
}

func TestPurgeSession(t *testing.T) {
	db, _ := openTest(t, Options{})
	seedRuns(t, db, "a", []string{"s1", "s1", "s2"}, []string{"h1", "h2"}, SerialPerSession)
	db.Emit(bg, testEvent("pending-s1", "s1"))
	runs, events, err := db.PurgeSession(bg, "s1")
	if err != nil || runs != 4 || events != 3 {
		t.Fatalf("purge s1: runs %d events %d %v", runs, events, err)
	}
	left, _, _ := db.ListRuns(bg, RunFilter{})
	if len(left) != 2 || left[0].SessionID != "s2" {
		t.Fatalf("left %d", len(left))
	}
	if r, e, _ := db.PurgeSession(bg, "s1"); r != 0 || e != 0 {
		t.Fatal("second purge deleted rows")
	}
}

func TestSweep(t *testing.T) {
	clk := newClock()
	db, _ := openTest(t, Options{Now: clk.Now})
	// Day 0: 3 resolved events with 3 runs (2 finished, 1 queued), 2 failed, 1 pending.
	runs := seedRuns(t, db, "old", []string{"s", "s", "s"}, []string{"h"}, Parallel)
	for _, id := range []string{"f1", "f2", "p1"} {
		db.Emit(bg, testEvent(id, "s"))
	}
	for _, id := range []string{"f1", "f2"} {
		db.FailEvent(bg, id, "", "unreadable")
	}
	for _, r := range runs[:2] {
		c, _, _ := db.ClaimRun(bg, "W", time.Minute, clk.Now(), ClaimFilter{})
		db.FinishRun(bg, c.ID, "W", Finish{Status: RunSucceeded})
		_ = r
	}
	clk.Advance(8 * 24 * time.Hour)
	seedRuns(t, db, "new", []string{"s"}, []string{"h"}, Parallel)

	p := RetentionPolicy{ResolvedEventDays: 7, FailedEventDays: 30, RunDays: 0, BatchLimit: 2}
	s := must[Swept](t)(db.Sweep(bg, clk.Now(), p))
	if s.ResolvedEvents != 2 || !s.More || s.FailedEvents != 0 || s.Runs != 0 {
		t.Fatalf("first sweep %+v", s)
	}
	s = must[Swept](t)(db.Sweep(bg, clk.Now(), p))
	if s.ResolvedEvents != 1 || s.More {
		t.Fatalf("second sweep %+v", s)
	}
	// Failed events after 30 days; runs when RunDays is set; queued runs and pending events stay.
	clk.Advance(30 * 24 * time.Hour)
	p.RunDays, p.BatchLimit = 30, 500
	s = must[Swept](t)(db.Sweep(bg, clk.Now(), p))
	if s.FailedEvents != 2 || s.Runs != 2 || s.ResolvedEvents != 1 {
		t.Fatalf("third sweep %+v", s)
	}
	left, _, _ := db.ListRuns(bg, RunFilter{})
	if len(left) != 2 { // the queued old run and the new (not yet finished) run
		t.Fatalf("runs left %d", len(left))
	}
	if _, err := db.GetEvent(bg, "p1"); err != nil {
		t.Fatal("pending event swept")
	}
}
