//go:build linux

package main

import (
	"bufio"
	"bytes"
	"database/sql"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	_ "modernc.org/sqlite"
)

// invariant is one checked claim: how many things were checked, how many
// broke it, and what broke.
type invariant struct {
	name       string
	checked    int
	violations int
	detail     []string
}

type survivor struct {
	slot, inc     int
	rssKiB, fds   int64
	baseRSS, base int64
}

// Bounds on a surviving app-server at the end of the soak.
const (
	maxRSSKiB = 64 << 10
	maxFDs    = 64
)

func (s *soak) check() ([]invariant, error) {
	var inv []invariant
	// Survivors: figures first, then a clean shutdown (EOF).
	var survivors []survivor
	var stopErrs []string
	for _, p := range s.liveProcs() {
		_ = p.cmd.Process.Signal(syscall.SIGCONT)
		rss, fds := procStats(p.pid())
		base := s.firstStats[p.slot]
		if p.inc > 0 {
			base = [2]int64{-1, -1}
		}
		survivors = append(survivors, survivor{slot: p.slot, inc: p.inc, rssKiB: rss, fds: int64(fds), baseRSS: base[0], base: base[1]})
	}
	for _, p := range s.liveProcs() {
		if err := p.stop(10 * time.Second); err != nil {
			stopErrs = append(stopErrs, err.Error())
		}
	}
	s.wg.Wait()
	// Drain: one app-server whose host answers every notification at once.
	s.draining.Store(true)
	drain, err := s.startProc(s.nProcs, 0)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.all = append(s.all, drain)
	s.mu.Unlock()
	if err := drain.handshake(); err != nil {
		return nil, fmt.Errorf("drain app-server: %w", err)
	}
	if _, err := drain.call("v2/settings/get", map[string]any{}, 10*time.Second); err != nil {
		return nil, fmt.Errorf("drain app-server: %w", err)
	}
	db, err := sql.Open("sqlite", "file:"+filepath.Join(s.home, "hookside.db")+"?_pragma=busy_timeout(5000)")
	if err != nil {
		return nil, err
	}
	defer db.Close()
	busy := func() int {
		var n int
		q := `SELECT (SELECT count(*) FROM hook_events WHERE status IN ('pending','dispatching')) +
		             (SELECT count(*) FROM hook_runs WHERE status IN ('queued','running'))`
		if err := db.QueryRow(q).Scan(&n); err != nil {
			return -1
		}
		return n
	}
	// A run is stuck when the queue stops moving, not when it is long: the
	// drain waits while the backlog keeps shrinking, and gives up after
	// stall without progress (or drainMax in all).
	const drainMax = 10 * time.Minute
	stall := 2*max(runLease, eventLease) + 30*time.Second
	t0 := time.Now()
	start := busy()
	least, lastMove := start, t0
	drained := waitFor(drainMax, func() bool {
		n := busy()
		if n >= 0 && n < least {
			least, lastMove = n, time.Now()
		}
		return n == 0 || time.Since(lastMove) > stall
	}) && least == 0
	took := time.Since(t0)
	s.notes = append(s.notes, fmt.Sprintf("drain: one fresh app-server (host answering at once) took the backlog of %d events and runs down to %d in %s (%.0f per second; drained: %v; it gives up after %s without progress)",
		start, least, took.Round(100*time.Millisecond), float64(start-least)/max(took.Seconds(), 0.001), drained, stall))

	inv = append(inv, s.checkEvents(db)...)
	inv = append(inv, s.checkMailbox(drain))
	if err := drain.stop(10 * time.Second); err != nil {
		stopErrs = append(stopErrs, err.Error())
	}
	inv = append(inv, s.checkTrust()...)
	inv = append(inv, s.checkRequests(stopErrs))
	inv = append(inv, s.checkBad())
	inv = append(inv, s.checkNotes())
	inv = append(inv, s.checkSurvivors(survivors))
	inv = append(inv, s.checkProcesses()...)
	return inv, nil
}

