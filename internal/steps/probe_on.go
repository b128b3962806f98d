//go:build stepprobe

package steps

import (
	"bufio"
	"fmt"
	"os"
	"sync"
	"time"
)

// maxRecords bounds the records kept: requests past it are not recorded.
const maxRecords = 1 << 16

var (
	mu      sync.Mutex
	records [][NumSteps]int64
	full    bool
)

// Mark records s for the current request; FrameRead starts a new one.
func Mark(s Step) {
	now := time.Now().UnixNano()
	mu.Lock()
	defer mu.Unlock()
	if s == FrameRead {
		if full = full || len(records) == maxRecords; !full {
			records = append(records, [NumSteps]int64{})
		}
	}
	if n := len(records); n > 0 && !full {
		records[n-1][s] = now
	}
}

// Flush writes one line per record to $HOOKSIDE_STEPS_FILE (nothing when
// it is unset).
func Flush() {
	path := os.Getenv("HOOKSIDE_STEPS_FILE")
	if path == "" {
		return
	}
	mu.Lock()
	defer mu.Unlock()
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "steps:", err)
		return
	}
	w := bufio.NewWriter(f)
	for _, r := range records {
		for i, t := range r {
			if i > 0 {
				w.WriteByte(' ')
			}
			fmt.Fprint(w, t)
		}
		w.WriteByte('\n')
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, "steps:", err)
	}
	_ = f.Close()
}
