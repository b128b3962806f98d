package main

import (
	"bytes"
	"fmt"
	"strconv"
	"sync/atomic"
	"time"
)

// pipelined sends n hooks/run requests keeping window of them in flight and
// returns the wall time and each request's latency (µs, send → reply).
func pipelined(p *peer, n, window int, tool string) (time.Duration, []float64, error) {
	el, lat, nerr, err := pipelinedReqs(p, n, window, func(id int) []byte { return runReq(id, tool) })
	if err == nil && nerr > 0 {
		err = fmt.Errorf("%d error replies under load", nerr)
	}
	return el, lat, err
}

// pipelinedReqs is pipelined for any request: mk builds the request with
// the given numeric id. Error replies are counted, not fatal.
func pipelinedReqs(p *peer, n, window int, mk func(id int) []byte) (time.Duration, []float64, int, error) {
	base := p.id + 1
	reqs := make([][]byte, n)
	for i := range reqs {
		reqs[i] = mk(base + i)
	}
	p.id += n
	nerr := 0
	sent := make([]atomic.Int64, n)
	lat := make([]float64, n)
	sem := make(chan struct{}, window)
	done := make(chan struct{})
	defer close(done)
	werr := make(chan error, 1)
	t0 := time.Now()
	go func() {
		for i := range reqs {
			select {
			case sem <- struct{}{}:
			case <-done:
				return
			}
			sent[i].Store(int64(time.Since(t0)))
			if err := p.send(reqs[i]); err != nil {
				werr <- err
				return
			}
		}
	}()
	for got := 0; got < n; got++ {
		line, err := p.reply()
		if err != nil {
			return 0, nil, 0, err
		}
		now := time.Since(t0)
		id, ok := replyID(line)
		if !ok || id < base || id >= base+n {
			return 0, nil, 0, fmt.Errorf("unexpected reply %.300s", line)
		}
		if bytes.Contains(line, []byte(`"error":`)) {
			if nerr == 0 {
				p.firstErr = string(bytes.TrimSpace(line))
			}
			nerr++
		}
		lat[id-base] = us(now - time.Duration(sent[id-base].Load()))
		<-sem
		select {
		case err := <-werr:
			return 0, nil, 0, err
		default:
		}
	}
	return time.Since(t0), lat, nerr, nil
}

// replyID finds the top-level numeric id of a reply.
func replyID(line []byte) (int, bool) {
	i := bytes.Index(line, []byte(`"id":`))
	if i < 0 {
		return 0, false
	}
	j := i + 5
	k := j
	for k < len(line) && line[k] >= '0' && line[k] <= '9' {
		k++
	}
	v, err := strconv.Atoi(string(line[j:k]))
	return v, err == nil
}

// rssSampler samples a pid's VmRSS every 10 ms until stopped.
type rssSampler struct {
	maxKiB atomic.Int64
	stop   chan struct{}
	done   chan struct{}
}

func sampleRSS(pid int) *rssSampler {
	s := &rssSampler{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(s.done)
		t := time.NewTicker(10 * time.Millisecond)
		defer t.Stop()
		for {
			if rss, _ := procStatus(pid); rss > s.maxKiB.Load() {
				s.maxKiB.Store(rss)
			}
			select {
			case <-s.stop:
				return
			case <-t.C:
			}
		}
	}()
	return s
}

func (s *rssSampler) end() int64 {
	close(s.stop)
	<-s.done
	return s.maxKiB.Load()
}

func fmtKiB(k int64) string {
	if k < 0 {
		return "?"
	}
	return fmt.Sprintf("%.1f MiB", float64(k)/1024)
}

// ---- figure 3 ----

