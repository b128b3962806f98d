package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// figPhases splits fig. 1's event into three phases on one clock
// (CLOCK_MONOTONIC, shared by the driver and the hook's stamp mode): the
// request written → the hook's main() (the runner's work before the spawn,
// the spawn, exec and the dynamic loader), the hook's main() → its
// answer written (the hook itself, the same program for every runner), and
// that write → the answer read by the driver (the runner's work after the
// hook: exit, reaping, draining, answering). The contenders and their
// order are fig. 1's (the exec core among them). What a runner adds to the
// spawn shows as its phase minus the C floor's; hookside's is split into the
// exec core's (Go and the Run of runner/exec) and its own over the exec core.
func figPhases(e *env) error {
	if _, ok := monoNs(); !ok {
		e.res.addRow(row{Figure: "1p", What: "phases of one event", Hookside: "not measured: no CLOCK_MONOTONIC shared with the hook on this OS", Met: "n/a"})
		return nil
	}
	dir, err := os.MkdirTemp(e.tmp, "phases-")
	if err != nil {
		return err
	}
	// One stamp file for every runner: events run one at a time, so its
	// lines are in the order of the driver's marks.
	stamps := filepath.Join(dir, "stamps")
	t, err := e.startWithCore(hookSpec{argv: []string{e.hookBin, "stamp", stamps}})
	if err != nil {
		return err
	}
	defer t.stop()
	cs := t.contenders(e, `"succeeded"`, `"answers":[{}]`)
	var marks [][2]int64
	var names []string
	for i := range cs {
		name, do := cs[i].name, cs[i].do
		cs[i].do = func() (time.Duration, error) {
			t0, _ := monoNs()
			d, err := do()
			t3, _ := monoNs()
			marks, names = append(marks, [2]int64{t0, t3}), append(names, name)
			return d, err
		}
	}
	const warm = 20
	if _, err := interleave("phases", "fig. 1's event in phases", cs, warm, e.scale(11), 20); err != nil {
		return err
	}
	skip := warm * len(cs) // interleave's warm-up events come first
	ph, err := phasesOf(stamps, marks, skip)
	if err != nil {
		return err
	}
	per := map[string]*[3][]float64{}
	for i, name := range names[skip:] {
		if per[name] == nil {
			per[name] = &[3][]float64{}
		}
		for k := range ph {
			per[name][k] = append(per[name][k], ph[k][i])
		}
	}
	type split struct{ pre, hook, post float64 }
	got := map[string]split{}
	for name, p := range per {
		got[name] = split{quantile(p[0], 0.5), quantile(p[1], 0.5), quantile(p[2], 0.5)}
	}
	hs, cf, ec := got["hookside"], got["C floor"], got["exec core"]
	others := func(f func(split) float64) string {
		var parts []string
		for _, n := range []string{"C floor", "Go floor", "exec core", "node"} {
			parts = append(parts, n+" "+fmtUs(f(got[n])))
		}
		return strings.Join(parts, " · ")
	}
	diff := func(f func(split) float64) string {
		return fmt.Sprintf("hookside − C floor %+.0f µs (exec core − C floor %+.0f µs, hookside − exec core %+.0f µs)",
			f(hs)-f(cf), f(ec)-f(cf), f(hs)-f(ec))
	}
	for _, r := range []struct {
		what string
		f    func(split) float64
	}{
		{"before the hook: request written → the hook's main() (p50): the runner's work, the spawn, exec, the loader", func(s split) float64 { return s.pre }},
		{"the hook: its main() → its answer written (p50; the same program under every runner)", func(s split) float64 { return s.hook }},
		{"after the hook: its answer written → the runner's answer read (p50): exit, reaping, draining, answering", func(s split) float64 { return s.post }},
	} {
		e.res.addRow(row{Figure: "1p", What: r.what, Hookside: fmtUs(r.f(hs)), Baselines: others(r.f), Ratio: diff(r.f), Target: "—", Met: "n/a"})
	}
	e.res.detail("1p", fmt.Sprintf("Fig. 1's contenders in fig. 1's shuffled order, each runner's hook (bench/hook/hook.c stamp) "+
		"writing CLOCK_MONOTONIC at its main() and after its answer, the driver reading the same clock around each request. "+
		"hookside's extra over the C floor at p50: %+.0f µs before the hook, %+.0f µs after it; "+
		"of that, the exec core's over the C floor (Go and the Run of runner/exec) %+.0f µs before, %+.0f µs after, "+
		"and hookside's over the exec core (JSON-RPC, the runner, notifications) %+.0f µs before, %+.0f µs after; "+
		"the hook itself %s under hookside, %s under the exec core, %s under the C floor.",
		hs.pre-cf.pre, hs.post-cf.post, ec.pre-cf.pre, ec.post-cf.post, hs.pre-ec.pre, hs.post-ec.post,
		fmtUs(hs.hook), fmtUs(ec.hook), fmtUs(cf.hook)))
	return nil
}

// phasesOf pairs the stamp file's lines with the driver's marks (both in
// event order) past the first warm ones and returns, in µs, per event:
// mark → start, start → end, end → reply.
func phasesOf(file string, marks [][2]int64, warm int) ([3][]float64, error) {
	var ph [3][]float64
	b, err := os.ReadFile(file)
	if err != nil {
		return ph, err
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != len(marks) {
		return ph, fmt.Errorf("%d stamps for %d events", len(lines), len(marks))
	}
	for i := warm; i < len(lines); i++ {
		var start, end int64
		if _, err := fmt.Sscan(lines[i], &start, &end); err != nil {
			return ph, fmt.Errorf("stamp line %d: %w", i+1, err)
		}
		m := marks[i]
		ph[0] = append(ph[0], float64(start-m[0])/1e3)
		ph[1] = append(ph[1], float64(end-start)/1e3)
		ph[2] = append(ph[2], float64(m[1]-end)/1e3)
	}
	return ph, nil
}
