package main

import (
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestIdleCPUAndPerEvent reads the CPU time of two real processes, as
// fig. 1g does for two idle servers.
func TestIdleCPUAndPerEvent(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skipf("fig. 1g reads /proc/<pid>/task/*/schedstat, which %s has not", runtime.GOOS)
	}
	var pids [3]int
	for i := range pids {
		c := exec.Command("sh", "-c", "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done; sleep 5")
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = c.Process.Kill(); _ = c.Wait() })
		pids[i] = c.Process.Pid
	}
	m := startCPU(pids[0], pids[1], pids[2])
	got := idleCPU(pids[0], pids[1], 200*time.Millisecond)
	if !strings.HasPrefix(got, "hookside ") || !strings.Contains(got, " · sysmon awake ") || strings.Count(got, "% of one core") != 2 {
		t.Fatalf("idleCPU = %q", got)
	}
	per, ok := m.perEvent(10)
	if !ok {
		t.Fatalf("perEvent: no CPU time read for busy processes")
	}
	for i, d := range per {
		if d <= 0 {
			t.Errorf("perEvent[%d] = %v, want > 0 (the shell loop ran meanwhile)", i, d)
		}
	}
	if _, ok := m.perEvent(0); ok {
		t.Errorf("perEvent(0) reported ok")
	}
}
