//go:build linux

// Command soak runs hookside's reliability claims together for a bounded
// time (`make soak`, `make soak-smoke`) and writes bench/SOAK.md: several
// `hookside app-server --stdio` processes on one home, driven over real
// pipes, under load (shell hooks that behave and that misbehave, CLI trust
// grants and revokes, V2 emits whose notification actions a scripted host
// answers fast, slowly, with an error or never, CLI emits, mailbox posts,
// bad inputs) and faults (kill -9 and restart, SIGSTOP stalls longer than
// the V2 run lease, a full disk, a corrupted trust file); then it checks
// the invariants and exits 1 when one fails.
//
//	go run ./bench/cmd/soak -bin bin/hookside [-duration 3m] [-out bench/SOAK.md]
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/hookside/hookside/internal/randid"
)

// Timing of the V2 pipeline under the soak: a short run lease so that a
// stall outlives it, and a notification timeout the slow host exceeds.
const (
	runLease      = 2 * time.Second
	eventLease    = 3 * time.Second
	maintenance   = 500 * time.Millisecond
	notifyTimeout = time.Second
	killGrace     = 500 * time.Millisecond // SIGTERM → SIGKILL (protocol §3)
	pipeAbandon   = 100 * time.Millisecond // an escaped grandchild's pipe
)

type soak struct {
	bin, tmp, home, ws, logPath, trustPath string
	runID                                  string
	dur, slack, hardCap                    time.Duration
	nProcs, nSessions                      int
	tmpfs                                  bool
	tmpfsNote                              string
	started                                time.Time

	stop     chan struct{}
	v2ready  chan struct{} // closed once the definitions and bindings exist
	wg       sync.WaitGroup
	draining atomic.Bool

	mu         sync.Mutex
	slots      []*proc // current incarnation per slot (nil while restarting)
	all        []*proc // every incarnation
	killedInc  map[string]bool
	counts     map[string]int64
	reqs       map[string]*reqStat
	deliveries map[string]int             // notification runId → times the host got it
	events     map[string]string          // acknowledged eventId → eventName
	mailbox    map[string]map[string]bool // session → acknowledged messageIds
	faults     map[string]*faultStat
	bad        map[string]*badStat
	firstStats map[int][2]int64 // slot → RSS KiB, fds after warm-up
	notes      []string

	trust *trustDriver
}

type reqStat struct {
	n, late, stalled, lost, unanswered int
	worstOver                          time.Duration
	lat                                []float64 // ms
}

type faultStat struct {
	injected, survived int
	detail             []string
}

type badStat struct{ tried, typed, wrong int }

func main() {
	bin := flag.String("bin", "bin/hookside", "the hookside binary")
	out := flag.String("out", "bench/SOAK.md", "report file")
	dur := flag.Duration("duration", 3*time.Minute, "how long load and faults run (the checks come after)")
	procs := flag.Int("procs", 3, "app-server processes sharing the home")
	sessions := flag.Int("sessions", 2, "concurrent hook sessions per app-server")
	slack := flag.Duration("slack", 1500*time.Millisecond, "grace added to every request's deadline (a shared machine is slow)")
	note := flag.String("note", "", "a sentence about the machine for the report")
	flag.Parse()
	s, err := setup(*bin, *dur, *procs, *sessions, *slack)
	if err != nil {
		fmt.Fprintln(os.Stderr, "soak:", err)
		os.Exit(1)
	}
	if *note != "" {
		s.notes = append(s.notes, *note)
	}
	ok, err := s.run(*out)
	s.cleanup()
	if err != nil {
		fmt.Fprintln(os.Stderr, "soak:", err)
		os.Exit(1)
	}
	if !ok {
		fmt.Fprintf(os.Stderr, "soak: an invariant failed (see %s)\n", *out)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "soak: every invariant held (%s)\n", *out)
}

func setup(bin string, dur time.Duration, procs, sessions int, slack time.Duration) (*soak, error) {
	abs, err := filepath.Abs(bin)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(abs); err != nil {
		return nil, fmt.Errorf("hookside binary: %w (run `make build`)", err)
	}
	tmp, err := os.MkdirTemp("", "hookside-soak-")
	if err != nil {
		return nil, err
	}
	s := &soak{bin: abs, tmp: tmp, home: filepath.Join(tmp, "home"), ws: filepath.Join(tmp, "ws"),
		logPath: filepath.Join(tmp, "actions.log"), runID: randid.New("soak"),
		dur: dur, slack: slack, hardCap: 30 * time.Second, nProcs: procs, nSessions: sessions,
		stop: make(chan struct{}), v2ready: make(chan struct{}), slots: make([]*proc, procs), killedInc: map[string]bool{},
		counts: map[string]int64{}, reqs: map[string]*reqStat{}, deliveries: map[string]int{},
		events: map[string]string{}, mailbox: map[string]map[string]bool{}, faults: map[string]*faultStat{},
		bad: map[string]*badStat{}, firstStats: map[int][2]int64{}}
	s.trustPath = filepath.Join(s.home, "security", "workspace-hook-trust-v1.json")
	if err := os.MkdirAll(s.home, 0o700); err != nil {
		return nil, err
	}
	s.mountTmpfs()
	if err := s.writeConfigs(); err != nil {
		return nil, err
	}
	return s, nil
}

// mountTmpfs puts the home on a small tmpfs when running as root, so the
// full-disk fault can fill it; otherwise that fault is skipped.
func (s *soak) mountTmpfs() {
	if os.Geteuid() != 0 {
		s.tmpfsNote = "not root: the home is a plain directory and the full-disk fault is skipped"
		return
	}
	if err := syscall.Mount("tmpfs", s.home, "tmpfs", 0, "size=48m,mode=0700"); err != nil {
		s.tmpfsNote = "mounting a tmpfs home failed (" + err.Error() + "): the full-disk fault is skipped"
		return
	}
	s.tmpfs = true
	s.tmpfsNote = "the home is a 48 MiB tmpfs"
}

