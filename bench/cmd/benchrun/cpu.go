package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// procCPU is the CPU time a process's threads have spent running so far,
// in nanoseconds, from /proc/<pid>/task/*/schedstat (Linux; ok is false
// elsewhere). Its children's time is not in it: a hookside's own cost per
// event, without the hook processes', which both builds share.
func procCPU(pid int) (ns int64, ok bool) {
	tasks, err := filepath.Glob(filepath.Join("/proc", strconv.Itoa(pid), "task", "*", "schedstat"))
	if err != nil || len(tasks) == 0 {
		return 0, false
	}
	for _, t := range tasks {
		b, err := os.ReadFile(t)
		if err != nil {
			continue // a thread that ended meanwhile
		}
		f := strings.Fields(string(b))
		if len(f) == 0 {
			return 0, false
		}
		n, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return 0, false
		}
		ns += n
	}
	return ns, true
}

// cpuMeter measures the CPU time of the two builds and of the C floor over
// the same events.
type cpuMeter struct {
	pids [3]int // A, B, C floor
	t0   [3]int64
	ok   bool
}

func startCPU(pidA, pidB, pidFloor int) *cpuMeter {
	m := &cpuMeter{pids: [3]int{pidA, pidB, pidFloor}, ok: true}
	for i, p := range m.pids {
		var ok bool
		m.t0[i], ok = procCPU(p)
		m.ok = m.ok && ok
	}
	return m
}

// result returns "CPU per event A ÷ B r (A x, B y, C floor z)" for events
// events each, or "" where CPU time cannot be read.
func (m *cpuMeter) result(events int) string {
	per, ok := m.perEvent(events)
	if !ok {
		return ""
	}
	return fmt.Sprintf(" · CPU per event A ÷ B %.2f× (A %s, B %s, C floor %s)", float64(per[0])/float64(per[1]), fmtUs(us(per[0])), fmtUs(us(per[1])), fmtUs(us(per[2])))
}

// perEvent is each process's CPU time since startCPU divided by events
// (A, B, C floor); ok is false where CPU time cannot be read.
func (m *cpuMeter) perEvent(events int) (per [3]time.Duration, ok bool) {
	for i, p := range m.pids {
		t1, ok := procCPU(p)
		if !m.ok || !ok || events == 0 || t1 == m.t0[i] {
			return per, false
		}
		per[i] = time.Duration((t1 - m.t0[i]) / int64(events))
	}
	return per, true
}