func fig3NoMatch(e *env) error {
	// The one configured hook is for Edit; the requests are for Bash.
	p, err := e.hookside("hookside", userConfig(hookSpec{argv: []string{e.hookBin}}, 1, false, "Edit"), nil)
	if err != nil {
		return err
	}
	defer p.stop()
	_, line, err := p.hooksRun("Bash")
	if err != nil {
		return err
	}
	if !bytes.Contains(line, []byte(`"runs":[]`)) {
		return fmt.Errorf("no-match run ran something: %.300s", line)
	}
	// One in flight: the latency of the path itself.
	for range 500 {
		if _, _, err := p.hooksRun("Bash"); err != nil {
			return err
		}
	}
	seq := &series{Name: "one in flight"}
	for range e.scale(5000) {
		d, _, err := p.hooksRun("Bash")
		if err != nil {
			return err
		}
		seq.SamplesUs = append(seq.SamplesUs, us(d))
	}
	seq.fill()
	// Pipelined: 32 in flight, as a host with several sessions would.
	const window = 32
	n := e.scale(40000)
	if _, _, err := pipelined(p, 5000, window, "Bash"); err != nil { // warm
		return err
	}
	_, hwm0 := procStatus(p.pid())
	rss0, _ := procStatus(p.pid())
	var rates []float64
	pipe := &series{Name: fmt.Sprintf("%d in flight", window)}
	smp := sampleRSS(p.pid())
	for range 3 {
		el, lat, err := pipelined(p, n, window, "Bash")
		if err != nil {
			smp.end()
			return err
		}
		rates = append(rates, float64(n)/el.Seconds())
		pipe.SamplesUs = append(pipe.SamplesUs, lat...)
		pipe.RoundMediansUs = append(pipe.RoundMediansUs, quantile(lat, 0.5))
	}
	maxRSS := smp.end()
	_, hwm := procStatus(p.pid())
	pipe.fill()
	e.res.Raw["fig3"] = map[string]any{"requestsPerRound": n, "window": window, "ratesPerSec": rates,
		"oneInFlight":  map[string]float64{"p50Us": seq.P50Us, "p90Us": seq.P90Us, "p99Us": seq.P99Us, "maxUs": seq.MaxUs},
		"pipelined":    map[string]float64{"p50Us": pipe.P50Us, "p90Us": pipe.P90Us, "p99Us": pipe.P99Us, "maxUs": pipe.MaxUs},
		"rssBeforeKiB": rss0, "rssMaxKiB": maxRSS, "hwmBeforeKiB": hwm0, "hwmAfterKiB": hwm}
	rate := quantile(rates, 0.5)
	e.res.addRow(row{Figure: "3", What: fmt.Sprintf("hooks/run, no matching hook: requests/s over the pipe, %d in flight (median of 3 runs of %d; min–max)", window, n),
		Hookside: spread(rates, func(v float64) string { return fmt.Sprintf("%.0f/s", v) }), Baselines: "—", Ratio: "—",
		Target: "≥ 50,000/s", Met: met(rate >= 50000)})
	e.res.addRow(row{Figure: "3", What: "no-match latency p50 / p99: one in flight; 32 in flight",
		Hookside:  fmt.Sprintf("%s / %s; %s / %s", fmtUs(seq.P50Us), fmtUs(seq.P99Us), fmtUs(pipe.P50Us), fmtUs(pipe.P99Us)),
		Baselines: "—", Ratio: "—", Target: "microseconds (project target)", Met: met(seq.P50Us < 1000)})
	e.res.addRow(row{Figure: "7", What: "RSS under figure 3's load (max sampled VmRSS; VmHWM after)",
		Hookside: fmtKiB(maxRSS) + "; HWM " + fmtKiB(hwm), Baselines: "before the load " + fmtKiB(rss0), Ratio: "—", Target: "stays small", Met: met(maxRSS-rss0 < 32<<10)})
	if rate < 50000 {
		e.res.miss("fig3")
	}
	return nil
}

// ---- figure 7 ----

func fig7Memory(e *env) error {
	// Idle: after initialize, session/open and one hook run.
	t, err := e.startTrio(hookSpec{argv: []string{e.hookBin}}, 1, false)
	if err != nil {
		return err
	}
	if _, _, err := t.hs.hooksRun("Bash"); err != nil {
		t.stop()
		return err
	}
	if _, _, err := t.nd.nodeRun(e); err != nil {
		t.stop()
		return err
	}
	time.Sleep(300 * time.Millisecond)
	idle, idleHWM := procStatus(t.hs.pid())
	nodeIdle, _ := procStatus(t.nd.pid())
	t.stop()
	e.res.addRow(row{Figure: "7", What: "RSS idle (after initialize, session/open, one hook run)",
		Hookside: fmtKiB(idle), Baselines: "node runner " + fmtKiB(nodeIdle), Ratio: "—", Target: "—", Met: "n/a"})

	// 1 GiB of output: the cap must hold.
	const size = 1 << 30
	h := hookSpec{argv: []string{e.hookBin, "spew", strconv.Itoa(size)}, timeoutMs: 120000}
	p, err := e.hookside("hookside", userConfig(h, 1, false, "Bash"), nil)
	if err != nil {
		return err
	}
	defer p.stop()
	rss0, hwm0 := procStatus(p.pid())
	smp := sampleRSS(p.pid())
	d, line, err := p.hooksRun("Bash")
	peak := smp.end()
	if err != nil {
		return err
	}
	if !bytes.Contains(line, []byte(`"stdoutTruncated":true`)) || !bytes.Contains(line, []byte(`"succeeded"`)) {
		return fmt.Errorf("1 GiB run: %.400s", line)
	}
	_, hwm := procStatus(p.pid())
	nd, err := e.nodePeer(1, false, 120*time.Second, h.argv)
	if err != nil {
		return err
	}
	defer nd.stop()
	nsmp := sampleRSS(nd.pid())
	nd0, _ := procStatus(nd.pid())
	nodeD, _, err := nd.nodeRun(e)
	nodePeak := nsmp.end()
	if err != nil {
		return err
	}
	_, nodeHWM := procStatus(nd.pid())
	e.res.Raw["fig7"] = map[string]any{"idleRssKiB": idle, "idleHwmKiB": idleHWM, "nodeIdleRssKiB": nodeIdle,
		"gib": map[string]any{"rssBeforeKiB": rss0, "hwmBeforeKiB": hwm0, "rssMaxSampledKiB": peak, "hwmAfterKiB": hwm, "seconds": d.Seconds(),
			"nodeRssBeforeKiB": nd0, "nodeRssMaxSampledKiB": nodePeak, "nodeHwmAfterKiB": nodeHWM, "nodeSeconds": nodeD.Seconds()}}
	grow := max(hwm-hwm0, peak-rss0)
	e.res.addRow(row{Figure: "7", What: "while a hook prints 1 GiB to stdout (cap 32 KiB): peak RSS (VmHWM); time",
		Hookside:  fmt.Sprintf("%s (before %s, +%s); %.2f s", fmtKiB(hwm), fmtKiB(hwm0), fmtKiB(grow), d.Seconds()),
		Baselines: fmt.Sprintf("node runner %s (before %s); %.2f s", fmtKiB(nodeHWM), fmtKiB(nd0), nodeD.Seconds()),
		Ratio:     "—", Target: "RSS stays small: growth ≤ 16 MiB (harness's bar)", Met: met(grow <= 16<<10)})
	return nil
}