func (s *soak) checkEvents(db *sql.DB) []invariant {
	evStatus := map[string]string{}
	rows, err := db.Query(`SELECT event_id, status FROM hook_events`)
	if err != nil {
		return []invariant{{name: "V2 database readable", checked: 1, violations: 1, detail: []string{err.Error()}}}
	}
	for rows.Next() {
		var id, st string
		_ = rows.Scan(&id, &st)
		evStatus[id] = st
	}
	rows.Close()
	type run struct{ id, event, hook, status string }
	var runs []run
	rows, err = db.Query(`SELECT id, event_id, hook_id, status FROM hook_runs`)
	if err != nil {
		return []invariant{{name: "V2 database readable", checked: 1, violations: 1, detail: []string{err.Error()}}}
	}
	for rows.Next() {
		var r run
		_ = rows.Scan(&r.id, &r.event, &r.hook, &r.status)
		runs = append(runs, r)
	}
	rows.Close()
	runsOf := map[string]int{}
	byStatus := map[string]int{}
	for _, r := range runs {
		runsOf[r.event]++
		byStatus[r.hook+" "+r.status]++
	}
	// Every acknowledged event: present, resolved, with its run.
	ev := invariant{name: "every acknowledged V2 event present, resolved, with its run"}
	s.mu.Lock()
	acked := make(map[string]string, len(s.events))
	for k, v := range s.events {
		acked[k] = v
	}
	deliveries := make(map[string]int, len(s.deliveries))
	for k, v := range s.deliveries {
		deliveries[k] = v
	}
	s.mu.Unlock()
	missing, unresolved, runless := 0, 0, 0
	for id := range acked {
		ev.checked++
		switch st, ok := evStatus[id]; {
		case !ok:
			missing++
		case st != "resolved":
			unresolved++
			if unresolved <= 5 {
				var attempts int
				var lastErr sql.NullString
				_ = db.QueryRow(`SELECT attempts, last_error FROM hook_events WHERE event_id = ?`, id).Scan(&attempts, &lastErr)
				ev.detail = append(ev.detail, fmt.Sprintf("event %.16s… (%s) is %s after %d attempts, last_error %q, %d runs", id, acked[id], st, attempts, lastErr.String, runsOf[id]))
			}
		case runsOf[id] == 0:
			runless++
		}
	}
	ev.violations = missing + unresolved + runless
	ev.detail = append(ev.detail, fmt.Sprintf("%d acknowledged (%d in the database in all); missing %d, not resolved %d, resolved without a run %d", len(acked), len(evStatus), missing, unresolved, runless))

	// Executions: the command action appends its run id to a log; the host
	// counts every notification it was asked to show.
	executed := map[string]int{}
	if f, err := os.Open(s.logPath); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			executed[strings.TrimSpace(sc.Text())]++
		}
		f.Close()
	}
	once := invariant{name: "no succeeded action executed twice (nor succeeded without executing)"}
	twice, never := 0, 0
	for _, r := range runs {
		n := executed[r.id]
		if r.hook == "soak-notify" {
			n = deliveries[r.id]
		}
		if r.status == "succeeded" {
			once.checked++
			if n == 0 {
				never++
				if len(once.detail) < 5 {
					once.detail = append(once.detail, fmt.Sprintf("run %s (%s) succeeded, never executed", r.id, r.hook))
				}
			}
		}
		if n > 1 {
			twice++
			if len(once.detail) < 5 {
				once.detail = append(once.detail, fmt.Sprintf("run %s (%s, %s) executed %d times", r.id, r.hook, r.status, n))
			}
		}
	}
	once.violations = twice + never
	once.detail = append(once.detail, fmt.Sprintf("%d succeeded runs checked (command: lines in the action log; notification: the host's deliveries); executed twice %d, succeeded never executed %d", once.checked, twice, never))

	stuck := invariant{name: "no run stuck running (or queued) after the drain", checked: len(runs)}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(byStatus)) {
		parts = append(parts, fmt.Sprintf("%s %d", k, byStatus[k]))
		if strings.HasSuffix(k, " running") || strings.HasSuffix(k, " queued") {
			stuck.violations += byStatus[k]
		}
	}
	stuck.detail = append(stuck.detail, "runs by definition and status: "+strings.Join(parts, ", "))
	return []invariant{ev, once, stuck}
}

