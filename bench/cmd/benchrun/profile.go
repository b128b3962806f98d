package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
	"sort"
	"strconv"
	"strings"

	"github.com/hookside/hookside/rpc"
)

// profileMisses profiles the path behind each missed target. The server
// side runs in this process (rpc.Serve over real OS pipes, the code
// app-server runs) under the CPU profiler while the driver replays the
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
			title = "fig. 1 / 2 — one hook per hooks/run, 1000 requests one at a time (server side, in process; CPU only: waits for the child are not in it)"
			text, err = inprocProfile(e, userConfig(hook, 1, false, "Bash"), 1000, 1)
		case "fig3":
			title = "fig. 3 — no-match hooks/run, 100,000 requests, 32 in flight (server side and driver, in process)"
			text, err = inprocProfile(e, userConfig(hook, 1, false, "Edit"), 100000, 32)
		case "cap":
			title = "output cap — a hook printing 16 MiB, 40 requests one at a time (server side, in process)"
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

// inprocProfile serves cfg with rpc.Serve in this process and profiles n
// hooks/run requests for Bash (window in flight).
func inprocProfile(e *env, cfg map[string]any, n, window int) (string, error) {
	dir, err := os.MkdirTemp(e.tmp, "prof-")
	if err != nil {
		return "", err
	}
	if err := writeJSON(filepath.Join(dir, "config.json"), cfg); err != nil {
		return "", err
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		return "", err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		return "", err
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		rpc.Serve(context.Background(), inR, outW, rpc.Options{Home: dir, Version: "bench", Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		outW.Close()
	}()
	p := &peer{name: "in-process", w: inW, r: bufio.NewReaderSize(outR, 1<<20), stderr: &bytes.Buffer{}, id: 100}
	defer func() {
		inW.Close()
		go io.Copy(io.Discard, outR)
		<-done
	}()
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
	prof := filepath.Join(dir, "cpu.pprof")
	f, err := os.Create(prof)
	if err != nil {
		return "", err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		return "", err
	}
	err = run(n)
	pprof.StopCPUProfile()
	f.Close()
	if err != nil {
		return "", err
	}
	self, err := os.Executable()
	if err != nil {
		return "", err
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
