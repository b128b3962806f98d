// Command benchrun is the hookside benchmark harness (`make bench`): it
// measures hookside side by side with two spawn floors (bench/floor/floor.c,
// posix_spawn + poll, compiled with cc; bench/cmd/floor, Go's os/exec), the
// exec core in figs. 1 and 1p (bench/cmd/floor -core: hookside's
// runner/exec.Run alone) and a Node.js reference runner
// (bench/node/runner.js), every comparison interleaved in one run, and
// writes bench/RESULTS.md and bench/results.json.
//
//	go run ./bench/cmd/benchrun -bin bin/hookside [-out bench] [-only 1,3] [-quick] [-note TEXT]
//	go run ./bench/cmd/benchrun -bin bin/hookside -against OTHER_BUILD [-against-init JSON]
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// env is what every figure needs: the binaries and a scratch directory.
type env struct {
	root      string // module root
	tmp       string
	cwd       string // session cwd of every hookside (no .git: no workspace hooks)
	userHome  string
	bin       string // hookside
	floorBin  string // the Go os/exec floor (with -core: the exec core)
	cfloorBin string // the C posix_spawn floor
	hookBin   string
	hookKind  string
	nodeBin   string
	runnerJS  string
	hookStdin []byte // the exact stdin hookside gives the figure-1 hook
	quick     bool
	profile   bool
	res       *results
	// overheadUs is fig. 1's p50 of hookside − p50 of the C floor (the
	// host view scales it by a real hook's run time).
	overheadUs float64
}

// scale shrinks iteration counts with -quick.
func (e *env) scale(n int) int {
	if e.quick {
		return max(1, n/3)
	}
	return n
}