func (s *soak) checkMailbox(drain *proc) invariant {
	in := invariant{name: "every acknowledged mailbox post present"}
	s.mu.Lock()
	want := map[string]map[string]bool{}
	for sid, ids := range s.mailbox {
		want[sid] = ids
	}
	s.mu.Unlock()
	for sid, ids := range want {
		f, err := drain.call("session/mailbox/list", map[string]any{"sessionId": sid}, 10*time.Second)
		var r struct {
			Messages []struct {
				MessageID string `json:"messageId"`
			} `json:"messages"`
		}
		if err != nil || f.Error != nil || json.Unmarshal(f.Result, &r) != nil {
			in.violations += len(ids)
			in.detail = append(in.detail, fmt.Sprintf("session/mailbox/list %s failed: %v %v", sid, err, f.Error))
			continue
		}
		have := map[string]bool{}
		for _, m := range r.Messages {
			have[m.MessageID] = true
		}
		for id := range ids {
			in.checked++
			if !have[id] {
				in.violations++
			}
		}
	}
	in.detail = append(in.detail, fmt.Sprintf("%d acknowledged posts in %d sessions; %d missing", in.checked, len(want), in.violations))
	return in
}

func (s *soak) checkTrust() []invariant {
	t := s.trust
	t.settle()
	checked, wrong, skipped, detail := t.verify()
	g := invariant{name: "every acknowledged grant (and revoke) present in the trust file", checked: checked, violations: wrong, detail: detail}
	t.mu.Lock()
	g.detail = append(g.detail, fmt.Sprintf("CLI ops acknowledged: grant %d, revoke %d; refused: %s; %d declarations skipped (last op failed: state unknown)",
		t.acked["grant"], t.acked["revoke"], mapString(t.failed), skipped))
	g.detail = append(g.detail, t.why...)
	c := invariant{name: "trust file always complete (parseable JSON on every read)", checked: t.reads - t.absent - t.injected, violations: t.incomplete}
	c.detail = append(c.detail, fmt.Sprintf("%d reads every 20 ms: %d complete, %d absent (set aside after a corruption, or before the first grant), %d the injected torn content, %d incomplete", t.reads, t.complete, t.absent, t.injected, t.incomplete))
	if t.firstIncomplete != "" {
		c.detail = append(c.detail, "first incomplete read: "+t.firstIncomplete)
	}
	t.mu.Unlock()
	if b, err := os.ReadFile(s.trustPath); err == nil && !json.Valid(b) {
		c.violations++
		c.detail = append(c.detail, "the trust file at the end does not parse")
	}
	return []invariant{g, c}
}

func mapString(m map[string]int) string {
	if len(m) == 0 {
		return "none"
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, fmt.Sprintf("%s ×%d", k, m[k]))
	}
	return strings.Join(parts, ", ")
}

func (s *soak) checkRequests(stopErrs []string) invariant {
	in := invariant{name: "every request answered within its deadline + grace"}
	s.mu.Lock()
	defer s.mu.Unlock()
	for label, r := range s.reqs {
		in.checked += r.n - r.stalled
		in.violations += r.late + r.unanswered
		if r.late+r.unanswered > 0 {
			in.detail = append(in.detail, fmt.Sprintf("%s: %d late (worst +%s), %d unanswered", label, r.late, r.worstOver.Round(time.Millisecond), r.unanswered))
		}
	}
	in.violations += len(stopErrs)
	in.detail = append(in.detail, stopErrs...)
	in.detail = append(in.detail, fmt.Sprintf("grace = deadline (hook timeoutMs + %s kill grace + %s pipe abandon; 5 s for other calls) + %s slack; requests whose process was SIGSTOPped meanwhile are answered but not timed; requests lost with a SIGKILLed process are not counted",
		killGrace, pipeAbandon, s.slack))
	return in
}

func (s *soak) checkBad() invariant {
	in := invariant{name: "every bad input answered with a typed error, server still answering"}
	s.mu.Lock()
	defer s.mu.Unlock()
	var nullErrs int64
	for _, p := range s.all {
		nullErrs += p.nullErrors.Load()
	}
	if st := s.bad[malformedName]; st != nil {
		st.typed = int(min(nullErrs, int64(st.tried)))
	}
	for _, st := range s.bad {
		in.checked += st.tried
		in.violations += st.wrong
	}
	if st := s.bad[malformedName]; st != nil && int64(st.tried) > nullErrs {
		// A malformed line sent just before a kill -9 may go unanswered.
		in.detail = append(in.detail, fmt.Sprintf("%d malformed lines, %d parse-error replies (id null)", st.tried, nullErrs))
	}
	return in
}

