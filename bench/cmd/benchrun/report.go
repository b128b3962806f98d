package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// row is one line of the RESULTS.md table.
type row struct {
	Figure    string `json:"figure"`
	What      string `json:"what"`
	Hookside  string `json:"hookside"`
	Baselines string `json:"baselines"`
	Ratio     string `json:"ratio"`
	Target    string `json:"target"`
	Met       string `json:"met"`
	Note      string `json:"note,omitempty"`
}

// results is everything one run produced (results.json).
type results struct {
	Machine     machine             `json:"machine"`
	Elapsed     string              `json:"elapsed"`
	Timings     map[string]string   `json:"timings"`
	Rows        []row               `json:"rows"`
	Details     map[string][]string `json:"details"`
	Comparisons []*comparison       `json:"comparisons"`
	Raw         map[string]any      `json:"raw"`
	Misses      []string            `json:"misses"`
	Profiles    map[string]string   `json:"profiles"`
	// Standing is one line per spawn-cost target: value, bar, met.
	Standing []string `json:"standing"`
}

func newResults() *results {
	return &results{Timings: map[string]string{}, Details: map[string][]string{}, Raw: map[string]any{}, Profiles: map[string]string{}}
}

func (r *results) addRow(x row)                { r.Rows = append(r.Rows, x) }
func (r *results) addComparison(c *comparison) { r.Comparisons = append(r.Comparisons, c) }
func (r *results) detail(fig, s string)        { r.Details[fig] = append(r.Details[fig], s) }
func (r *results) miss(path string)            { r.Misses = append(r.Misses, path) }
func (r *results) profile(path, text string)   { r.Profiles[path] = text }
func figureOrder(f string) string              { return map[string]string{"fault": "8", "host": "9"}[f] + f }
func (r *results) sortedRows() []row {
	rows := append([]row(nil), r.Rows...)
	sort.SliceStable(rows, func(i, j int) bool { return figureOrder(rows[i].Figure) < figureOrder(rows[j].Figure) })
	return rows
}

