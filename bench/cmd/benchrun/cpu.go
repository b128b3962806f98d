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

// cpuMeter measures the CPU time of two processes over the same events.
type cpuMeter struct {
	pidA, pidB int
	a0, b0     int64
	ok         bool
}

func startCPU(pidA, pidB int) *cpuMeter {
	m := &cpuMeter{pidA: pidA, pidB: pidB}
	var okA, okB bool
	m.a0, okA = procCPU(pidA)
	m.b0, okB = procCPU(pidB)
	m.ok = okA && okB
	return m
}

// result returns "CPU per event A ÷ B r (A x, B y)" for events events
// each, or "" where CPU time cannot be read.
func (m *cpuMeter) result(events int) string {
	a1, okA := procCPU(m.pidA)
	b1, okB := procCPU(m.pidB)
	if !m.ok || !okA || !okB || events == 0 || b1 == m.b0 {
		return ""
	}
	a := time.Duration((a1 - m.a0) / int64(events))
	b := time.Duration((b1 - m.b0) / int64(events))
	return fmt.Sprintf(" · CPU per event A ÷ B %.2f× (A %s, B %s)", float64(a)/float64(b), fmtUs(us(a)), fmtUs(us(b)))
}
