package store

// Figures on the 2-core development VM (fsync ≈ 0.28 ms; noisy when other
// work shares the cores), go test -bench . -benchtime 2s:
//
//	Emit, 1 emitter,   synchronous=FULL     ~1,850 events/s (one fsync per event)
//	Emit, 1 emitter,   synchronous=NORMAL   ~4,800 events/s
//	Emit, 8 emitters,  synchronous=FULL     ~5,000 events/s (group commit)
//	Emit, 8 emitters,  synchronous=NORMAL  ~10,000 events/s
//	EmitBatch(100),    synchronous=FULL    ~23,000 events/s
//	ClaimRun+FinishRun (2,000 queued, serial gate)  ~1.8 ms (two fsynced commits)
//	ListRuns, 50 rows by session with cursor, 10k runs  ~0.75 ms
//	TestEmitHeapIsFlat: 100,000 events, live heap growth ≈ 14 KiB (flat)

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// BenchmarkEmit: one emitter, one durable commit per event.
func BenchmarkEmit(b *testing.B) {
	for _, mode := range []string{"FULL", "NORMAL"} {
		b.Run(mode, func(b *testing.B) {
			db, _ := openTest(b, Options{Synchronous: mode})
			ev := testEvent("x", "s")
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				ev.ID = fmt.Sprintf("e%d", i)
				if _, err := db.Emit(bg, ev); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
		})
	}
}

// BenchmarkEmitConcurrent8: 8 concurrent emitters; the group committer
// coalesces them into shared transactions and fsyncs.
func BenchmarkEmitConcurrent8(b *testing.B) {
	for _, mode := range []string{"FULL", "NORMAL"} {
		b.Run(mode, func(b *testing.B) {
			db, _ := openTest(b, Options{Synchronous: mode})
			var n atomic.Int64
			var wg sync.WaitGroup
			b.ResetTimer()
			for g := range 8 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					ev := testEvent("x", "s")
					for {
						i := n.Add(1)
						if i > int64(b.N) {
							return
						}
						ev.ID = fmt.Sprintf("e%d-%d", g, i)
						if _, err := db.Emit(bg, ev); err != nil {
							b.Error(err)
							return
						}
					}
				}()
			}
			wg.Wait()
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
		})
	}
}

// BenchmarkEmitBatch100: caller-made batches of 100 events, synchronous=FULL.
func BenchmarkEmitBatch100(b *testing.B) {
	db, _ := openTest(b, Options{})
	batch := make([]Event, 100)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j := range batch {
			batch[j] = testEvent(fmt.Sprintf("e%d-%d", i, j), "s")
		}
		if _, err := db.EmitBatch(bg, batch); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*len(batch))/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkClaimRun: claim + finish against a queue of 2,000 runs over 50
// sessions (serial_per_session gate active).
func BenchmarkClaimRun(b *testing.B) {
	db, _ := openTest(b, Options{})
	var sessions []string
	for i := range 2000 {
		sessions = append(sessions, fmt.Sprintf("s%d", i%50))
	}
	seedRuns(b, db, "e", sessions, []string{"h1"}, SerialPerSession)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r, ok, err := db.ClaimRun(bg, "W", time.Minute, time.Now(), ClaimFilter{})
		if err != nil {
			b.Fatal(err)
		}
		if !ok {
			b.StopTimer()
			seedRuns(b, db, fmt.Sprintf("more%d", i), sessions[:200], []string{"h1"}, SerialPerSession)
			b.StartTimer()
			continue
		}
		if _, err := db.FinishRun(bg, r.ID, "W", Finish{Status: RunSucceeded}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkListRuns: one page of 50 from 10,000 runs, filtered by session,
// following the cursor.
func BenchmarkListRuns(b *testing.B) {
	db, _ := openTest(b, Options{Synchronous: "NORMAL"})
	evs := make([]Event, 0, 5000)
	for i := range 5000 {
		evs = append(evs, testEvent(fmt.Sprintf("e%d", i), fmt.Sprintf("s%d", i%10)))
	}
	if _, err := db.EmitBatch(bg, evs); err != nil {
		b.Fatal(err)
	}
	for _, ev := range evs {
		if _, err := db.ResolveEvent(bg, ev.ID, []NewRun{{HookID: "h1"}, {HookID: "h2"}}); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	cur := ""
	for i := 0; i < b.N; i++ {
		runs, next, err := db.ListRuns(bg, RunFilter{SessionID: "s3", Cursor: cur})
		if err != nil || len(runs) == 0 {
			b.Fatal(err, len(runs))
		}
		cur = next
	}
}

// TestEmitHeapIsFlat emits 100,000 events (group commit, 8 emitters) and
// checks the live heap does not grow with the number of events: nothing is
// retained per event after it is acknowledged.
func TestEmitHeapIsFlat(t *testing.T) {
	total := 100_000
	if testing.Short() || raceEnabled {
		total = 4_000 // the race detector makes 100k take minutes; run without -race for the full figure
	}
	db, _ := openTest(t, Options{Synchronous: "NORMAL"})
	heap := func() uint64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	emit := func(from, to int) {
		var wg sync.WaitGroup
		var next atomic.Int64
		next.Store(int64(from))
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ev := testEvent("x", "s")
				for {
					i := next.Add(1)
					if i > int64(to) {
						return
					}
					ev.ID = fmt.Sprintf("h%d", i)
					if _, err := db.Emit(bg, ev); err != nil {
						t.Error(err)
						return
					}
				}
			}()
		}
		wg.Wait()
	}
	emit(0, total/10) // warm up pools and caches
	before := heap()
	emit(total/10, total)
	after := heap()
	growth := int64(after) - int64(before)
	t.Logf("%d events: heap %d KiB → %d KiB (growth %d KiB)", total, before/1024, after/1024, growth/1024)
	if growth > 4<<20 {
		t.Fatalf("heap grew by %d bytes over %d events", growth, total)
	}
}
