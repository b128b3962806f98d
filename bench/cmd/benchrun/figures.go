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
)

// trio starts hookside, the two floors (C, Go) and the Node runner on the
// same hook; with startWithCore (figs. 1 and 1p) the exec core too.
type trio struct {
	hs, cf, fl, ec, nd *peer
}

func (e *env) startTrio(h hookSpec, n int, parallel bool) (*trio, error) {
	t := &trio{}
	var err error
	if t.hs, err = e.hookside("hookside", userConfig(h, n, parallel, "Bash"), nil); err != nil {
		return nil, err
	}
	timeout := time.Duration(h.timeoutMs) * time.Millisecond
	if t.cf, err = e.cfloorPeer(n, parallel, timeout, h.argv); err != nil {
		t.stop()
		return nil, err
	}
	if t.fl, err = e.floorPeer(n, parallel, timeout, h.argv); err != nil {
		t.stop()
		return nil, err
	}
	if t.nd, err = e.nodePeer(n, parallel, timeout, h.argv); err != nil {
		t.stop()
		return nil, err
	}
	return t, nil
}

// startWithCore is startTrio for one hook, plus the exec core
// (bench/cmd/floor -core): fig. 1's five runners.
func (e *env) startWithCore(h hookSpec) (*trio, error) {
	t, err := e.startTrio(h, 1, false)
	if err != nil {
		return nil, err
	}
	if t.ec, err = e.corePeer(1, false, time.Duration(h.timeoutMs)*time.Millisecond, h.argv); err != nil {
		t.stop()
		return nil, err
	}
	return t, nil
}

func (t *trio) stop() {
	for _, p := range []*peer{t.hs, t.cf, t.fl, t.ec, t.nd} {
		if p != nil {
			p.stop()
		}
	}
}

// contenders returns the event functions of the started peers, in the
// order hookside, C floor, Go floor, exec core, node; want checks each
// answer.
func (t *trio) contenders(e *env, wantHS, wantNode string) []contender {
	check := func(name string, line []byte, want string) error {
		if want != "" && !bytes.Contains(line, []byte(want)) {
			return fmt.Errorf("%s: answer lacks %s: %.300s", name, want, line)
		}
		return nil
	}
	var cs []contender
	if t.hs != nil {
		cs = append(cs, contender{"hookside", func() (time.Duration, error) {
			d, line, err := t.hs.hooksRun("Bash")
			if err == nil {
				err = check(t.hs.name, line, wantHS)
			}
			return d, err
		}})
	}
	for _, f := range []*peer{t.cf, t.fl, t.ec} {
		if f != nil {
			cs = append(cs, contender{f.name, func() (time.Duration, error) {
				d, _, err := f.floorRun(e)
				return d, err
			}})
		}
	}
	if t.nd != nil {
		cs = append(cs, contender{"node", func() (time.Duration, error) {
			d, line, err := t.nd.nodeRun(e)
			if err == nil {
				err = check("node", line, wantNode)
			}
			return d, err
		}})
	}
	return cs
}

func metWord(ok bool) string {
	if ok {
		return "met"
	}
	return "**missed**"
}

func met(ok bool) string {
	if ok {
		return "yes"
	}
	return "**no**"
}

// ---- figure 1 ----