func (r *results) write(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	b, err := json.MarshalIndent(r, "", " ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "results.json"), append(b, '\n'), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "RESULTS.md"), []byte(r.markdown()), 0o644)
}

func (r *results) markdown() string {
	var w strings.Builder
	m := r.Machine
	fmt.Fprintf(&w, "# hookside benchmarks\n\n")
	fmt.Fprintf(&w, "Written by `make bench` (`go run ./bench/cmd/benchrun`); raw numbers in [results.json](results.json). "+
		"Taken %s on %d CPU(s) (%s), kernel %s, %s, node %s, %s. Whole run: %s.\n\n", m.Date, m.CPUs, m.CPU, m.Kernel, m.Go, m.Node, m.Hookside, r.Elapsed)
	if m.Note != "" {
		fmt.Fprintf(&w, "%s\n\n", m.Note)
	}
	fmt.Fprintf(&w, "Load average at start %s, at the end %s.", m.LoadStart, m.LoadAfter)
	if busy(m.LoadStart, m.CPUs) || busy(m.LoadAfter, m.CPUs) {
		fmt.Fprintf(&w, " **The machine was busy while these figures were taken: the ratios (interleaved) are usable, "+
			"the absolute times are not; re-take them on a quiet machine.**")
	}
	w.WriteString("\n\n")
	w.WriteString(method)
	fmt.Fprintf(&w, "\nHook program for every figure: %s.\n\n", m.Hook)
	w.WriteString("## Results\n\n| fig. | figure | hookside | baseline(s) | ratio: median of rounds (min–max) | target | met |\n|---|---|---|---|---|---|---|\n")
	for _, x := range r.sortedRows() {
		what := x.What
		if x.Note != "" {
			what += " — " + x.Note
		}
		fmt.Fprintf(&w, "| %s | %s | %s | %s | %s | %s | %s |\n", x.Figure, cell(what), cell(x.Hookside), cell(x.Baselines), cell(x.Ratio), cell(x.Target), x.Met)
	}
	var missed []string
	for _, x := range r.sortedRows() {
		if x.Met == "**no**" {
			missed = append(missed, fmt.Sprintf("- fig. %s, %s: %s against %s.", x.Figure, x.What, orDash(x.Ratio, x.Hookside), x.Target))
		}
	}
	if len(r.Standing) > 0 {
		w.WriteString("\n## Against the spawn-cost targets (interleaved ratios of this run)\n\n")
		for _, l := range r.Standing {
			fmt.Fprintf(&w, "- %s\n", l)
		}
	}
	w.WriteString("\n## Missed targets\n\n")
	if len(missed) == 0 {
		w.WriteString("None in this run.\n")
	} else {
		w.WriteString(strings.Join(missed, "\n") + "\n")
	}
	w.WriteString("\n## Details\n\n")
	figs := make([]string, 0, len(r.Details))
	for f := range r.Details {
		figs = append(figs, f)
	}
	sort.Slice(figs, func(i, j int) bool { return figureOrder(figs[i]) < figureOrder(figs[j]) })
	for _, f := range figs {
		for _, d := range r.Details[f] {
			fmt.Fprintf(&w, "- fig. %s: %s\n", f, d)
		}
	}
	w.WriteString("\nEvery interleaved comparison (p50 of all samples; per-round ratios in results.json):\n\n| comparison | rounds × events | p50 by contender |\n|---|---|---|\n")
	for _, c := range r.Comparisons {
		var parts []string
		for _, s := range c.Series {
			parts = append(parts, fmt.Sprintf("%s %s", s.Name, fmtUs(s.P50Us)))
		}
		fmt.Fprintf(&w, "| %s | %d × %d | %s |\n", cell(c.Label), c.Rounds, c.PerRound, strings.Join(parts, " · "))
	}
	if len(r.Profiles) > 0 {
		w.WriteString("\n## Profiles of missed targets\n")
		keys := make([]string, 0, len(r.Profiles))
		for k := range r.Profiles {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprintf(&w, "\n### %s\n\n```\n%s\n```\n", k, strings.TrimRight(r.Profiles[k], "\n"))
		}
	}
	w.WriteString("\nFigure timings: ")
	keys := make([]string, 0, len(r.Timings))
	for k := range r.Timings {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for i, k := range keys {
		if i > 0 {
			w.WriteString(", ")
		}
		fmt.Fprintf(&w, "%s %s", k, r.Timings[k])
	}
	w.WriteString(".\n")
	return w.String()
}

const method = `## How it is measured

- Four runners (five in figs. 1 and 1p, which add the exec core), all long-lived processes
  driven over real pipes the same way (one request line in, one answer line out; the driver
  times request written → answer read):
  **hookside** (` + "`bin/hookside app-server --stdio`" + `, NDJSON JSON-RPC, a user config with the
  hooks, ` + "`hooks/run`" + ` for PreToolUse/Bash, notifications on as a host would have them);
  the **C floor** (` + "`bench/floor/floor.c`" + `, built by the harness with ` + "`cc -O2`" + `: ` + "`posix_spawn`" + ` the
  hook with three pipes, write the same stdin, drain stdout (32 KiB kept) and stderr with
  ` + "`poll`" + `, ` + "`waitpid`" + `; nothing else — the fastest spawn there is, and the floor every target
  is measured against); the **Go floor** (` + "`bench/cmd/floor`" + `: the same with Go's ` + "`os/exec`" + `, no
  stderr pipe; a second reference row); in figs. 1 and 1p the **exec core** (` + "`bench/cmd/floor -core`" + `:
  the Go floor's process and protocol, each hook run by hookside's own process-execution core,
  ` + "`Run`" + ` of ` + "`runner/exec`" + `, with the Spec the runner gives a process hook — its own process group, a
  run token, a pidfd, the janitor's record, stdout and stderr capped, the deadline with
  SIGTERM→SIGKILL — as subreaper with a janitor like ` + "`app-server`" + `; no JSON-RPC, config,
  matching or merge: exec core ÷ C floor is the cost of Go and that core, hookside ÷ exec
  core the cost of hookside's protocol and runner layers); the **Node runner** (` + "`bench/node/runner.js`" + `:
  spawn in its own process group, write JSON stdin, capped stdout/stderr, timeout with
  SIGTERM→SIGKILL, JSON parse, merge). The floors and the Node runner write exactly the stdin
  hookside gives a hook (captured once at start-up), so every runner's hook reads the same bytes.
- The phases (fig. 1p) split fig. 1's event on one clock (CLOCK_MONOTONIC, read by the
  driver around each request and by the hook, ` + "`hook stamp FILE`" + `, at its main() and after
  its answer): request written → the hook's main() (the runner's work before the spawn, the
  spawn, exec, the loader), the hook itself, its answer → the runner's answer read (exit,
  reaping, draining, answering). A runner's cost over the spawn is its phase minus the C
  floor's.
- The steps (fig. 1s) split hookside's own time of fig. 1's event further: a build with
  ` + "`-tags stepprobe`" + ` (internal/steps) reads the clock at each step of hooks/run, from the
  request's frame read to its reply written (frame checked, dispatched, handler, input
  decoded, hook/started sent, spawn prepared, pipes and env, spawned, exited, reaped,
  hook/completed sent, replied), once alone and once in hookside's place among fig. 1's
  other runners, interleaved as fig. 1 is; each step is the p50 of the time since the one
  before. Not the build fig. 1 measures (a clock read per step): it says where the time goes.
- The Go runtime (fig. 1g) is weighed by running the same binary twice, as built and with
  ` + "`GODEBUG=schedtrace=2147483647`" + ` (the runtime's monitor thread, sysmon, then never parks),
  interleaved with the C floor on 1 and 4 sequential hooks: latency, CPU time per event (the
  server's threads, from /proc/<pid>/task/*/schedstat) and the CPU both spend idle for 5 s
  afterwards. A reference for what a Go runner pays that a C one does not, not a setting
  hookside uses.
- The host view (fig. "host") runs a real hook script (bash + jq; python3) under hookside and
  under the C floor, interleaved: hookside's cost is the ratio − 1, a share of the hook's own
  run time (spawn, interpreter start, run, exit, as the C floor measures it).
- Comparisons are interleaved in one run: event by event, each turn (one event of every
  contender) in a shuffled order (fixed seed), so that each contender follows every other
  about as often — an event runs slower after one that leaves the caches cold or its threads
  busy, and a fixed cycle would always put the same contender before it — in R rounds of K
  events after a warm-up. **Ratio = median over rounds of
  (round median of A ÷ round median of B); the range is the smallest and largest per-round
  ratio.** Absolute times are p50 over all samples. Drift on a shared machine moves all
  contenders of a round together, so the ratios survive noise that the absolute times do not.
- Throughput (fig. 3) is the median of 3 runs (range min–max of the runs); latencies there
  are per request, send → reply, pooled over the runs.
- The driver (Go) runs on the same machine and takes part of its CPUs: with 2 cores, fig. 3's
  rate is hookside and its host sharing them, as in real use.
- Fig. 5 (V2) is measured only when ` + "`v2/events/emit`" + ` works on the built binary; otherwise its
  rows say "not yet measured" and why. Fig. 2's parallel rows likewise depend on a probe
  (two 200 ms hooks in a ` + "`\"parallel\": true`" + ` group must finish in well under 400 ms).
- Profiles of missed targets: the server runs in a child process of the harness (` + "`rpc.Serve`" + `
  over OS pipes, the code ` + "`app-server`" + ` runs, as the subreaper of its hooks with their janitor,
  as ` + "`app-server`" + ` is) under the CPU profiler, from after a warm-up, while the figure's
  requests are replayed; cold start is traced with GODEBUG=inittrace=1.
- The wake-up figure starts ` + "`hookside v2 emit --file ev.json`" + ` as its own process (as a
  shell would) on the home of a running app-server whose host declared notifications, and
  times CLI start → the server's ` + "`host/notification/show`" + `; it also times the CLI's start-up
  alone (` + "`hookside version`" + `, spawn → exit, interleaved) and gives the figure net of it.
  Idle CPU is the server's schedstat CPU time over 30 s without requests.
- Memory is read from ` + "`/proc/<pid>/status`" + ` (VmRSS sampled every 10 ms; VmHWM = peak).
- Targets marked "harness's bar" are not project targets; they are the bar this harness
  applies to a path that "must stay cheap".
`

func busy(load string, cpus int) bool {
	var one float64
	if _, err := fmt.Sscan(load, &one); err != nil {
		return false
	}
	return one > 0.5*float64(cpus)
}

func cell(s string) string {
	if s == "" {
		return "—"
	}
	return strings.ReplaceAll(s, "|", "\\|")
}

func orDash(a, b string) string {
	if a == "" || a == "—" {
		return b
	}
	return a
}
