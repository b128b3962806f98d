package v2bridge

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hookside/hookside/v2bridge/store"
)

// chanHost answers every call at once and reports when it was called.
type chanHost struct{ at chan time.Time }

func (h chanHost) Call(_ context.Context, method string, _, result any) error {
	h.at <- time.Now()
	return json.Unmarshal([]byte(`{"shown":true,"played":true}`), result)
}

// BenchmarkEmitToHostRequest measures the latency from v2/events/emit (the
// durable, fsynced write) to the host request of the action, with one bound
// definition (synchronous=FULL, the production setting). Reports p50/p99.
func BenchmarkEmitToHostRequest(b *testing.B) {
	home := b.TempDir()
	br, err := Open(Options{Home: home, Logger: quietLogger()})
	if err != nil {
		b.Fatal(err)
	}
	defer br.Close(0)
	h := chanHost{at: make(chan time.Time, 1)}
	br.AttachHost(h, []string{"sound"})
	res, err := br.CreateDefinition(bg, json.RawMessage(`{"name":"s","eventName":"turn.completed","action":{"type":"sound"}}`))
	if err != nil {
		b.Fatal(err)
	}
	if _, err := br.CreateBinding(bg, res.Definition.ID, store.ScopeApplication, ""); err != nil {
		b.Fatal(err)
	}
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		start := time.Now()
		// a new session each time so serial_per_session never waits on the
		// previous run's finish write
		if _, err := br.Emit(bg, EmitParams{EventName: "turn.completed", Session: sess(fmt.Sprintf("s%d", i)), Turn: turn(fmt.Sprintf("t%d", i))}); err != nil {
			b.Fatal(err)
		}
		at := <-h.at
		lat = append(lat, at.Sub(start))
	}
	b.StopTimer()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
}

// BenchmarkEmitDurable measures acknowledged (committed, fsynced) emits per
// second from 32 concurrent emitters, with an enabled definition so nothing
// is short-circuited (the dispatcher resolves the events meanwhile).
func BenchmarkEmitDurable(b *testing.B) {
	home := b.TempDir()
	br, err := Open(Options{Home: home, Logger: quietLogger()})
	if err != nil {
		b.Fatal(err)
	}
	defer br.Close(0)
	if _, err := br.CreateDefinition(bg, json.RawMessage(`{"name":"s","eventName":"turn.completed","action":{"type":"sound"}}`)); err != nil {
		b.Fatal(err)
	}
	var n atomic.Int64
	b.SetParallelism(32)
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			i := n.Add(1)
			if _, err := br.Emit(bg, EmitParams{EventName: "turn.completed", Session: sess("s"), Turn: turn(fmt.Sprintf("t%d", i))}); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64(n.Load())/time.Since(start).Seconds(), "events/s")
}