func fig1OneHook(e *env) error {
	t, err := e.startWithCore(hookSpec{argv: []string{e.hookBin}})
	if err != nil {
		return err
	}
	defer t.stop()
	cmp, err := interleave("fig1", "one trivial process hook, request in → merged answer out", t.contenders(e, `"succeeded"`, `"answers":[{}]`), 20, e.scale(21), 20)
	if err != nil {
		return err
	}
	rc := cmp.addRatio("hookside", "C floor")
	rf := cmp.addRatio("hookside", "Go floor")
	rn := cmp.addRatio("node", "hookside")
	// hookside ÷ C floor decomposed: Go and hookside's process-execution
	// core (exec core ÷ C floor), then the protocol and runner layers
	// around it (hookside ÷ exec core).
	rec := cmp.addRatio("exec core", "C floor")
	rhe := cmp.addRatio("hookside", "exec core")
	e.res.addComparison(cmp)
	hs, cf, fl, ec, nd := cmp.get("hookside"), cmp.get("C floor"), cmp.get("Go floor"), cmp.get("exec core"), cmp.get("node")
	e.res.addRow(row{Figure: "1", What: "one trivial hook, end to end: hookside ÷ C floor (posix_spawn + poll)",
		Hookside: fmtUs(hs.P50Us), Baselines: "C floor " + fmtUs(cf.P50Us), Ratio: rc.String(),
		Target: "≤ 1.15× (aim 1.10×)", Met: met(rc.Median <= 1.15)})
	e.res.addRow(row{Figure: "1", What: "one trivial hook, end to end: hookside ÷ Go floor (os/exec; reference)",
		Hookside: fmtUs(hs.P50Us), Baselines: "Go floor " + fmtUs(fl.P50Us), Ratio: rf.String(),
		Target: "—", Met: "n/a"})
	e.res.addRow(row{Figure: "1", What: "one trivial hook, end to end: exec core ÷ C floor (hookside's Run of runner/exec in a bare Go process: Go and the process-execution core; reference)",
		Hookside: fmtUs(hs.P50Us), Baselines: "exec core " + fmtUs(ec.P50Us) + " · C floor " + fmtUs(cf.P50Us), Ratio: rec.String(),
		Target: "—", Met: "n/a"})
	e.res.addRow(row{Figure: "1", What: "one trivial hook, end to end: hookside ÷ exec core (the protocol and runner layers around the core; reference)",
		Hookside: fmtUs(hs.P50Us), Baselines: "exec core " + fmtUs(ec.P50Us), Ratio: rhe.String(),
		Target: "—", Met: "n/a"})
	e.res.addRow(row{Figure: "1", What: "one trivial hook, end to end: Node runner ÷ hookside",
		Hookside: fmtUs(hs.P50Us), Baselines: "node " + fmtUs(nd.P50Us), Ratio: rn.String(),
		Target: "≥ 1.60×", Met: met(rn.Median >= 1.6)})
	if rc.Median > 1.15 {
		e.res.miss("fig1")
	}
	e.res.Standing = append(e.res.Standing,
		fmt.Sprintf("one trivial hook end to end: hookside ÷ C floor %s against ≤ 1.15× (aim 1.10×): %s; hookside ÷ Go floor %s (reference)", rc, metWord(rc.Median <= 1.15), rf),
		fmt.Sprintf("hookside ÷ C floor decomposed: exec core ÷ C floor %s (Go and hookside's runner/exec core), hookside ÷ exec core %s (hookside's protocol and runner layers)", rec, rhe),
		fmt.Sprintf("Node runner ÷ hookside %s against ≥ 1.60×: %s", rn, metWord(rn.Median >= 1.6)))
	e.res.detail("1", fmt.Sprintf("p50/p90/p99: hookside %s / %s / %s · C floor %s / %s / %s · Go floor %s / %s / %s · exec core %s / %s / %s · node %s / %s / %s. "+
		"hookside's overhead over the C floor at p50: %s per event (it also sends hook/started and hook/completed notifications, "+
		"runs the hook in its own process group with a run token, a pidfd and a janitor record), "+
		"of which %s is the exec core's over the C floor (Go and the Run of runner/exec: the process group, token, pidfd and janitor record) "+
		"and %s hookside's over the exec core (JSON-RPC, the runner, notifications).",
		fmtUs(hs.P50Us), fmtUs(hs.P90Us), fmtUs(hs.P99Us), fmtUs(cf.P50Us), fmtUs(cf.P90Us), fmtUs(cf.P99Us),
		fmtUs(fl.P50Us), fmtUs(fl.P90Us), fmtUs(fl.P99Us), fmtUs(ec.P50Us), fmtUs(ec.P90Us), fmtUs(ec.P99Us),
		fmtUs(nd.P50Us), fmtUs(nd.P90Us), fmtUs(nd.P99Us), fmtUs(hs.P50Us-cf.P50Us), fmtUs(ec.P50Us-cf.P50Us), fmtUs(hs.P50Us-ec.P50Us)))
	e.overheadUs = hs.P50Us - cf.P50Us
	return nil
}