// checkNotes: on every app-server that was not killed, each hook/started
// was followed by the hook/completed of the same runId.
func (s *soak) checkNotes() invariant {
	in := invariant{name: "every hook/started followed by its hook/completed (app-servers not killed)"}
	s.mu.Lock()
	all := append([]*proc(nil), s.all...)
	killed := s.killedInc
	s.mu.Unlock()
	for _, p := range all {
		if killed[p.token] {
			continue
		}
		p.mu.Lock()
		in.checked += p.notes
		in.violations += len(p.open)
		for id := range p.open {
			if len(in.detail) < 5 {
				in.detail = append(in.detail, fmt.Sprintf("slot %d incarnation %d: run %s started, never completed", p.slot, p.inc, id))
			}
		}
		p.mu.Unlock()
	}
	return in
}

func (s *soak) checkSurvivors(sv []survivor) invariant {
	in := invariant{name: fmt.Sprintf("RSS ≤ %d MiB and open fds ≤ %d of every surviving app-server", maxRSSKiB>>10, maxFDs), checked: len(sv)}
	for _, v := range sv {
		base := ""
		if v.baseRSS >= 0 {
			base = fmt.Sprintf(" (after warm-up %.1f MiB, %d fds)", float64(v.baseRSS)/1024, v.base)
		}
		in.detail = append(in.detail, fmt.Sprintf("slot %d incarnation %d: RSS %.1f MiB, %d fds%s", v.slot, v.inc, float64(v.rssKiB)/1024, v.fds, base))
		if v.rssKiB > maxRSSKiB || v.fds > maxFDs {
			in.violations++
		}
	}
	return in
}

// checkProcesses scans /proc for this soak's SOAK_TOKEN: nothing a hook or
// an action started may be alive once its app-server shut down. What an
// app-server killed with SIGKILL left is reported apart (protocol §5: only
// an action's main process gets PR_SET_PDEATHSIG). Everything found is
// killed afterwards.
func (s *soak) checkProcesses() []invariant {
	scan := func() map[int]string {
		found := map[int]string{}
		ents, _ := os.ReadDir("/proc")
		for _, e := range ents {
			pid, err := strconv.Atoi(e.Name())
			if err != nil || pid == os.Getpid() {
				continue
			}
			b, err := os.ReadFile("/proc/" + e.Name() + "/environ")
			if err != nil {
				continue
			}
			for _, kv := range bytes.Split(b, []byte{0}) {
				if v, ok := bytes.CutPrefix(kv, []byte("SOAK_TOKEN=")); ok && bytes.HasPrefix(v, []byte(s.runID)) {
					found[pid] = string(v)
				}
			}
		}
		return found
	}
	s.mu.Lock()
	killed := s.killedInc
	s.mu.Unlock()
	orderly := func() int {
		n := 0
		for _, tok := range scan() {
			if !killed[tok] {
				n++
			}
		}
		return n
	}
	waitFor(3*time.Second, func() bool { return orderly() == 0 })
	// A SIGKILLed app-server's janitor kills its hooks' groups and sweeps
	// their run tokens when its pipe closes: give it the same time.
	waitFor(3*time.Second, func() bool { return len(scan()) == 0 })
	found := scan()
	live := invariant{name: "no hook or action process alive after its app-server shut down (SOAK_TOKEN scan of /proc)", checked: len(s.all) + 1}
	left := invariant{name: "no hook or action process alive after its app-server was killed with SIGKILL (its janitor's kill and sweep)", checked: len(killed)}
	for pid, tok := range found {
		cmd, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		what := fmt.Sprintf("pid %d (%s) token %s", pid, strings.TrimSpace(string(bytes.ReplaceAll(cmd, []byte{0}, []byte{' '}))), strings.TrimPrefix(tok, s.runID+"-"))
		if killed[tok] {
			left.violations++
			if len(left.detail) < 5 {
				left.detail = append(left.detail, what)
			}
		} else {
			live.violations++
			if len(live.detail) < 8 {
				live.detail = append(live.detail, what)
			}
		}
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
	live.detail = append(live.detail, fmt.Sprintf("%d app-server incarnations and the CLI scanned", len(s.all)))
	return []invariant{live, left}
}
