package main

import (
	"fmt"
	"time"
)

// sysmonAwake is the environment entry that keeps the Go runtime's system
// monitor out of its deep sleep: with schedtrace > 0 sysmon never parks
// (runtime/proc.go, sysmon), and 2147483647 ms (its int32 maximum, about
// 24.8 days) keeps the trace line it would print to stderr from appearing
// on a machine up for less than that.
const sysmonAwake = "GODEBUG=schedtrace=2147483647"

// sysmonIdle is how long figSysmon leaves both servers idle to weigh the
// idle cost of a sysmon that never parks.
const sysmonIdle = 5 * time.Second

// figSysmon (fig. 1g) measures what the Go runtime's system monitor costs
// fig. 1's event, as a reference for the part of hookside ÷ C floor that a
// Go runner pays and a C one does not. Sysmon parks when every processor
// is idle, as hookside's are between two requests; the request's first
// system call wakes it with its poll interval reset to 20 µs (about 70 µs
// with Linux's default timer slack), and it keeps waking at that rate for
// the whole event: on the hook's CPU it delays the hook, and at exec(2) it
// makes the kernel move the new process to the other CPU. The figure runs
// fig. 1's event (and 4 sequential hooks) on hookside as built and on the
// same binary with sysmon kept out of its deep sleep (sysmonAwake),
// interleaved with the C floor, and reports latency, CPU time per event
// and the CPU both spend idle for sysmonIdle afterwards: that a sysmon that
// never parks wakes every 10 ms while the server idles is why hookside
// does not run that way.
func figSysmon(e *env) error {
	h := hookSpec{argv: []string{e.hookBin}}
	for _, n := range []int{1, 4} {
		// Two trios of one hookside each, the C floor in the first.
		t, awt := &trio{}, &trio{}
		stopAll := func() { t.stop(); awt.stop() }
		var err error
		if t.hs, err = e.hookside("hookside", userConfig(h, n, false, "Bash"), nil); err == nil {
			awt.hs, err = e.hooksideBin("hookside (sysmon awake)", e.bin, userConfig(h, n, false, "Bash"), nil, sysmonAwake)
		}
		if err == nil {
			t.cf, err = e.cfloorPeer(n, false, 0, h.argv)
		}
		if err != nil {
			stopAll()
			return err
		}
		cs := t.contenders(e, `"succeeded"`, "") // hookside, C floor
		awake := awt.contenders(e, `"succeeded"`, "")[0]
		awake.name = "sysmon awake"
		cs = []contender{cs[0], awake, cs[1]}
		hs, aw, cf := t.hs, awt.hs, t.cf
		const warm, perRound = 20, 20
		rounds := e.scale(21)
		cpu := startCPU(hs.pid(), aw.pid(), cf.pid())
		cmp, err := interleave(fmt.Sprintf("sysmon-%d", n), fmt.Sprintf("%d sequential trivial hook(s): hookside as built and with the Go runtime's sysmon kept out of deep sleep", n), cs, warm, rounds, perRound)
		per, cpuOK := cpu.perEvent(warm + rounds*perRound)
		var idle string
		if err == nil && n == 1 {
			idle = idleCPU(hs.pid(), aw.pid(), sysmonIdle)
		}
		stopAll()
		if err != nil {
			return err
		}
		e.res.addComparison(cmp)
		rh, ra, rc := cmp.addRatio("sysmon awake", "hookside"), cmp.addRatio("sysmon awake", "C floor"), cmp.addRatio("hookside", "C floor")
		cpuText := "CPU per event not read (no /proc)"
		if cpuOK {
			cpuText = fmt.Sprintf("CPU per event: hookside %s, sysmon awake %s (%.2f×), C floor %s", fmtUs(us(per[0])), fmtUs(us(per[1])), float64(per[1])/float64(per[0]), fmtUs(us(per[2])))
		}
		e.res.addRow(row{Figure: "1g", What: fmt.Sprintf("%d trivial hook(s), end to end: hookside with the Go runtime's sysmon kept out of deep sleep (%s) ÷ hookside as built (reference: what sysmon costs; not how hookside runs)", n, sysmonAwake),
			Hookside:  fmtUs(cmp.get("hookside").P50Us),
			Baselines: fmt.Sprintf("sysmon awake %s · C floor %s · %s", fmtUs(cmp.get("sysmon awake").P50Us), fmtUs(cmp.get("C floor").P50Us), cpuText),
			Ratio:     fmt.Sprintf("%s (sysmon awake ÷ C floor %s; hookside ÷ C floor %s)", rh, ra, rc),
			Target:    "—", Met: "n/a"})
		if idle != "" {
			e.res.addRow(row{Figure: "1g", What: fmt.Sprintf("idle CPU over %s after fig. 1g's events: hookside as built and with sysmon kept out of deep sleep (the cost that keeps it so)", sysmonIdle),
				Hookside: idle, Baselines: "—", Ratio: "—", Target: "—", Met: "n/a"})
		}
	}
	e.res.detail("1g", "Sysmon is the Go runtime's monitor thread. It parks when every processor is idle, as hookside's are between requests; "+
		"a request's first system call wakes it with its interval reset to 20 µs, and it wakes that often for the rest of the event (it backs off only after 1 ms with nothing to do). "+
		"Each wake-up costs CPU time, can land on the hook's CPU and delay it, and at exec(2) a runnable sysmon makes the kernel move the new process to the other CPU. "+
		"The C floor has no such thread. Kept out of its deep sleep (GODEBUG=schedtrace=N, N > 0: sysmon never parks), sysmon backs off to one wake-up per 10 ms and stays there during events, "+
		"but it also wakes every 10 ms while the server idles, and the setting prints a scheduler line to stderr every N ms: hookside is built and run without it.")
	return nil
}

// idleCPU is the CPU time two servers spend over d without requests, as
// "hookside X ms (P % of one core) · sysmon awake Y ms (Q % of one core)",
// or "" where CPU time cannot be read (no /proc).
func idleCPU(pidA, pidB int, d time.Duration) string {
	a0, okA := procCPU(pidA)
	b0, okB := procCPU(pidB)
	if !okA || !okB {
		return ""
	}
	time.Sleep(d)
	a1, okA := procCPU(pidA)
	b1, okB := procCPU(pidB)
	if !okA || !okB {
		return ""
	}
	pct := func(ns int64) float64 { return float64(ns) / float64(d.Nanoseconds()) * 100 }
	return fmt.Sprintf("hookside %.1f ms (%.2f %% of one core) · sysmon awake %.1f ms (%.2f %% of one core)", float64(a1-a0)/1e6, pct(a1-a0), float64(b1-b0)/1e6, pct(b1-b0))
}