func (s *soak) cleanup() {
	if s.tmpfs {
		_ = syscall.Unmount(s.home, syscall.MNT_DETACH)
	}
	_ = os.RemoveAll(s.tmp)
}

// hook kinds of the load: the tool name each hooks/run names picks one.
type hookKind struct {
	tool, command string
	timeoutMs     int
	weight        int
	outcome       string // expected runs[0].outcome
}

var hookKinds = []hookKind{
	{"SoakOk", `cat >/dev/null; echo '{}'`, 5000, 60, "succeeded"},
	{"SoakHang", `cat >/dev/null; sleep 600`, 300, 10, "timed_out"},
	{"SoakFlood", `cat >/dev/null; yes soak-flood-line-of-output`, 300, 8, "timed_out"},
	{"SoakEscape", `cat >/dev/null; setsid sleep 600 >/dev/null 2>&1 & echo '{}'`, 2000, 12, "succeeded"},
	{"SoakIgnoreTerm", `trap '' TERM; cat >/dev/null; sleep 600`, 300, 10, "timed_out"},
}

// trustDecls is how many workspace declarations the CLI grants and revokes.
const trustDecls = 8

func (s *soak) writeConfigs() error {
	var groups []any
	for _, k := range hookKinds {
		groups = append(groups, map[string]any{"matcher": k.tool, "hooks": []any{
			map[string]any{"type": "command", "command": k.command, "timeoutMs": k.timeoutMs}}})
	}
	if err := writeJSON(filepath.Join(s.home, "config.json"), map[string]any{"hooks": map[string]any{
		"enabled": true, "events": map[string]any{"PreToolUse": groups}}}); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(s.ws, ".git"), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(s.ws, ".git", "HEAD"), []byte("ref: refs/heads/main\n"), 0o644); err != nil {
		return err
	}
	decls := make([]any, trustDecls)
	for i := range decls {
		decls[i] = map[string]any{"type": "command", "command": fmt.Sprintf("echo '{}' # soak declaration %d", i)}
	}
	return writeJSON(filepath.Join(s.ws, "zcode.json"), map[string]any{"hooks": map[string]any{"events": map[string]any{
		"PostToolUse": []any{map[string]any{"matcher": "SoakWorkspace", "hooks": decls}}}}})
}

// childEnv is the soak's environment without hookside/host variables, with
// the soak's home and leases, plus extra.
func (s *soak) childEnv(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "HOOKSIDE_") || strings.HasPrefix(k, "CLAUDE_") || strings.HasPrefix(k, "ZCODE_") || k == "SOAK_TOKEN" {
			continue
		}
		env = append(env, kv)
	}
	env = append(env, "HOOKSIDE_HOME="+s.home,
		fmt.Sprintf("HOOKSIDE_V2_RUN_LEASE_MS=%d", runLease.Milliseconds()),
		fmt.Sprintf("HOOKSIDE_V2_EVENT_LEASE_MS=%d", eventLease.Milliseconds()),
		fmt.Sprintf("HOOKSIDE_V2_MAINTENANCE_MS=%d", maintenance.Milliseconds()))
	return append(env, extra...)
}

func (s *soak) cli(stdin string, args ...string) (string, int, error) {
	cmd := exec.Command(s.bin, args...)
	cmd.Dir, cmd.Env = s.ws, s.childEnv("SOAK_TOKEN="+s.runID+"-cli")
	if stdin != "" {
		cmd.Stdin = strings.NewReader(stdin)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); ok {
		return string(out), ee.ExitCode(), fmt.Errorf("%s: exit %d: %s", strings.Join(args[:min(3, len(args))], " "), ee.ExitCode(), tailStr(stderr.String()))
	}
	return string(out), 0, err
}

func tailStr(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 300 {
		s = "…" + s[len(s)-300:]
	}
	return s
}

func (s *soak) count(key string, n int64) {
	s.mu.Lock()
	s.counts[key] += n
	s.mu.Unlock()
}

func (s *soak) stat(label string) *reqStat {
	r := s.reqs[label]
	if r == nil {
		r = &reqStat{}
		s.reqs[label] = r
	}
	return r
}

func (s *soak) answered(p *proc, w *pending, d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.stat(w.method)
	r.n++
	if g := p.stallGen.Load(); g != w.gen || w.gen%2 == 1 {
		r.stalled++
		return
	}
	if len(r.lat) < 200000 {
		r.lat = append(r.lat, float64(d.Microseconds())/1000)
	}
	if over := d - w.bound; over > 0 {
		r.late++
		r.worstOver = max(r.worstOver, over)
	}
}

func (s *soak) lostWithProcess(p *proc, w *pending) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.stat(w.method)
	if p.killed.Load() {
		r.lost++
	} else {
		r.unanswered++
	}
}

func (s *soak) unanswered(p *proc, w *pending) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stat(w.method).unanswered++
}

func (s *soak) delivered(runID string) {
	s.mu.Lock()
	s.deliveries[runID]++
	s.mu.Unlock()
}

func (s *soak) fault(kind string) *faultStat {
	f := s.faults[kind]
	if f == nil {
		f = &faultStat{}
		s.faults[kind] = f
	}
	return f
}

// sleep waits d or until the soak stops; false when stopping.
func (s *soak) sleep(d time.Duration) bool {
	select {
	case <-s.stop:
		return false
	case <-time.After(d):
		return true
	}
}
