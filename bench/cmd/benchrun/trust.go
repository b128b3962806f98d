package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

func writeJSON(path string, v any) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o600)
}

// goBench runs one Go benchmark count times and returns its ns/op values.
func goBench(pkg, name, benchtime string, count int) ([]float64, string, error) {
	cmd := exec.Command("go", "test", "-run", "^$", "-bench", "^"+name+"$", "-benchtime", benchtime, "-count", strconv.Itoa(count), pkg)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return nil, string(out), fmt.Errorf("go test %s -bench %s: %v: %s", pkg, name, err, tail(string(out)))
	}
	re := regexp.MustCompile(`(?m)^` + name + `(?:-\d+)?\s+\d+\s+([0-9.]+) ns/op`)
	var ns []float64
	for _, m := range re.FindAllStringSubmatch(string(out), -1) {
		v, _ := strconv.ParseFloat(m[1], 64)
		ns = append(ns, v)
	}
	if len(ns) == 0 {
		return nil, string(out), fmt.Errorf("no ns/op in %s", tail(string(out)))
	}
	return ns, string(out), nil
}

// ---- figure 6 ----

func fig6Trust(e *env) error {
	// Admission check: the Go benchmark (100 trusted declarations, nothing changed).
	ns, _, err := goBench("./truststore/", "BenchmarkAdmitUnchanged", "200000x", 3)
	if err != nil {
		e.res.addRow(row{Figure: "6", What: "admission check (truststore BenchmarkAdmitUnchanged)", Hookside: "error: " + oneLine(err.Error()), Met: "error"})
	} else {
		e.res.Raw["fig6-admit-ns"] = ns
		e.res.addRow(row{Figure: "6", What: "admission check before a workspace hook (BenchmarkAdmitUnchanged, 100 trusted, 3 runs)",
			Hookside: spread(ns, func(v float64) string { return fmtUs(v / 1000) }), Baselines: "—", Ratio: "—",
			Target: "< 5 µs (the benchmark's own)", Met: met(quantile(ns, 0.5) < 5000)})
	}

	// 50 concurrent CLI grants, each of a different declaration.
	const n = 50
	ws := filepath.Join(e.tmp, "trust-ws")
	if err := os.MkdirAll(filepath.Join(ws, ".git"), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(ws, ".git", "HEAD"), []byte("ref: refs/heads/main\n"), 0o644); err != nil {
		return err
	}
	hooks := make([]any, n)
	for i := range hooks {
		hooks[i] = map[string]any{"type": "process", "command": e.hookBin, "args": []string{fmt.Sprintf("decl-%02d", i)}}
	}
	// The file's own root switch: without it the hooks are off and the
	// trust counts (enabled declarations only) stay empty.
	if err := writeJSON(filepath.Join(ws, "zcode.json"), map[string]any{"hooks": map[string]any{"enabled": true, "events": map[string]any{
		"PreToolUse": []any{map[string]any{"matcher": "Bash", "hooks": hooks}}}}}); err != nil {
		return err
	}
	status := func(home string) (map[string]any, error) {
		out, err := exec.Command(e.bin, "hooks", "trust", "status", "--workspace", ws, "--json", "--home", home).Output()
		if err != nil {
			return nil, fmt.Errorf("hooks trust status: %v", err)
		}
		var m map[string]any
		return m, json.Unmarshal(out, &m)
	}
	st, err := status(filepath.Join(e.tmp, "trust-home-status"))
	if err != nil {
		return err
	}
	var digests []string
	decls, _ := st["declarations"].([]any)
	for _, d := range decls {
		if m, ok := d.(map[string]any); ok {
			digests = append(digests, fmt.Sprint(m["digest"]))
		}
	}
	if len(digests) != n {
		return fmt.Errorf("status lists %d declarations, want %d", len(digests), n)
	}
	env := childEnv(e.userHome)
	grant := func(home, digest string) *exec.Cmd {
		c := exec.Command(e.bin, "hooks", "trust", "grant", "--workspace", ws, "--digest", digest, "--home", home)
		c.Env, c.Dir = env, e.cwd
		return c
	}
	round := 0
	check := func(home string) error {
		st, err := status(home)
		if err != nil {
			return err
		}
		counts, _ := st["counts"].(map[string]any)
		if got := fmt.Sprint(counts["trusted_persistent"]); got != strconv.Itoa(n) {
			return fmt.Errorf("after the grants: counts %v, want %d trusted_persistent", counts, n)
		}
		return nil
	}
	cs := []contender{
		{"50 at once", func() (time.Duration, error) {
			round++
			home := filepath.Join(e.tmp, fmt.Sprintf("trust-home-c%d", round))
			cmds := make([]*exec.Cmd, n)
			errs := make([]error, n)
			var wg sync.WaitGroup
			t0 := time.Now()
			for i := range cmds {
				cmds[i] = grant(home, digests[i])
				if err := cmds[i].Start(); err != nil {
					return 0, err
				}
			}
			for i := range cmds {
				wg.Go(func() { errs[i] = cmds[i].Wait() })
			}
			wg.Wait()
			d := time.Since(t0)
			for i, err := range errs {
				if err != nil {
					return 0, fmt.Errorf("grant %d: %v", i, err)
				}
			}
			return d, check(home)
		}},
		{"50 one after another", func() (time.Duration, error) {
			round++
			home := filepath.Join(e.tmp, fmt.Sprintf("trust-home-s%d", round))
			t0 := time.Now()
			for i := range n {
				if out, err := grant(home, digests[i]).CombinedOutput(); err != nil {
					return 0, fmt.Errorf("grant %d: %v: %s", i, err, out)
				}
			}
			d := time.Since(t0)
			return d, check(home)
		}},
	}
	cmp, err := interleave("fig6-grants", "50 `hooks trust grant` CLI runs, 50 different declarations, fresh home each", cs, 0, e.scale(3), 1)
	if err != nil {
		return err
	}
	r := cmp.addRatio("50 at once", "50 one after another")
	e.res.addComparison(cmp)
	c, s := cmp.get("50 at once"), cmp.get("50 one after another")
	e.res.addRow(row{Figure: "6", What: "50 concurrent `hooks trust grant` (different declarations): wall time; all 50 recorded",
		Hookside: fmtUs(c.P50Us) + " (" + fmtUs(c.MinUs) + "–" + fmtUs(c.MaxUs) + ")", Baselines: "same 50 one after another " + fmtUs(s.P50Us),
		Ratio: r.String(), Target: "no grant lost; wall time reported", Met: "yes"})
	e.res.detail("6", fmt.Sprintf("one CLI grant ≈ %s when run alone (50 sequential ÷ 50); every round checked that status shows 50 trusted_persistent afterwards", fmtUs(s.P50Us/n)))
	return nil
}

