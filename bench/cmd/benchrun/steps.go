package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/hookside/hookside/internal/steps"
)

// figSteps (fig. 1s) times the steps of fig. 1's event inside hookside: a
// build of cmd/hookside with -tags stepprobe (internal/steps) marks the
// clock at each step of hooks/run, from the request's frame read to its
// reply written, and writes the marks when it exits. It runs fig. 1's hook
// and configuration twice: alone, events one at a time after a warm-up,
// and in fig. 1's place among the other runners of fig. 1 (C floor, Go
// floor, exec core, Node), interleaved in fig. 1's shuffled order, where
// their events run between hookside's and leave its caches cold. Each
// step's figure is the p50 (and p90) of the time since the step before it.
// The probe costs a clock read and a lock per step (well under 1 µs), so
// the build is not the one fig. 1 measures: this figure says where the
// time goes, not how much there is.
func figSteps(e *env) error {
	dir, err := os.MkdirTemp(e.tmp, "steps-")
	if err != nil {
		return err
	}
	bin := filepath.Join(dir, "hookside-stepprobe")
	build := exec.Command("go", "build", "-tags", "stepprobe", "-o", bin, "./cmd/hookside")
	build.Dir = e.root
	if out, err := build.CombinedOutput(); err != nil {
		e.res.addRow(row{Figure: "1s", What: "hookside's steps of one hooks/run", Hookside: "not measured: go build -tags stepprobe: " + oneLine(string(out)), Met: "n/a"})
		return nil
	}
	const warm = 50
	for _, among := range []bool{false, true} {
		file := filepath.Join(dir, fmt.Sprintf("steps-%v", among))
		p, err := e.hooksideBin("hookside (step probe)", bin, userConfig(hookSpec{argv: []string{e.hookBin}}, 1, false, "Bash"), nil, "HOOKSIDE_STEPS_FILE="+file)
		if err != nil {
			return err
		}
		probe := contender{"hookside", func() (time.Duration, error) {
			d, line, err := p.hooksRun("Bash")
			if err == nil && !bytes.Contains(line, []byte(`"succeeded"`)) {
				err = fmt.Errorf("hookside (step probe): answer lacks \"succeeded\": %.300s", line)
			}
			return d, err
		}}
		cs := []contender{probe}
		var t *trio
		if among {
			if t, err = e.startWithCore(hookSpec{argv: []string{e.hookBin}}); err != nil {
				p.stop()
				return err
			}
			cs = t.contenders(e, `"succeeded"`, `"answers":[{}]`)
			cs[0] = probe // fig. 1's contenders with the probe build in hookside's place
		}
		_, err = interleave("steps", "fig. 1's event in hookside's steps", cs, warm, e.scale(11), 20)
		if t != nil {
			t.stop()
		}
		p.stop()
		if err != nil {
			return err
		}
		deltas, total, err := stepDeltas(file, warm)
		if err != nil {
			return err
		}
		var parts []string
		for s := steps.Step(1); s < steps.NumSteps; s++ {
			if d := deltas[s]; len(d) > 0 {
				parts = append(parts, fmt.Sprintf("%s %s (p90 %s)", steps.Names[s], fmtUs(quantile(d, 0.5)), fmtUs(quantile(d, 0.9))))
			}
		}
		where := "hookside alone"
		if among {
			where = "among fig. 1's runners, interleaved"
		}
		e.res.addRow(row{Figure: "1s", What: "hookside's steps of one hooks/run, " + where + " (frame read → reply written, p50; each step: time since the one before)",
			Hookside: fmtUs(quantile(total, 0.5)), Baselines: "—", Ratio: strings.Join(parts, " · "), Target: "—", Met: "n/a"})
	}
	e.res.detail("1s", fmt.Sprintf("A build of cmd/hookside with -tags stepprobe (internal/steps) marks the clock at each step; "+
		"%d warm-up events, then %d rounds of 20. \"spawned\" is fork and exec up to the child's exec "+
		"(the parent waits for it, as posix_spawn does), \"exited\" the hook itself until its leader exits; the steps up to "+
		"\"spawn prepared\" and from \"hook/completed sent\" on are hookside's own, the others the exec core's. "+
		"Among fig. 1's runners the same steps take longer than alone: the other runners' events between hookside's leave its caches cold.",
		warm, e.scale(11)))
	return nil
}

// stepDeltas reads the probe's file (one line per request, nanoseconds per
// step, 0 for a step not reached) past the first warm requests, and
// returns per step the µs since the latest earlier step the request
// reached, and per request the µs from its frame read to its reply, for
// the requests that ran a hook and were answered.
func stepDeltas(file string, warm int) (map[steps.Step][]float64, []float64, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, nil, err
	}
	deltas := map[steps.Step][]float64{}
	var total []float64
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	seen := 0
	for i, line := range lines {
		f := strings.Fields(line)
		if len(f) != int(steps.NumSteps) {
			return nil, nil, fmt.Errorf("%s line %d: %d fields, want %d", file, i+1, len(f), steps.NumSteps)
		}
		var t [steps.NumSteps]int64
		for k := range f {
			if t[k], err = strconv.ParseInt(f[k], 10, 64); err != nil {
				return nil, nil, fmt.Errorf("%s line %d: %w", file, i+1, err)
			}
		}
		if t[steps.Spawned] == 0 || t[steps.Replied] == 0 {
			continue // not a hooks/run that ran a hook (the handshake)
		}
		if seen++; seen <= warm {
			continue
		}
		prev := steps.FrameRead
		for s := steps.Step(1); s < steps.NumSteps; s++ {
			if t[s] == 0 {
				continue
			}
			deltas[s] = append(deltas[s], float64(t[s]-t[prev])/1e3)
			prev = s
		}
		total = append(total, float64(t[steps.Replied]-t[steps.FrameRead])/1e3)
	}
	if len(total) == 0 {
		return nil, nil, fmt.Errorf("%s: no answered hooks/run past the %d warm-up ones", file, warm)
	}
	return deltas, total, nil
}