// ---- figure 2 ----

func fig2ManyHooks(e *env) error {
	h := hookSpec{argv: []string{e.hookBin}}
	p50 := map[string]map[int]float64{"hookside": {}, "C floor": {}, "Go floor": {}, "node": {}}
	plan := []struct{ n, rounds, per int }{{1, 9, 10}, {4, 7, 8}, {16, 5, 6}}
	for _, pl := range plan {
		if err := e.fig2One(h, pl.n, false, pl.rounds, pl.per, p50); err != nil {
			return err
		}
	}
	for _, name := range []string{"hookside", "C floor", "Go floor", "node"} {
		if a, b := p50[name][1], p50[name][16]; a > 0 && b > 0 {
			e.res.detail("2", fmt.Sprintf("marginal cost of one more sequential hook (p50(16) − p50(1)) ÷ 15: %s %s", name, fmtUs((b-a)/15)))
		}
	}
	// Parallel groups: does this build honour "parallel": true?
	supported, evidence, err := e.parallelProbe()
	if err != nil {
		return err
	}
	e.res.detail("2", "parallel probe: "+evidence)
	if !supported {
		e.res.addRow(row{Figure: "2", What: `4 and 16 hooks, "parallel": true group`, Hookside: "not supported by this build",
			Baselines: "—", Ratio: "—", Target: "—", Met: "not measured", Note: evidence})
		return nil
	}
	for _, pl := range plan[1:] {
		if err := e.fig2One(h, pl.n, true, pl.rounds, pl.per, nil); err != nil {
			return err
		}
	}
	return nil
}

func (e *env) fig2One(h hookSpec, n int, parallel bool, rounds, per int, p50 map[string]map[int]float64) error {
	t, err := e.startTrio(h, n, parallel)
	if err != nil {
		return err
	}
	defer t.stop()
	mode := "sequential"
	if parallel {
		mode = "parallel"
	}
	hooks := "hooks"
	if n == 1 {
		hooks = "hook"
	}
	cmp, err := interleave(fmt.Sprintf("fig2-%d-%s", n, mode), fmt.Sprintf("%d %s on one event, %s", n, hooks, mode), t.contenders(e, `"succeeded"`, `"answers":[{}`), 3, e.scale(rounds), per)
	if err != nil {
		return err
	}
	rc := cmp.addRatio("hookside", "C floor")
	rf := cmp.addRatio("hookside", "Go floor")
	rn := cmp.addRatio("node", "hookside")
	e.res.addComparison(cmp)
	hs, cf, fl, nd := cmp.get("hookside"), cmp.get("C floor"), cmp.get("Go floor"), cmp.get("node")
	if p50 != nil {
		p50["hookside"][n], p50["C floor"][n], p50["Go floor"][n], p50["node"][n] = hs.P50Us, cf.P50Us, fl.P50Us, nd.P50Us
	}
	bar, target := 1.20, "≤ 1.20× (harness's bar)"
	switch {
	case n == 1 && !parallel:
		bar, target = 1.15, "≤ 1.15× (as fig. 1)"
	case n == 4 && !parallel:
		bar, target = 1.10, "≤ 1.10×"
	}
	e.res.addRow(row{Figure: "2", What: fmt.Sprintf("%d %s, %s: hookside ÷ C floor; hookside ÷ Go floor; Node ÷ hookside", n, hooks, mode),
		Hookside:  fmtUs(hs.P50Us),
		Baselines: "C floor " + fmtUs(cf.P50Us) + " · Go floor " + fmtUs(fl.P50Us) + " · node " + fmtUs(nd.P50Us),
		Ratio:     rc.String() + "; " + rf.String() + "; " + rn.String(),
		Target:    target + "; —; ≥ 1.60×", Met: met(rc.Median <= bar && rn.Median >= 1.6)})
	if rc.Median > bar {
		e.res.miss("fig1")
	}
	if n == 4 && !parallel {
		e.res.Standing = append(e.res.Standing, fmt.Sprintf("4 sequential hooks: hookside ÷ C floor %s against ≤ 1.10×: %s; Node ÷ hookside %s", rc, metWord(rc.Median <= 1.10), rn))
	}
	return nil
}