// ---- figure 5 ----

// v2peer wraps a hookside whose frames are read by a goroutine, so that
// server→client requests (host/notification/show) can be answered.
type v2peer struct {
	*peer
	frames chan []byte
}

func (p *peer) v2() *v2peer {
	v := &v2peer{peer: p, frames: make(chan []byte, 1024)}
	go func() {
		defer close(v.frames)
		for {
			line, err := p.r.ReadBytes('\n')
			if err != nil {
				return
			}
			v.frames <- line
		}
	}()
	return v
}

type frame struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	Params json.RawMessage `json:"params"`
}

// call sends a request and waits for its reply, answering host requests
// with onHost (which may be nil) meanwhile.
func (v *v2peer) call(method string, params any, onHost func(f frame)) (frame, error) {
	v.id++
	id := v.id
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	if err := v.send(append(b, '\n')); err != nil {
		return frame{}, err
	}
	want := strconv.Itoa(id)
	timeout := time.After(10 * time.Second)
	for {
		select {
		case line, ok := <-v.frames:
			if !ok {
				return frame{}, fmt.Errorf("hookside exited (stderr: %s)", tail(v.stderr.String()))
			}
			var f frame
			if err := json.Unmarshal(line, &f); err != nil {
				return frame{}, fmt.Errorf("bad frame %q", line)
			}
			if f.Method != "" {
				if len(f.ID) > 0 && onHost != nil {
					onHost(f)
				}
				continue
			}
			if string(f.ID) == want {
				if f.Error != nil {
					return f, fmt.Errorf("%s: error %d %s", method, f.Error.Code, f.Error.Message)
				}
				return f, nil
			}
		case <-timeout:
			return frame{}, fmt.Errorf("%s: no reply in 10 s", method)
		}
	}
}

