package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// ---- figure "wake": work another process queued is picked up at once ----

// figWake measures the cross-process wake-up: a shell runs `hookside v2
// emit --file ev.json` (a CLI process of its own) on the home of a running
// app-server whose host declared notifications; the time is from starting
// the CLI to the app-server's host/notification/show request. The CLI's own
// start-up (spawn → exit of `hookside version`, interleaved with the emits)
// is reported too, and the figure net of it. Then the app-server's CPU
// while idle for 30 s (10 s with -quick): no busy polling.
func figWake(e *env) error {
	home, err := os.MkdirTemp(e.tmp, "wakehome-")
	if err != nil {
		return err
	}
	env := childEnv(e.userHome, "HOOKSIDE_HOME="+home)
	p, err := startPeer("hookside", e.cwd, env, e.bin, "app-server", "--stdio", "--log-level", "warn")
	if err != nil {
		return err
	}
	defer p.stop()
	if err := e.handshake(p, v2Init); err != nil {
		return err
	}
	v := p.v2()
	if err := v.notifyOnTurnCompleted(); err != nil {
		return err
	}
	evFile := filepath.Join(home, "ev.json")
	var gross, cli, startup []float64
	n := e.scale(100)
	for i := range n + 5 {
		b, _ := json.Marshal(emitParams("turn.completed", fmt.Sprintf("w%d", i)))
		if err := os.WriteFile(evFile, b, 0o600); err != nil {
			return err
		}
		g, c, err := wakeOnce(v, e.bin, env, evFile)
		if err != nil {
			return fmt.Errorf("emit %d: %w (app-server stderr: %s)", i, err, tail(p.stderr.String()))
		}
		t0 := time.Now()
		cmd := exec.Command(e.bin, "version")
		cmd.Env = env
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("hookside version: %v: %s", err, out)
		}
		if i >= 5 { // warm-up
			gross, cli, startup = append(gross, us(g)), append(cli, us(c)), append(startup, us(time.Since(t0)))
		}
	}
	gs, cs, ss := &series{Name: "emit CLI start → host/notification/show", SamplesUs: gross},
		&series{Name: "emit CLI start → exit", SamplesUs: cli}, &series{Name: "hookside version start → exit", SamplesUs: startup}
	for _, s := range []*series{gs, cs, ss} {
		s.fill()
	}
	e.res.Raw["wake-gross"], e.res.Raw["wake-cli"], e.res.Raw["wake-startup"] = gs, cs, ss
	ok := gs.P50Us <= 20e3 && gs.P99Us <= 100e3
	e.res.addRow(row{Figure: "wake", What: fmt.Sprintf("cross-process wake-up: shell `hookside v2 emit --file ev.json` → host/notification/show on a running app-server on the same home, p50 / p99 (%d emits, one at a time); net of the CLI's start-up", n),
		Hookside:  fmtUs(gs.P50Us) + " / " + fmtUs(gs.P99Us) + "; net " + fmtUs(gs.P50Us-ss.P50Us) + " / " + fmtUs(gs.P99Us-ss.P50Us),
		Baselines: "CLI start-up (`hookside version`, spawn → exit) p50 " + fmtUs(ss.P50Us) + " · the emit CLI, spawn → exit, p50 " + fmtUs(cs.P50Us),
		Ratio:     "—", Target: "p50 ≤ 20 ms, p99 ≤ 100 ms", Met: met(ok) + " (gross)"})
	if !ok {
		e.res.miss("wake")
	}
	e.res.detail("wake", fmt.Sprintf("p50/p90/p99: emit → show %s / %s / %s · emit CLI spawn → exit %s / %s / %s · `hookside version` spawn → exit %s / %s / %s; net = gross − the start-up p50",
		fmtUs(gs.P50Us), fmtUs(gs.P90Us), fmtUs(gs.P99Us), fmtUs(cs.P50Us), fmtUs(cs.P90Us), fmtUs(cs.P99Us), fmtUs(ss.P50Us), fmtUs(ss.P90Us), fmtUs(ss.P99Us)))

	idle := 30 * time.Second
	if e.quick {
		idle = 10 * time.Second
	}
	c0, _ := procCPU(p.pid())
	time.Sleep(idle)
	c1, _ := procCPU(p.pid())
	used := time.Duration(c1 - c0)
	share := used.Seconds() / idle.Seconds() * 100
	e.res.addRow(row{Figure: "wake", What: fmt.Sprintf("app-server CPU while idle for %s (V2 on, wake-up watch on, after the emits)", idle),
		Hookside: fmt.Sprintf("%s (%.2f %% of one core)", used.Round(100*time.Microsecond), share), Baselines: "—", Ratio: "—",
		Target: "no busy polling: ≤ 1 % of one core (harness's bar)", Met: met(share <= 1)})
	return nil
}

// wakeOnce runs one `hookside v2 emit --file` and waits for the
// host/notification/show it causes (answering it and any other host
// request): gross is CLI start → show, cli is CLI start → exit.
func wakeOnce(v *v2peer, bin string, env []string, evFile string) (gross, cli time.Duration, err error) {
	cmd := exec.Command(bin, "v2", "emit", "--file", evFile)
	cmd.Env = env
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	t0 := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, 0, err
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	deadline := time.After(10 * time.Second)
	shown, done := false, false
	for !shown || !done {
		select {
		case werr := <-exited:
			cli, done = time.Since(t0), true
			if werr != nil {
				return 0, 0, fmt.Errorf("hookside v2 emit: %v: %s", werr, out.String())
			}
		case line, ok := <-v.frames:
			if !ok {
				return 0, 0, fmt.Errorf("app-server exited")
			}
			var f frame
			if json.Unmarshal(line, &f) != nil || f.Method == "" || len(f.ID) == 0 {
				continue
			}
			if f.Method == "host/notification/show" && !shown {
				gross, shown = time.Since(t0), true
				v.answerHost(f, `{"shown":true}`)
			} else {
				v.answerHost(f, `{}`)
			}
		case <-deadline:
			return 0, 0, fmt.Errorf("no host/notification/show within 10 s (shown %v, CLI exited %v: %s)", shown, done, out.String())
		}
	}
	return gross, cli, nil
}