// parallelProbe runs two 200 ms hooks in a "parallel": true group once.
func (e *env) parallelProbe() (bool, string, error) {
	listed := "hooks list --json: "
	p, err := e.hookside("hookside", userConfig(hookSpec{argv: []string{e.hookBin, "sleepms", "200"}}, 2, true, "Bash"), nil)
	if err != nil {
		return false, "", err
	}
	defer p.stop()
	if m, err := p.call("hooks/list", map[string]any{"sessionId": "s1"}); err == nil {
		if strings.Contains(fmt.Sprint(m), "parallel:true") {
			listed += `shows "parallel": true`
		} else {
			listed += `no "parallel" field on the hooks`
		}
	}
	d, line, err := p.hooksRun("Bash")
	if err != nil {
		return false, "", err
	}
	if c := bytes.Count(line, []byte(`"succeeded"`)); c != 2 {
		return false, "", fmt.Errorf("parallel probe: %d hooks succeeded: %.300s", c, line)
	}
	ok := d < 330*time.Millisecond
	verdict := "ran one after the other"
	if ok {
		verdict = "ran at once"
	}
	return ok, fmt.Sprintf(`two 200 ms hooks in a "parallel": true group took %s (%s); hooks/list over RPC: %s`, d.Round(time.Millisecond), verdict, strings.TrimPrefix(listed, "hooks list --json: ")), nil
}

// ---- figure 4 ----

