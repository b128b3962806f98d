package main

import (
	"encoding/json"
	"fmt"
	"io"
	"time"
)

// against compares the binary under test (A) with another build (B) on one
// trivial hook and on 4 sequential hooks, interleaved with the C floor in
// one run, and prints the ratios to w (A ÷ B, A ÷ C floor, B ÷ C floor).
// initB, a JSON object, is merged into B's initialize params (to measure
// an option such as capabilities.optOutNotifications against the
// default). It is how a change to the spawn path is kept or dropped: only
// what moves A ÷ B is kept. Where /proc is readable it also prints the CPU
// time each hookside spent per event (its own threads, not its hooks'): a
// figure a loaded machine disturbs less than latency. profile "claude"
// runs both builds in a claude-profile session (claudeHookside: command
// hooks, which Claude Code's contract runs through a shell, so the C
// floor's ratio is not comparable there; A ÷ B is).
func against(e *env, binB, initB, profile string, rounds int, w io.Writer) error {
	if profile != "zcode" && profile != "claude" {
		return fmt.Errorf("-against-profile %q: want zcode or claude", profile)
	}
	var extra map[string]any
	if initB != "" {
		if err := json.Unmarshal([]byte(initB), &extra); err != nil {
			return fmt.Errorf("-against-init: %w", err)
		}
	}
	h := hookSpec{argv: []string{e.hookBin}}
	for _, n := range []int{1, 4} {
		start := func(name string, extra map[string]any) (*peer, error) {
			if profile == "claude" {
				return e.claudeHookside(name, e.hookBin, n, extra)
			}
			return e.hookside(name, userConfig(h, n, false, "Bash"), extra)
		}
		a, err := start("A", nil)
		if err != nil {
			return err
		}
		binA := e.bin
		e.bin = binB
		b, err := start("B", extra)
		e.bin = binA
		if err != nil {
			a.stop()
			return err
		}
		cf, err := e.cfloorPeer(n, false, 0, h.argv)
		if err != nil {
			a.stop()
			b.stop()
			return err
		}
		hs := func(p *peer) func() (time.Duration, error) {
			return func() (time.Duration, error) {
				d, _, err := p.hooksRun("Bash")
				return d, err
			}
		}
		cs := []contender{{"A", hs(a)}, {"B", hs(b)}, {"C floor", func() (time.Duration, error) {
			d, _, err := cf.floorRun(e)
			return d, err
		}}}
		cpu := startCPU(a.pid(), b.pid(), cf.pid())
		cmp, err := interleave(fmt.Sprintf("against-%d", n), "", cs, 20, e.scale(rounds), 20)
		cpuLine := cpu.result(20 + e.scale(rounds)*20)
		a.stop()
		b.stop()
		cf.stop()
		if err != nil {
			return err
		}
		ab, ac, bc := cmp.addRatio("A", "B"), cmp.addRatio("A", "C floor"), cmp.addRatio("B", "C floor")
		fmt.Fprintf(w, "%d hook(s): A ÷ B %s · A ÷ C floor %s · B ÷ C floor %s · p50 A %s, B %s, C floor %s%s · load %s\n",
			n, ab, ac, bc, fmtUs(cmp.get("A").P50Us), fmtUs(cmp.get("B").P50Us), fmtUs(cmp.get("C floor").P50Us), cpuLine, loadavg())
	}
	return nil
}