func main() {
	bin := flag.String("bin", "bin/hookside", "the hookside binary (built by make)")
	out := flag.String("out", "bench", "directory for RESULTS.md and results.json")
	only := flag.String("only", "", "comma-separated figures to run (1,phases,steps,sysmon,2,3,4,5,wake,6,7,faults,host); default all")
	quick := flag.Bool("quick", false, "a third of the iterations (a smoke run; figures are noisier)")
	profile := flag.Bool("profile", true, "on a missed target, profile the path with go test -cpuprofile")
	note := flag.String("note", "", "a sentence about the machine, printed under the header of RESULTS.md")
	againstBin := flag.String("against", "", "instead of the figures: compare -bin with this build on 1 and 4 sequential hooks, interleaved with the C floor, and print the ratios")
	againstInit := flag.String("against-init", "", "with -against: a JSON object merged into the other build's initialize params")
	againstRounds := flag.Int("against-rounds", 21, "with -against: rounds of 20 events per contender")
	againstProfile := flag.String("against-profile", "zcode", "with -against: the session profile, zcode (process hooks in config.json) or claude (command hooks in a Claude Code settings.json with a 150-rule permissions list, Claude-shaped input)")
	profileServeDir := flag.String("profile-serve", "", "(internal: the child of a profile) serve hooks/run on stdin/stdout on the home `DIR`, profiling from SIGUSR1 to EOF into DIR/cpu.pprof")
	flag.Parse()
	if *profileServeDir != "" {
		if err := profileServe(*profileServeDir); err != nil {
			fmt.Fprintln(os.Stderr, "benchrun -profile-serve:", err)
			os.Exit(1)
		}
		return
	}

	start := time.Now()
	e, err := setup(*bin, *quick)
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchrun:", err)
		os.Exit(1)
	}
	defer os.RemoveAll(e.tmp)
	e.profile = *profile
	e.res.Machine.Note = *note
	if *againstBin != "" {
		b, err := filepath.Abs(*againstBin)
		if err == nil {
			err = against(e, b, *againstInit, *againstProfile, *againstRounds, os.Stdout)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "benchrun:", err)
			os.Exit(1)
		}
		return
	}

	figs := []struct {
		id string
		fn func(*env) error
	}{
		{"4", fig4ColdStart}, // first: cold start on a machine not yet warmed by our own load
		{"1", fig1OneHook},
		{"phases", figPhases},
		{"steps", figSteps},
		{"sysmon", figSysmon},
		{"2", fig2ManyHooks},
		{"3", fig3NoMatch},
		{"7", fig7Memory},
		{"faults", figFaults},
		{"host", figHostView},
		{"6", fig6Trust},
		{"5", fig5V2},
		{"wake", figWake},
	}
	want := map[string]bool{}
	for _, f := range strings.Split(*only, ",") {
		if f = strings.TrimSpace(f); f != "" {
			want[f] = true
		}
	}
	for _, f := range figs {
		if len(want) > 0 && !want[f.id] {
			continue
		}
		t0 := time.Now()
		fmt.Fprintf(os.Stderr, "benchrun: figure %s …\n", f.id)
		if err := f.fn(e); err != nil {
			fmt.Fprintf(os.Stderr, "benchrun: figure %s: %v\n", f.id, err)
			e.res.addRow(row{Figure: f.id, What: "(figure failed)", Hookside: "error: " + oneLine(err.Error()), Met: "error"})
		}
		e.res.Timings[f.id] = time.Since(t0).Round(time.Millisecond).String()
		fmt.Fprintf(os.Stderr, "benchrun: figure %s done in %s\n", f.id, time.Since(t0).Round(time.Millisecond))
	}
	if e.profile {
		profileMisses(e)
	}
	e.res.Machine.LoadAfter = loadavg()
	e.res.Elapsed = time.Since(start).Round(time.Second).String()
	if err := e.res.write(*out); err != nil {
		fmt.Fprintln(os.Stderr, "benchrun:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "benchrun: wrote %s and %s in %s\n", filepath.Join(*out, "RESULTS.md"), filepath.Join(*out, "results.json"), e.res.Elapsed)
}

func oneLine(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	s = strings.ReplaceAll(s, "|", "/")
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

// setup builds the hook program and the floor, finds node and captures the
// stdin hookside gives a hook.
func setup(bin string, quick bool) (*env, error) {
	root, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(root, "bench", "node", "runner.js")); err != nil {
		return nil, fmt.Errorf("run from the module root (bench/node/runner.js not found): %w", err)
	}
	if bin, err = filepath.Abs(bin); err != nil {
		return nil, err
	}
	if _, err := os.Stat(bin); err != nil {
		return nil, fmt.Errorf("hookside binary: %w (run `make build`)", err)
	}
	tmp, err := os.MkdirTemp("", "hookside-bench-")
	if err != nil {
		return nil, err
	}
	e := &env{root: root, tmp: tmp, bin: bin, quick: quick, runnerJS: filepath.Join(root, "bench", "node", "runner.js")}
	e.cwd = filepath.Join(tmp, "ws")
	e.userHome = filepath.Join(tmp, "userhome")
	for _, d := range []string{e.cwd, e.userHome} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	e.res = newResults()
	// The hook program and the C floor need a C compiler: the floor is the
	// fastest spawn there is, and a Go floor alone would hide overhead.
	cc, err := exec.LookPath("cc")
	if err != nil {
		return nil, fmt.Errorf("a C compiler (cc) is needed for the hook program and the C floor: %w", err)
	}
	e.hookBin = filepath.Join(tmp, "hook")
	e.cfloorBin = filepath.Join(tmp, "cfloor")
	for _, b := range []struct{ out, src string }{{e.hookBin, "hook/hook.c"}, {e.cfloorBin, "floor/floor.c"}} {
		if out, err := exec.Command(cc, "-O2", "-o", b.out, filepath.Join(root, "bench", b.src)).CombinedOutput(); err != nil {
			return nil, fmt.Errorf("cc %s: %v: %s", b.src, err, out)
		}
	}
	e.hookKind = "bench/hook/hook.c (cc -O2)"
	e.floorBin = filepath.Join(tmp, "floor")
	if out, err := exec.Command("go", "build", "-o", e.floorBin, "./bench/cmd/floor").CombinedOutput(); err != nil {
		return nil, fmt.Errorf("go build floor: %v: %s", err, out)
	}
	if e.nodeBin, err = exec.LookPath("node"); err != nil {
		return nil, fmt.Errorf("node not found: %w", err)
	}
	e.res.Machine = machineInfo(e)
	// Capture the stdin hookside writes to a hook, so the floor and the
	// Node runner write exactly as many bytes.
	capFile := filepath.Join(tmp, "stdin.json")
	p, err := e.hookside("hookside", userConfig(hookSpec{argv: []string{e.hookBin, "capture", capFile}}, 1, false, "Bash"), nil)
	if err != nil {
		return nil, err
	}
	_, line, err := p.hooksRun("Bash")
	p.stop()
	if err != nil {
		return nil, err
	}
	if !strings.Contains(string(line), `"succeeded"`) {
		return nil, fmt.Errorf("capture run did not succeed: %s", line)
	}
	if e.hookStdin, err = os.ReadFile(capFile); err != nil || len(e.hookStdin) == 0 {
		return nil, fmt.Errorf("no stdin captured: %v", err)
	}
	if e.hookStdin[len(e.hookStdin)-1] != '\n' {
		e.hookStdin = append(e.hookStdin, '\n')
	}
	return e, nil
}

// machine describes where the numbers were taken.
type machine struct {
	CPUs      int    `json:"cpus"`
	CPU       string `json:"cpu"`
	LoadStart string `json:"loadStart"`
	LoadAfter string `json:"loadAfter"`
	Go        string `json:"go"`
	Node      string `json:"node"`
	Hookside  string `json:"hookside"`
	Hook      string `json:"hook"`
	Kernel    string `json:"kernel"`
	Date      string `json:"date"`
	Note      string `json:"note,omitempty"`
}

func machineInfo(e *env) machine {
	m := machine{CPUs: runtime.NumCPU(), Go: runtime.Version(), Hook: e.hookKind, LoadStart: loadavg(), Date: time.Now().UTC().Format(time.RFC3339)}
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
				m.CPU = strings.TrimSpace(v)
				break
			}
		}
	}
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		m.Kernel = strings.TrimSpace(string(b))
	}
	if out, err := exec.Command(e.nodeBin, "--version").Output(); err == nil {
		m.Node = strings.TrimSpace(string(out))
	}
	if out, err := exec.Command(e.bin, "version").Output(); err == nil {
		m.Hookside = strings.TrimSpace(string(out))
	}
	return m
}

func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}
