package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime/pprof"
	"sort"
	"strconv"
	"strings"

	"github.com/hookside/hookside/rpc"
	hexec "github.com/hookside/hookside/runner/exec"
)

// profileMisses profiles the path behind each missed target. The server
// side runs in a child process of this binary (rpc.Serve over real OS
// pipes, the code app-server runs, as the subreaper of its hooks like
// app-server) under the CPU profiler while the driver replays the
// figure's requests; pprof -top of that goes into RESULTS.md. Start-up is
// traced with GODEBUG=inittrace=1.
func profileMisses(e *env) {
	seen := map[string]bool{}
	for _, m := range e.res.Misses {
		if seen[m] {
			continue
		}
		seen[m] = true
		var text, title string
		var err error
		hook := hookSpec{argv: []string{e.hookBin}}
		switch m {
		case "fig1":
			title = "fig. 1 / 2 — one hook per hooks/run, 1000 requests one at a time (server side: rpc.Serve in a child process, the subreaper of its hooks as app-server is; CPU only: waits for the hook are not in it)"
			text, err = inprocProfile(e, userConfig(hook, 1, false, "Bash"), 1000, 1)
		case "fig3":
			title = "fig. 3 — no-match hooks/run, 100,000 requests, 32 in flight (server side: rpc.Serve in a child process)"
			text, err = inprocProfile(e, userConfig(hook, 1, false, "Edit"), 100000, 32)
		case "cap":
			title = "output cap — a hook printing 16 MiB, 40 requests one at a time (server side: rpc.Serve in a child process)"
			text, err = inprocProfile(e, userConfig(hookSpec{argv: []string{e.hookBin, "spew", strconv.Itoa(16 << 20)}}, 1, false, "Bash"), 40, 1)
		case "fig4":
			title = "fig. 4 — GODEBUG=inittrace=1 hookside version (slowest package inits)"
			text, err = initTrace(e)
		default:
			continue
		}
		if err != nil {
			text = "profile failed: " + err.Error()
		}
		e.res.profile(title, text)
	}
}

// inprocProfile profiles the server side of n hooks/run requests for Bash
// (window in flight) on cfg: rpc.Serve, the code app-server runs, in a
// child process (this binary with -profile-serve) that is the subreaper of
// its hooks and starts their janitor, as app-server is and does, so that
// what is profiled is what app-server does for a hook (a process that is
// not the subreaper also sweeps every hook's run token: runner/exec). The
// profile covers the requests after the warm-up.
func inprocProfile(e *env, cfg map[string]any, n, window int) (string, error) {
	dir, err := os.MkdirTemp(e.tmp, "prof-")
	if err != nil {
		return "", err
	}
	if err := writeJSON(filepath.Join(dir, "config.json"), cfg); err != nil {
		return "", err
	}
	self, err := os.Executable()
	if err != nil {
		return "", err
	}
	p, err := startPeer("profiled server", e.cwd, childEnv(e.userHome, "HOOKSIDE_HOME="+dir), self, "-profile-serve", dir)
	if err != nil {
		return "", err
	}
	defer p.stop()
	if err := e.handshake(p, nil); err != nil {
		return "", err
	}
	run := func(k int) error {
		if window > 1 {
			_, _, err := pipelined(p, k, window, "Bash")
			return err
		}
		for range k {
			if _, _, err := p.hooksRun("Bash"); err != nil {
				return err
			}
		}
		return nil
	}
	if err := run(max(5, n/10)); err != nil { // warm
		return "", err
	}
	// SIGUSR1 starts the profile (as the signal arrives: the first of the
	// requests may run before it).
	if profileStartSignal != nil {
		if err := p.cmd.Process.Signal(profileStartSignal); err != nil {
			return "", err
		}
	}
	if err := run(n); err != nil {
		return "", err
	}
	p.stop() // EOF: the child stops the profile, writes it and exits
	prof := filepath.Join(dir, "cpu.pprof")
	if st, err := os.Stat(prof); err != nil || st.Size() == 0 {
		return "", fmt.Errorf("the profiled server wrote no profile (%v): %s", err, tail(p.stderr.String()))
	}
	out, err := exec.Command("go", "tool", "pprof", "-top", "-nodecount=35", self, prof).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("pprof: %v: %s", err, tail(string(out)))
	}
	// Drop pprof's header lines naming temporary files.
	var keep []string
	for _, l := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(l, "File:") || strings.HasPrefix(l, "Build ID:") || strings.HasPrefix(l, "Time:") {
			continue
		}
		keep = append(keep, l)
	}
	return strings.Join(keep, "\n"), nil
}

func initTrace(e *env) (string, error) {
	cmd := exec.Command(e.bin, "version")
	cmd.Env = append(childEnv(e.userHome), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", err
	}
	type ent struct {
		line string
		ms   float64
	}
	var ents []ent
	var total float64
	for _, l := range strings.Split(string(out), "\n") {
		if !strings.HasPrefix(l, "init ") {
			continue
		}
		f := strings.Fields(l) // init pkg @x ms, y ms clock, …
		if len(f) < 5 {
			continue
		}
		var ms float64
		fmt.Sscan(f[4], &ms)
		total += ms
		ents = append(ents, ent{l, ms})
	}
	sort.Slice(ents, func(i, j int) bool { return ents[i].ms > ents[j].ms })
	var b strings.Builder
	fmt.Fprintf(&b, "%d package inits, %.2f ms clock in total; slowest:\n", len(ents), total)
	for i := 0; i < len(ents) && i < 15; i++ {
		b.WriteString(ents[i].line + "\n")
	}
	return b.String(), nil
}

// profileServe is the child of inprocProfile (-profile-serve DIR): it is
// the subreaper of its hooks and starts their janitor, as app-server does,
// serves hooks/run on stdin/stdout with rpc.Serve on the home DIR, starts
// the CPU profile (DIR/cpu.pprof) at SIGUSR1 and stops it at EOF.
func profileServe(dir string) error {
	if err := hexec.EnableSubreaper(); err != nil {
		return err
	}
	if err := hexec.EnableJanitor(nil); err != nil {
		return err
	}
	f, err := os.Create(filepath.Join(dir, "cpu.pprof"))
	if err != nil {
		return err
	}
	if profileStartSignal == nil {
		_ = pprof.StartCPUProfile(f) // no signal to wait for: the warm-up is in it
	} else {
		start := make(chan os.Signal, 1)
		signal.Notify(start, profileStartSignal)
		go func() {
			<-start
			_ = pprof.StartCPUProfile(f)
		}()
	}
	rpc.Serve(context.Background(), os.Stdin, os.Stdout, rpc.Options{Home: dir, Version: "bench", Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	pprof.StopCPUProfile()
	return f.Close()
}
