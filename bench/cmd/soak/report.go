//go:build linux

package main

import (
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"
)

func quantile(v []float64, q float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	i := max(0, min(len(s)-1, int(math.Ceil(q*float64(len(s))))-1))
	return s[i]
}

// report writes the markdown report and says whether every invariant
// held.
func (s *soak) report(out string, load time.Duration, inv []invariant) (bool, error) {
	var w strings.Builder
	version, _ := exec.Command(s.bin, "version").Output()
	fmt.Fprintf(&w, "# hookside soak\n\nWritten by `make soak` (`go run ./bench/cmd/soak`). Taken %s on %d CPU(s), %s, %s; load and faults for %s, then a drain and the checks.\n\n",
		s.started.UTC().Format(time.RFC3339), runtime.NumCPU(), runtime.Version(), strings.TrimSpace(string(version)), load.Round(time.Second))
	for _, n := range s.notes {
		fmt.Fprintf(&w, "%s\n\n", n)
	}
	fmt.Fprintf(&w, "Set-up: %d `hookside app-server --stdio` processes on one home (%s), each driven over real pipes with %d hook sessions, "+
		"a V2 emitter, a mailbox poster and a bad-input sender; a CLI `hookside v2 emit` every 1.5 s; two CLI `hooks trust grant|revoke` loops over %d workspace declarations; "+
		"a sampler reading the trust file every 20 ms. V2 run lease %s, event lease %s, maintenance tick %s (`HOOKSIDE_V2_RUN_LEASE_MS`, `HOOKSIDE_V2_EVENT_LEASE_MS`, `HOOKSIDE_V2_MAINTENANCE_MS`). "+
		"Every process the soak starts carries `SOAK_TOKEN=<run>-<slot>-<incarnation>`, which every hook and action inherits.\n\n",
		s.nProcs, s.tmpfsNote, s.nSessions, trustDecls, runLease, eventLease, maintenance)

	ok := true
	w.WriteString("## Invariants\n\n| invariant | checked | violations | held |\n|---|---|---|---|\n")
	for _, in := range inv {
		held := "yes"
		if in.violations > 0 {
			held = "**no**"
			ok = false
		}
		fmt.Fprintf(&w, "| %s | %d | %d | %s |\n", in.name, in.checked, in.violations, held)
	}
	w.WriteString("\n")
	for _, in := range inv {
		for _, d := range in.detail {
			fmt.Fprintf(&w, "- %s: %s\n", in.name, cell(d))
		}
	}

	secs := load.Seconds()
	w.WriteString("\n## Load held\n\n| what | count | per second | p50 | p99 | late / unanswered / lost with a killed process / during a stall |\n|---|---|---|---|---|---|\n")
	s.mu.Lock()
	labels := make([]string, 0, len(s.reqs))
	total := 0
	for l, r := range s.reqs {
		labels = append(labels, l)
		if strings.HasPrefix(l, "hooks/run") {
			total += r.n
		}
	}
	sort.Strings(labels)
	fmt.Fprintf(&w, "| hooks/run, all kinds | %d | %.1f | | | |\n", total, float64(total)/secs)
	for _, l := range labels {
		r := s.reqs[l]
		fmt.Fprintf(&w, "| %s | %d | %.1f | %.1f ms | %.1f ms | %d / %d / %d / %d |\n", l, r.n, float64(r.n)/secs, quantile(r.lat, 0.5), quantile(r.lat, 0.99), r.late, r.unanswered, r.lost, r.stalled)
	}
	acked := len(s.events)
	fmt.Fprintf(&w, "| V2 events acknowledged (app-servers and CLI) | %d | %.1f | | | |\n", acked, float64(acked)/secs)
	keys := make([]string, 0, len(s.counts))
	for k := range s.counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	w.WriteString("\nEverything counted (outcomes, refusals, host behaviour, notifications):\n\n| counter | count |\n|---|---|\n")
	for _, k := range keys {
		fmt.Fprintf(&w, "| %s | %d |\n", cell(k), s.counts[k])
	}

	w.WriteString("\n## Faults injected\n\n| fault | injected | survived | examples |\n|---|---|---|---|\n")
	for _, k := range []string{faultKill, faultStall, faultDisk, faultCorrupt} {
		f := s.faults[k]
		if f == nil {
			f = &faultStat{}
		}
		fmt.Fprintf(&w, "| %s | %d | %d | %s |\n", k, f.injected, f.survived, cell(strings.Join(f.detail, " · ")))
	}
	w.WriteString("\nSurvived: kill -9 — the restarted incarnation answered initialize and a V2 call; stall — the process answered after SIGCONT; full disk — every live app-server acknowledged an emit within 10 s of space coming back; corrupted trust file — the refused write set it aside and the next grant was acknowledged on a fresh file.\n")

	w.WriteString("\n## Bad inputs tried\n\n| input | tried | typed error | answered otherwise |\n|---|---|---|---|\n")
	names := make([]string, 0, len(s.bad))
	for k := range s.bad {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		b := s.bad[k]
		fmt.Fprintf(&w, "| %s | %d | %d | %d |\n", k, b.tried, b.typed, b.wrong)
	}
	s.mu.Unlock()
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return false, err
	}
	// The scratch directory is random and gone after the run.
	text := strings.ReplaceAll(w.String(), s.tmp, "<soak dir>")
	return ok, os.WriteFile(out, []byte(text), 0o644)
}

func cell(s string) string { return strings.ReplaceAll(strings.ReplaceAll(s, "|", "\\|"), "\n", " ") }