func fig4ColdStart(e *env) error {
	home := e.tmp + "/cold-home"
	cfg := userConfig(hookSpec{argv: []string{e.hookBin}}, 1, false, "Bash")
	if err := writeJSON(home+"/config.json", cfg); err != nil {
		return err
	}
	env := childEnv(e.userHome, "HOOKSIDE_HOME="+home)
	initLine := []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"1","clientInfo":{"name":"benchrun"}}}` + "\n")
	cs := []contender{
		{"hookside", func() (time.Duration, error) {
			t0 := time.Now()
			p, err := startPeer("hookside", e.cwd, env, e.bin, "app-server", "--stdio")
			if err != nil {
				return 0, err
			}
			if err := p.send(initLine); err != nil {
				return 0, err
			}
			line, err := p.reply()
			d := time.Since(t0)
			if err == nil && !bytes.Contains(line, []byte(`"result"`)) {
				err = fmt.Errorf("initialize: %s", line)
			}
			p.stop()
			return d, err
		}},
		{"node -e 0", func() (time.Duration, error) {
			t0 := time.Now()
			err := exec.Command(e.nodeBin, "-e", "0").Run()
			return time.Since(t0), err
		}},
		{"hook program", func() (time.Duration, error) {
			c := exec.Command(e.hookBin)
			t0 := time.Now()
			err := c.Run() // stdin is /dev/null: reads EOF at once
			return time.Since(t0), err
		}},
	}
	cmp, err := interleave("fig4", "cold start: spawn → initialize reply (node -e 0 and the hook program: spawn → exit)", cs, 3, e.scale(6), 6)
	if err != nil {
		return err
	}
	rn := cmp.addRatio("node -e 0", "hookside")
	e.res.addComparison(cmp)
	hs, nd, hk := cmp.get("hookside"), cmp.get("node -e 0"), cmp.get("hook program")
	e.res.addRow(row{Figure: "4", What: "cold start: spawn → `initialize` reply (p50; p90)",
		Hookside: fmtUs(hs.P50Us) + "; " + fmtUs(hs.P90Us), Baselines: "node -e 0 " + fmtUs(nd.P50Us) + " · bare C program " + fmtUs(hk.P50Us),
		Ratio: "node ÷ hookside " + rn.String(), Target: "≤ 15 ms", Met: met(hs.P50Us <= 15000)})
	if hs.P50Us > 15000 {
		e.res.miss("fig4")
	}
	return nil
}

// ---- fault paths ----

func figFaults(e *env) error {
	// Timeout kill: the hook waits for a signal; deadline 100 ms.
	const deadline = 100
	t, err := e.startTrio(hookSpec{argv: []string{e.hookBin, "sleep"}, timeoutMs: deadline}, 1, false)
	if err != nil {
		return err
	}
	cmp, err := interleave("fault-timeout", "timeout kill: hook never exits, deadline 100 ms", t.contenders(e, `"timed_out"`, `"timedOut":true`), 1, e.scale(3), 4)
	t.stop()
	if err != nil {
		return err
	}
	rc := cmp.addRatio("hookside", "C floor")
	e.res.addComparison(cmp)
	hs, cf, fl, nd := cmp.get("hookside"), cmp.get("C floor"), cmp.get("Go floor"), cmp.get("node")
	over := hs.P50Us - deadline*1000
	e.res.addRow(row{Figure: "fault", What: "timeout kill (deadline 100 ms; SIGTERM to the group): hookside ÷ C floor",
		Hookside:  fmtUs(hs.P50Us) + " (deadline +" + fmtUs(over) + ")",
		Baselines: "C floor " + fmtUs(cf.P50Us) + " · Go floor " + fmtUs(fl.P50Us) + " (both SIGKILL) · node " + fmtUs(nd.P50Us),
		Ratio:     rc.String(), Target: "≤ deadline + 10 ms (harness's bar)", Met: met(over <= 10000)})

	// SIGTERM ignored: the 500 ms grace, then SIGKILL.
	hsp, err := e.hookside("hookside", userConfig(hookSpec{argv: []string{e.hookBin, "ignoreterm"}, timeoutMs: deadline}, 1, false, "Bash"), nil)
	if err != nil {
		return err
	}
	ndp, err := e.nodePeer(1, false, deadline*time.Millisecond, []string{e.hookBin, "ignoreterm"})
	if err != nil {
		hsp.stop()
		return err
	}
	t2 := &trio{hs: hsp, nd: ndp}
	cs := t2.contenders(e, `"timed_out"`, `"timedOut":true`)
	cmp, err = interleave("fault-ignoreterm", "timeout kill, SIGTERM ignored: deadline 100 ms + 500 ms grace", cs, 0, 1, e.scale(3))
	t2.stop()
	if err != nil {
		return err
	}
	e.res.addComparison(cmp)
	hs, nd = cmp.get("hookside"), cmp.get("node")
	over = hs.P50Us - 600000
	e.res.addRow(row{Figure: "fault", What: "timeout kill, SIGTERM ignored (100 ms + 500 ms grace → SIGKILL)",
		Hookside: fmtUs(hs.P50Us) + " (+" + fmtUs(over) + ")", Baselines: "node " + fmtUs(nd.P50Us),
		Ratio: "—", Target: "≤ 600 ms + 10 ms (harness's bar)", Met: met(over <= 10000)})

	// Output cap: the hook prints 16 MiB; 32 KiB are kept.
	const spew = 16 << 20
	t, err = e.startTrio(hookSpec{argv: []string{e.hookBin, "spew", strconv.Itoa(spew)}}, 1, false)
	if err != nil {
		return err
	}
	cmp, err = interleave("fault-cap", "output cap: hook prints 16 MiB to stdout, 32 KiB kept", t.contenders(e, `"stdoutTruncated":true`, `"stdoutTruncated":true`), 1, e.scale(5), 3)
	t.stop()
	if err != nil {
		return err
	}
	rc = cmp.addRatio("hookside", "C floor")
	rf := cmp.addRatio("hookside", "Go floor")
	rn := cmp.addRatio("node", "hookside")
	e.res.addComparison(cmp)
	hs, cf, fl, nd = cmp.get("hookside"), cmp.get("C floor"), cmp.get("Go floor"), cmp.get("node")
	e.res.addRow(row{Figure: "fault", What: "output cap: hook prints 16 MiB (32 KiB kept, rest drained): hookside ÷ C floor; ÷ Go floor; Node ÷ hookside",
		Hookside: fmtUs(hs.P50Us), Baselines: "C floor " + fmtUs(cf.P50Us) + " · Go floor " + fmtUs(fl.P50Us) + " · node " + fmtUs(nd.P50Us),
		Ratio: rc.String() + "; " + rf.String() + "; " + rn.String(), Target: "≤ 1.5× C floor (harness's bar)", Met: met(rc.Median <= 1.5)})
	if rc.Median > 1.5 {
		e.res.miss("cap")
	}
	return nil
}

// ---- host view ----

// figHostView is the cost of hookside around a typical real hook, the way a
// host sees it: hookside ÷ C floor on the same script, as a percentage of
// the hook's own run time (the C floor's time: spawn, run, exit).
func figHostView(e *env) error {
	type real struct{ name, file, body string }
	var hooks []real
	if _, err := exec.LookPath("jq"); err == nil {
		hooks = append(hooks, real{"bash + jq", "hook-jq.sh",
			"#!/bin/bash\ncmd=$(jq -r '.tool_input.command // empty')\ncase $cmd in *rm\\ -rf*) echo '{\"decision\":\"block\"}';; *) echo '{}';; esac\n"})
	} else {
		e.res.detail("host", "bash + jq hook not measured: jq not found")
	}
	if out, err := exec.Command("python3", "-c", "import sys; print(sys.executable)").Output(); err == nil {
		py := strings.TrimSpace(string(out))
		hooks = append(hooks, real{"python3", "hook.py",
			"#!" + py + "\nimport json, sys\nd = json.load(sys.stdin)\ncmd = d.get('tool_input', {}).get('command', '')\nprint(json.dumps({'decision': 'block'}) if 'rm -rf' in cmd else '{}')\n"})
	} else {
		e.res.detail("host", "python3 hook not measured: python3 not found")
	}
	for _, h := range hooks {
		path := filepath.Join(e.tmp, h.file)
		if err := os.WriteFile(path, []byte(h.body), 0o755); err != nil {
			return err
		}
		hs, err := e.hookside("hookside", userConfig(hookSpec{argv: []string{path}}, 1, false, "Bash"), nil)
		if err != nil {
			return err
		}
		cf, err := e.cfloorPeer(1, false, 0, []string{path})
		if err != nil {
			hs.stop()
			return err
		}
		t := &trio{hs: hs, cf: cf}
		cmp, err := interleave("host-"+h.file, "host view: hookside around a "+h.name+" hook vs the hook alone (C floor)", t.contenders(e, `"succeeded"`, ""), 3, e.scale(15), 8)
		t.stop()
		if err != nil {
			return err
		}
		r := cmp.addRatio("hookside", "C floor")
		e.res.addComparison(cmp)
		s, c := cmp.get("hookside"), cmp.get("C floor")
		pct := func(x float64) string { return fmt.Sprintf("%+.1f %%", (x-1)*100) }
		byFig1 := "—"
		if e.overheadUs > 0 {
			byFig1 = fmt.Sprintf("%.1f %%", 100*e.overheadUs/c.P50Us)
		}
		e.res.addRow(row{Figure: "host", What: "hookside's cost around a real " + h.name + " hook, as a share of the hook's own run time " +
			"(ratio − 1 of this comparison; and fig. 1's per-hook overhead ÷ this hook's time, the steadier estimate)",
			Hookside: fmtUs(s.P50Us), Baselines: "the hook alone (C floor) " + fmtUs(c.P50Us),
			Ratio:  fmt.Sprintf("%s (rounds %s … %s); fig. 1's %s ÷ %s = %s", pct(r.Median), pct(r.Min), pct(r.Max), fmtUs(e.overheadUs), fmtUs(c.P50Us), byFig1),
			Target: "—", Met: "n/a"})
	}
	return nil
}
