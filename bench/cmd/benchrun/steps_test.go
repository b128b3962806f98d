package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookside/hookside/internal/steps"
)

// stepDeltas skips records without a hook or a reply and the warm ones,
// and measures each step from the latest earlier step reached.
func TestStepDeltas(t *testing.T) {
	line := func(set map[steps.Step]int64) string {
		f := make([]string, steps.NumSteps)
		for s := range steps.NumSteps {
			f[s] = fmt.Sprint(set[s])
		}
		return strings.Join(f, " ")
	}
	run := func(base int64) string {
		return line(map[steps.Step]int64{steps.FrameRead: base, steps.Handler: base + 3000, steps.Spawned: base + 10000, steps.Replied: base + 50000})
	}
	file := filepath.Join(t.TempDir(), "steps")
	body := strings.Join([]string{
		line(map[steps.Step]int64{steps.FrameRead: 1, steps.Replied: 2}), // the handshake: no hook
		run(1000), // warm
		run(2000000),
		run(3000000),
	}, "\n") + "\n"
	if err := os.WriteFile(file, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	d, total, err := stepDeltas(file, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(total) != 2 || total[0] != 50 {
		t.Fatalf("total = %v", total)
	}
	if got := d[steps.Handler]; len(got) != 2 || got[0] != 3 {
		t.Fatalf("handler = %v", got)
	}
	if got := d[steps.Spawned]; got[0] != 7 { // since handler, the latest earlier step reached
		t.Fatalf("spawned = %v", got)
	}
	if _, ok := d[steps.Input]; ok {
		t.Fatalf("a step not reached has figures: %v", d[steps.Input])
	}
	if err := os.WriteFile(file, []byte("1 2 3\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := stepDeltas(file, 0); err == nil || !strings.Contains(err.Error(), "fields") {
		t.Fatalf("short line: %v", err)
	}
}