// notifyOnTurnCompleted enables V2 and binds, application-wide, a
// definition that shows a notification on every turn.completed.
func (v *v2peer) notifyOnTurnCompleted() error {
	_, _ = v.call("v2/settings/update", map[string]any{"enabled": true}, nil)
	def, err := v.call("v2/definitions/create", map[string]any{"definition": map[string]any{
		"name": "bench notify", "enabled": true, "eventName": "turn.completed",
		"action": map[string]any{"type": "notification", "title": map[string]any{"const": "done"}, "body": map[string]any{"path": "payload.message"}},
	}}, nil)
	if err != nil {
		return err
	}
	var dr struct {
		Definition struct {
			ID string `json:"id"`
		} `json:"definition"`
	}
	if err := json.Unmarshal(def.Result, &dr); err != nil || dr.Definition.ID == "" {
		return fmt.Errorf("v2/definitions/create result without an id: %s", def.Result)
	}
	_, err = v.call("v2/bindings/create", map[string]any{"hookId": dr.Definition.ID, "scopeKind": "application", "scopeId": ""}, nil)
	return err
}

func (v *v2peer) answerHost(f frame, result string) {
	_ = v.send([]byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":%s}`+"\n", f.ID, result)))
}

func emitParams(name, turn string) map[string]any {
	return map[string]any{"eventName": name, "session": map[string]any{"id": "s1"}, "turn": map[string]any{"id": turn},
		"workspaces": []any{map[string]any{"id": "w1", "name": "bench"}}, "payload": map[string]any{"message": "done " + turn}}
}

func emitReq(id int, turn string) []byte {
	return []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"v2/events/emit","params":{"eventName":"turn.completed","session":{"id":"s1"},"turn":{"id":%q},"workspaces":[{"id":"w1","name":"bench"}],"payload":{"message":"m"}}}`+"\n", id, turn))
}

var v2Init = map[string]any{"capabilities": map[string]any{"hostActions": []string{"notification"}}}

func fig5V2(e *env) error {
	notMeasured := func(why string) error {
		for _, w := range []string{"emit → host action request latency p50 / p99", "durable emit throughput", "2 and 8 hookside processes on one home"} {
			e.res.addRow(row{Figure: "5", What: "V2: " + w, Hookside: "not yet measured", Baselines: "—", Ratio: "—", Target: "—", Met: "not measured", Note: why})
		}
		return nil
	}
	hp, err := e.hookside("hookside", nil, v2Init)
	if err != nil {
		return err
	}
	p := hp.v2()
	defer hp.stop()
	if _, err := p.call("v2/events/emit", emitParams("turn.completed", "probe"), nil); err != nil {
		return notMeasured("`v2/events/emit` on the built binary: " + oneLine(err.Error()))
	}
	if err := p.notifyOnTurnCompleted(); err != nil {
		return notMeasured(oneLine(err.Error()))
	}
	// emit → host/notification/show: the time from writing the emit to
	// reading the server's request.
	var lat []float64
	shown := func(t0 time.Time, got *bool) func(f frame) {
		return func(f frame) {
			if f.Method == "host/notification/show" {
				if !*got {
					lat = append(lat, us(time.Since(t0)))
				}
				*got = true
				p.answerHost(f, `{"shown":true}`)
			} else {
				p.answerHost(f, `{}`)
			}
		}
	}
	n := e.scale(200)
	for i := range n + 10 {
		t0 := time.Now()
		got := false
		onHost := shown(t0, &got)
		if _, err := p.call("v2/events/emit", emitParams("turn.completed", fmt.Sprintf("t%d", i)), onHost); err != nil {
			return notMeasured(oneLine(err.Error()))
		}
		deadline := time.After(5 * time.Second)
		for !got {
			select {
			case line, ok := <-p.frames:
				if !ok {
					return fmt.Errorf("hookside exited (stderr: %s)", tail(hp.stderr.String()))
				}
				var f frame
				if json.Unmarshal(line, &f) == nil && f.Method != "" && len(f.ID) > 0 {
					onHost(f)
				}
			case <-deadline:
				return notMeasured(fmt.Sprintf("no host/notification/show within 5 s of emit %d", i))
			}
		}
		if i < 10 { // warm-up
			lat = lat[:0]
		}
	}
	ls := &series{Name: "emit → host/notification/show", SamplesUs: lat}
	ls.fill()
	e.res.Raw["fig5-latency"] = ls
	e.res.addRow(row{Figure: "5", What: fmt.Sprintf("V2: emit → host/notification/show latency p50 / p99 (%d events, one at a time)", n),
		Hookside: fmtUs(ls.P50Us) + " / " + fmtUs(ls.P99Us), Baselines: "—", Ratio: "—", Target: "—", Met: "n/a"})

	// Durable emit throughput: P processes on one home, no definitions.
	for _, procs := range []int{1, 2, 8} {
		rate, errs, first, err := e.emitThroughput(procs, e.scale(3000))
		if err != nil {
			return err
		}
		what := "V2: durable emit throughput, 1 process, 16 in flight (median of 3; min–max)"
		if procs > 1 {
			what = fmt.Sprintf("V2: durable emit throughput, %d hookside processes on one home, 16 in flight each (total)", procs)
		}
		note := ""
		if errs > 0 {
			note = fmt.Sprintf("%d error replies, first: %s", errs, oneLine(first))
		}
		e.res.addRow(row{Figure: "5", What: what, Hookside: spread(rate, func(v float64) string { return fmt.Sprintf("%.0f/s", v) }),
			Baselines: "—", Ratio: "—", Target: "—", Met: map[bool]string{true: "n/a", false: "**errors**"}[errs == 0], Note: note})
	}
	return nil
}

// emitThroughput starts procs hooksides on one fresh home and has each emit
// total/procs events pipelined, 3 times; it returns the total rates.
func (e *env) emitThroughput(procs, total int) ([]float64, int, string, error) {
	home, err := os.MkdirTemp(e.tmp, "v2home-")
	if err != nil {
		return nil, 0, "", err
	}
	ps := make([]*peer, procs)
	defer func() {
		for _, p := range ps {
			if p != nil {
				p.stop()
			}
		}
	}()
	for i := range ps {
		p, err := startPeer("hookside", e.cwd, childEnv(e.userHome, "HOOKSIDE_HOME="+home), e.bin, "app-server", "--stdio", "--log-level", "error")
		if err != nil {
			return nil, 0, "", err
		}
		ps[i] = p
		if _, err := p.call("initialize", map[string]any{"protocolVersion": "1", "clientInfo": map[string]any{"name": "benchrun"}}); err != nil {
			return nil, 0, "", err
		}
		if _, err := p.call("v2/settings/update", map[string]any{"enabled": true}); err != nil && i == 0 {
			_ = err // an older build may not need it
		}
	}
	per := max(1, total/procs)
	var rates []float64
	errs, first := 0, ""
	for round := range 3 {
		var wg sync.WaitGroup
		var mu sync.Mutex
		var ferr error
		t0 := time.Now()
		for i, p := range ps {
			wg.Go(func() {
				_, _, nerr, err := pipelinedReqs(p, per, 16, func(id int) []byte { return emitReq(id, fmt.Sprintf("r%d-p%d-%d", round, i, id)) })
				mu.Lock()
				defer mu.Unlock()
				if err != nil && ferr == nil {
					ferr = err
				}
				if nerr > 0 && first == "" {
					first = p.firstErr
				}
				errs += nerr
			})
		}
		wg.Wait()
		if ferr != nil {
			return nil, 0, "", ferr
		}
		rates = append(rates, float64(per*procs)/time.Since(t0).Seconds())
	}
	return rates, errs, strings.TrimSpace(first), nil
}
