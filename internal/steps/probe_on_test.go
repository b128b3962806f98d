//go:build stepprobe

package steps

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// With the tag, Mark records each request from FrameRead on and Flush
// writes one line of NumSteps fields per request, 0 for steps not reached.
func TestProbeRecordsAndFlushes(t *testing.T) {
	mu.Lock()
	records, full = nil, false
	mu.Unlock()
	Mark(Handler) // before any request: not recorded
	Mark(FrameRead)
	Mark(Handler)
	Mark(Replied)
	Mark(FrameRead)
	Mark(Spawned)
	file := filepath.Join(t.TempDir(), "steps")
	t.Setenv("HOOKSIDE_STEPS_FILE", file)
	Flush()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d lines, want 2:\n%s", len(lines), b)
	}
	for i, want := range [][]Step{{FrameRead, Handler, Replied}, {FrameRead, Spawned}} {
		f := strings.Fields(lines[i])
		if len(f) != int(NumSteps) {
			t.Fatalf("line %d: %d fields", i, len(f))
		}
		for s := range NumSteps {
			v, _ := strconv.ParseInt(f[s], 10, 64)
			reached := false
			for _, w := range want {
				reached = reached || w == s
			}
			if (v != 0) != reached {
				t.Errorf("line %d step %s = %d, reached %v", i, Names[s], v, reached)
			}
		}
	}
}

// Past maxRecords nothing more is recorded, not even into the last record.
func TestProbeBounded(t *testing.T) {
	mu.Lock()
	records, full = make([][NumSteps]int64, maxRecords), false
	mu.Unlock()
	Mark(FrameRead)
	Mark(Replied)
	mu.Lock()
	defer mu.Unlock()
	if len(records) != maxRecords || records[maxRecords-1][Replied] != 0 {
		t.Fatalf("%d records, last replied %d", len(records), records[maxRecords-1][Replied])
	}
	records, full = nil, false
}
