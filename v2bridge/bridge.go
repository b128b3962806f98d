// Package v2bridge is the V2 lifecycle bridge of hookside
// (hooks-v2-handbook.zh.txt §3–§13, design/PROTOCOL.md §5): the API behind
// the v2/* methods (definitions, bindings, emit, runs, settings, legacy
// migration) and the pipeline that executes runs — outbox → dispatcher → run
// queue → workers (§9).
//
// The pure rules live in v2bridge/expr and the SQLite persistence in
// v2bridge/store; this package wires them together, owns the goroutines and
// executes actions: `command` actions through exec.Run (runner/exec), host actions
// (notification, sound, tool) through a Host the RPC layer provides.
//
// # Ownership rule (several processes on one home)
//
// Every hookside process on a home shares one database. A process claims a
// queued run only when it can execute its action right now: `command` runs
// are claimable by every process that runs workers; notification, sound and
// tool runs only by a process whose connected host declared that action in
// initialize.capabilities.hostActions. So another process never executes a
// host action on behalf of a connection it does not own. A host action run
// dispatched by a process whose connected host did not declare the action is
// recorded blocked + policy_blocked at once (the host said it cannot do it);
// one dispatched by a process without a connected host (the CLI) stays queued
// until a capable process claims it.
//
// # Wake-ups
//
// Nothing polls on the hot path: an emit in this process wakes the
// dispatcher (store.SubscribeEvents), a created or re-queued run wakes the
// workers (store.SubscribeRuns) — of this process directly, of the other
// processes on the home through the wake file (wake.go). Timers exist only
// for the maintenance tick (RecoverExpired, retention Sweep, and a fallback
// for work of other processes should the wake-up be unavailable) and for
// backoff wake-ups.
package v2bridge

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hookside/hookside/internal/home"
	"github.com/hookside/hookside/internal/randid"
	"github.com/hookside/hookside/runner/exec"
	"github.com/hookside/hookside/v2bridge/store"
)

// Defaults of the pipeline (hooks-v2-handbook §9.3, §9.4).
const (
	DefaultRunLease            = 5 * time.Minute
	DefaultEventLease          = 60 * time.Second
	DefaultWorkers             = 4
	DefaultMaintenanceInterval = 5 * time.Second
	// DefaultHostClaimTimeout bounds how long a host-action run waits in
	// the queue for a capable host before it is skipped.
	DefaultHostClaimTimeout = 10 * time.Minute
	// SweepEvery throttles the retention sweep (§14.2: at most every 10 min).
	SweepEvery = 10 * time.Minute
	// dispatchBatch is how many events one ClaimEvents takes (§9.3: 8).
	dispatchBatch = 8
)

// Environment overrides (tests use short leases).
const (
	EnvRunLeaseMs    = "HOOKSIDE_V2_RUN_LEASE_MS"
	EnvEventLeaseMs  = "HOOKSIDE_V2_EVENT_LEASE_MS"
	EnvMaintenanceMs = "HOOKSIDE_V2_MAINTENANCE_MS"
	EnvWorkers       = "HOOKSIDE_V2_WORKERS"
	EnvHostClaimMs   = "HOOKSIDE_V2_HOST_CLAIM_MS"
)

// Options configure Open.
type Options struct {
	// Home is the hookside home; the database is Home/hookside.db.
	Home string
	// Path overrides the database path (tests).
	Path   string
	Logger *slog.Logger
	// RunLease (default 5 min, $HOOKSIDE_V2_RUN_LEASE_MS), EventLease
	// (default 60 s, $HOOKSIDE_V2_EVENT_LEASE_MS): §9.4.
	RunLease   time.Duration
	EventLease time.Duration
	// MaintenanceInterval is the lease-sweep tick (default min(5 s,
	// RunLease/2), $HOOKSIDE_V2_MAINTENANCE_MS).
	MaintenanceInterval time.Duration
	// HostClaimTimeout (default 10 min, $HOOKSIDE_V2_HOST_CLAIM_MS): a
	// queued notification, sound or tool run that no connected host which
	// declared its action claims within this time is skipped +
	// no_capable_host (SkipUnclaimedHostRuns), checked at open and on every
	// maintenance tick.
	HostClaimTimeout time.Duration
	// Workers is the number of worker goroutines (default 4,
	// $HOOKSIDE_V2_WORKERS). Runs of different sessions and definitions
	// execute concurrently; serial_per_session is kept by the claim query.
	Workers int
	// NoPipeline opens the database for API calls only: no dispatcher,
	// workers or timers (CLI runs list/get/retry/cancel).
	NoPipeline bool
	// NoCreate is for callers that only read (CLI list and get): a
	// missing home or database is left missing, and the bridge answers
	// from an empty database in memory instead (every list empty, every
	// get ErrNotFound; the same validation and result shapes as a real
	// one), discarded at Close. An existing database is opened as usual.
	// NoCreate implies NoPipeline.
	NoCreate bool
	// ClaimSessionID, when set, restricts this bridge's workers to runs of
	// that session and turns off the backlog dispatch (the CLI's in-process
	// pipeline for its own event: it must not pick up, and then abandon on
	// exit, other work of the shared home).
	ClaimSessionID string
	// ClaimEventID, with ClaimSessionID, narrows the workers further to
	// the runs of that event and the queued runs of the session that must
	// run before them (store.ClaimFilter.EventID): the CLI's emit never
	// takes another concurrent emit's run, which it would cancel when it
	// exits after its own event.
	ClaimEventID string
	// ResolveAtEmit makes Emit decide the event's runs itself and store the
	// event, its runs and the resolved mark in one transaction
	// (store.EmitResolved: one commit instead of the outbox's and the
	// dispatcher's two). Should the decision fail, or the master switch be
	// off, the event is stored pending for the dispatcher as without it.
	// The CLI's one-event pipeline sets it; an app-server keeps Emit's
	// group commit of concurrent emits.
	ResolveAtEmit bool
	// OnRunUpdated is called (in order, from one goroutine) for every run
	// this process creates or changes: the RPC layer pushes v2/run/updated.
	OnRunUpdated func(store.Run)
	// OnBindingUpdated is called when the bridge itself changes a binding:
	// reason "auto_paused" after AutoPauseAfter consecutive policy-blocked
	// runs (§14.1). The RPC layer pushes v2/binding/updated.
	OnBindingUpdated func(b BindingView, reason string)
	// Locale is the connected host's locale (BCP 47, initialize's
	// locale): the language of the fallback notification titles
	// (DefaultNotificationTitle). Empty = English.
	Locale string
	// Store tunes the SQLite store.
	Store store.Options
	// Spawner starts `command` actions and queued async shell hooks (nil =
	// exec.Processes, real processes). Tests pass a fake.
	Spawner exec.Spawner
}

// Bridge is an open V2 bridge: the database plus the pipeline goroutines.
type Bridge struct {
	db    *store.DB
	log   *slog.Logger
	opts  Options
	owner string // lease owner id of this process/bridge

	ctx    context.Context // cancelled by Close
	cancel context.CancelFunc
	wg     sync.WaitGroup

	dispatchWake *signal
	changed      *signal // Changed: this process committed a run or dispatch change
	workerWake   *kicker
	// backlogWanted asks the dispatcher for a ClaimEvents pass (start-up,
	// maintenance tick, master switch on); a wake for events emitted here
	// only resolves those.
	backlogWanted atomic.Bool

	mu       sync.Mutex
	host     Host
	actions  map[string]bool        // host actions the connected host declared
	pending  []string               // event ids emitted here, not yet dispatched
	local    map[string]store.Event // events being emitted here (saves a read)
	inflight map[string]*inflightRun
	// idle is closed when inflight becomes empty (nil while it is): Close
	// waits on it for the grace period.
	idle   chan struct{}
	closed bool

	notes       chan store.Run
	notesMu     sync.RWMutex // guards notesClosed against late store callbacks
	notesClosed bool
	notesWG     sync.WaitGroup
	unsubs      []func()
	lastSwep    time.Time
	wake        *waker // cross-process wake-up (wake.go)
}

type inflightRun struct {
	cancel context.CancelCauseFunc
}

// Errors of the bridge API (mapped to wire codes by the RPC layer).
var (
	// ErrUnavailable: the database cannot be opened or used (corrupt,
	// locked beyond the busy timeout, unwritable home).
	ErrUnavailable = errors.New("v2 store unavailable")
	// ErrClosed: the bridge was closed.
	ErrClosed = errors.New("v2 bridge closed")
)

// InvalidError is a caller mistake in one field (wire -32602).
type InvalidError struct {
	Field, Reason string
	Data          any // extra detail (e.g. validation problems)
}

func (e *InvalidError) Error() string {
	if e.Field == "" {
		return "invalid params: " + e.Reason
	}
	return fmt.Sprintf("invalid params: %s: %s", e.Field, e.Reason)
}

func invalid(field, format string, args ...any) error {
	return &InvalidError{Field: field, Reason: fmt.Sprintf(format, args...)}
}

// Open opens the database (creating it) and, unless NoPipeline, starts the
// pipeline after a start-up recovery (§9.4). A database that cannot be used
// returns an error wrapping ErrUnavailable and the store's reason.
func Open(opts Options) (*Bridge, error) {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(os.Stderr, nil))
	}
	if opts.RunLease <= 0 {
		opts.RunLease = envDuration(EnvRunLeaseMs, DefaultRunLease)
	}
	if opts.EventLease <= 0 {
		opts.EventLease = envDuration(EnvEventLeaseMs, DefaultEventLease)
	}
	if opts.MaintenanceInterval <= 0 {
		opts.MaintenanceInterval = envDuration(EnvMaintenanceMs, min(DefaultMaintenanceInterval, max(opts.RunLease/2, 50*time.Millisecond)))
	}
	if opts.HostClaimTimeout <= 0 {
		opts.HostClaimTimeout = envDuration(EnvHostClaimMs, DefaultHostClaimTimeout)
	}
	if opts.Spawner == nil {
		opts.Spawner = exec.Processes
	}
	if opts.Workers <= 0 {
		opts.Workers = DefaultWorkers
		if n, err := strconv.Atoi(os.Getenv(EnvWorkers)); err == nil && n > 0 {
			opts.Workers = n
		}
	}
	path := opts.Path
	if path == "" {
		if opts.Home == "" {
			return nil, fmt.Errorf("%w: no home directory", ErrUnavailable)
		}
		path = home.DBPath(opts.Home)
		if err := checkHome(opts.Home); err != nil {
			return nil, err
		}
		if !opts.NoCreate {
			if err := os.MkdirAll(opts.Home, 0o700); err != nil {
				return nil, mkHomeError(opts.Home, err)
			}
		}
	}
	wakeDir := filepath.Dir(path)
	if opts.NoCreate {
		opts.NoPipeline = true
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			// One connection: every connection to ":memory:" is a
			// database of its own.
			path, wakeDir = store.MemoryPath, ""
			opts.Store.OneConnection = true
		}
	}
	db, err := store.Open(path, opts.Store)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, dbError(err))
	}
	ctx, cancel := context.WithCancel(context.Background())
	host, _ := os.Hostname()
	b := &Bridge{
		db: db, log: opts.Logger, opts: opts,
		owner:        fmt.Sprintf("%s:%d:%s", host, os.Getpid(), randid.New("")[:12]),
		ctx:          ctx,
		cancel:       cancel,
		dispatchWake: newSignal(),
		changed:      newSignal(),
		workerWake:   &kicker{ch: make(chan struct{}, 1)},
		inflight:     map[string]*inflightRun{},
		local:        map[string]store.Event{},
		notes:        make(chan store.Run, 4096),
		wake:         newWaker(wakeDir),
	}
	b.notesWG.Add(1)
	go b.notifier()
	b.unsubs = append(b.unsubs, db.SubscribeRuns(b.runChanged))
	if opts.NoPipeline {
		return b, nil
	}
	b.unsubs = append(b.unsubs, db.SubscribeEvents(b.eventsEnqueued))
	b.wake.watch(b.workerWake.kick, b.log.Warn)
	// Start-up recovery (§9.4): expired runs become outcome_unknown, stuck
	// events go back to pending; failures are logged, never fatal.
	if rec, err := db.RecoverExpired(ctx, b.now()); err != nil {
		b.log.Warn("v2 start-up recovery failed", "err", err)
	} else if rec.EventsReleased > 0 || len(rec.RunsUnknown) > 0 {
		b.log.Info("v2 start-up recovery", "eventsReleased", rec.EventsReleased, "runsOutcomeUnknown", len(rec.RunsUnknown))
	}
	b.skipUnclaimedHostRuns(b.now()) // before a worker could hand a stale one to the host
	b.backlogWanted.Store(opts.ClaimSessionID == "")
	b.wg.Add(2 + opts.Workers)
	go b.dispatchLoop()
	go b.maintenanceLoop()
	for range opts.Workers {
		go b.workerLoop()
	}
	b.workerWake.kick() // the start-up pass over what is already queued
	return b, nil
}

// Changed returns a channel closed at the next change this process commits
// to a run (created, claimed, finished, re-queued) or to an event's dispatch
// (resolved, failed, released). Take it before reading the state it guards;
// changes made by other processes are not signalled.
func (b *Bridge) Changed() <-chan struct{} { return b.changed.wait() }

// DB returns the store (tests, CLI).
func (b *Bridge) DB() *store.DB { return b.db }

// Owner is this bridge's lease owner id.
func (b *Bridge) Owner() string { return b.owner }

// Close stops claiming, gives in-flight actions up to grace to finish, then
// cancels them (each is recorded outcome_unknown: it may have happened,
// §9.4, §12.2), stops the goroutines and closes the database.
func (b *Bridge) Close(grace time.Duration) error {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return nil
	}
	b.closed = true
	b.mu.Unlock()
	b.dispatchWake.broadcast()
	b.workerWake.kick()
	if grace > 0 {
		b.mu.Lock()
		idle := b.idle
		b.mu.Unlock()
		if idle != nil {
			t := time.NewTimer(grace)
			select {
			case <-idle:
			case <-t.C:
			}
			t.Stop()
		}
	}
	b.cancelInflight(errShutdown)
	b.cancel()
	b.wg.Wait()
	for _, u := range b.unsubs {
		u()
	}
	b.notesMu.Lock()
	b.notesClosed = true
	close(b.notes)
	b.notesMu.Unlock()
	b.notesWG.Wait()
	b.wake.close()
	return b.db.Close()
}

func (b *Bridge) isClosed() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.closed
}

// addInflight records a running action; b.mu must be held.
func (b *Bridge) addInflight(id string, f *inflightRun) {
	if len(b.inflight) == 0 {
		b.idle = make(chan struct{})
	}
	b.inflight[id] = f
}

// removeInflight forgets a finished action and closes idle when it was the
// last; b.mu must be held.
func (b *Bridge) removeInflight(id string) {
	delete(b.inflight, id)
	if len(b.inflight) == 0 && b.idle != nil {
		close(b.idle)
		b.idle = nil
	}
}

// inflightIDs lists the runs this process is executing.
func (b *Bridge) inflightIDs() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	ids := make([]string, 0, len(b.inflight))
	for id := range b.inflight {
		ids = append(ids, id)
	}
	return ids
}

// cancelInflight cancels every action running in this process with cause.
func (b *Bridge) cancelInflight(cause error) {
	b.mu.Lock()
	for _, f := range b.inflight {
		f.cancel(cause)
	}
	b.mu.Unlock()
}

// runChanged is the store subscription: hand the run to the notifier and
// wake the workers when something became claimable.
func (b *Bridge) runChanged(r store.Run) {
	b.changed.broadcast()
	switch {
	case r.Status == store.RunQueued:
		b.wake.touch() // the other processes on this home first: a local worker may not be able to run it
		b.workerWake.kick()
	case r.Status != store.RunRunning && r.ConcurrencyPolicy == store.SerialPerSession:
		// Its end may make the next run of its hook and session claimable
		// (§10.5 serial order), maybe one another process is waiting for
		// (a concurrent `hookside v2 emit` of the same session): without
		// this it would wait for its maintenance tick.
		b.wake.touch()
		b.workerWake.kick()
	}
	if b.opts.OnRunUpdated == nil {
		return
	}
	b.notesMu.RLock()
	defer b.notesMu.RUnlock()
	if b.notesClosed {
		return
	}
	select {
	case b.notes <- r:
	default:
		b.log.Warn("v2 run update notification dropped: queue full", "run", r.ID, "status", r.Status)
	}
}

func (b *Bridge) notifier() {
	defer b.notesWG.Done()
	for r := range b.notes {
		if b.opts.OnRunUpdated != nil {
			b.guard("run update callback", func() { b.opts.OnRunUpdated(r) })
		}
	}
}

func (b *Bridge) eventsEnqueued(ids []string) {
	b.mu.Lock()
	b.pending = append(b.pending, ids...)
	b.mu.Unlock()
	b.dispatchWake.broadcast()
}

// maintenanceLoop is the only periodic timer: lease recovery (§9.4),
// retention (§9.2, §14.2, throttled to SweepEvery) and a nudge to the
// dispatcher and workers for work other processes put in the shared file.
func (b *Bridge) maintenanceLoop() {
	defer b.wg.Done()
	t := time.NewTicker(b.opts.MaintenanceInterval)
	defer t.Stop()
	for {
		select {
		case <-b.ctx.Done():
			return
		case <-t.C:
		}
		b.guard("maintenance", b.maintain)
	}
}

func (b *Bridge) maintain() {
	now := b.now()
	// Own in-flight runs are renewed first, in the sweep's transaction: a
	// stall or a clock jump must not make this process's live runs zombies.
	own := store.Renewal{Owner: b.owner, RunIDs: b.inflightIDs(), Lease: b.opts.RunLease}
	if _, err := b.db.RenewAndRecover(b.ctx, now, own); err != nil && b.ctx.Err() == nil {
		b.log.Warn("v2 lease recovery failed", "err", err)
	}
	b.skipUnclaimedHostRuns(now)
	if now.Sub(b.lastSwep) >= SweepEvery {
		b.lastSwep = now
		if set, err := b.db.GetSettings(b.ctx); err == nil {
			if _, err := b.db.Sweep(b.ctx, now, set.Retention); err != nil && b.ctx.Err() == nil {
				b.log.Warn("v2 retention sweep failed", "err", err)
			}
		}
	}
	b.wakeBacklog()
	b.workerWake.kick()
}

// wakeBacklog makes the dispatcher claim the outbox backlog.
func (b *Bridge) wakeBacklog() {
	b.backlogWanted.Store(b.opts.ClaimSessionID == "")
	b.dispatchWake.broadcast()
}

// kicker wakes one idle worker: a token in a one-slot channel. A worker
// that claimed a run kicks again, so a burst of queued runs fans out over
// the workers one claim at a time, while an idle pool is woken by a single
// claim attempt instead of every worker racing for the one write lock.
type kicker struct{ ch chan struct{} }

func (k *kicker) kick() {
	select {
	case k.ch <- struct{}{}:
	default:
	}
}

// signal is a broadcast wake-up: waiters take the channel before checking
// for work, so a broadcast between the check and the wait is never missed.
type signal struct {
	mu sync.Mutex
	ch chan struct{}
}

func newSignal() *signal { return &signal{ch: make(chan struct{})} }

func (s *signal) wait() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ch
}

func (s *signal) broadcast() {
	s.mu.Lock()
	close(s.ch)
	s.ch = make(chan struct{})
	s.mu.Unlock()
}

func envDuration(name string, def time.Duration) time.Duration {
	if v := os.Getenv(name); v != "" {
		if n, err := strconv.Atoi(v); err == nil && n > 0 {
			return time.Duration(n) * time.Millisecond
		}
	}
	return def
}

// skipUnclaimedHostRuns skips the host-action runs that waited longer than
// HostClaimTimeout for a capable host; failures are logged.
func (b *Bridge) skipUnclaimedHostRuns(now time.Time) {
	msg := fmt.Sprintf("no connected host that declared this action in capabilities.hostActions claimed the run within %v; skipped so it does not appear later in another session", b.opts.HostClaimTimeout)
	runs, err := b.db.SkipUnclaimedHostRuns(b.ctx, now, now.Add(-b.opts.HostClaimTimeout), CodeNoCapableHost, msg)
	if err != nil && b.ctx.Err() == nil {
		b.log.Warn("v2 unclaimed host-action runs", "err", err)
	} else if len(runs) > 0 {
		b.log.Info("v2 host-action runs skipped: no capable host", "runs", len(runs), "claimTimeout", b.opts.HostClaimTimeout)
	}
}

// now is the bridge's clock (the store's, so leases and backoff agree).
func (b *Bridge) now() time.Time {
	if b.opts.Store.Now != nil {
		return b.opts.Store.Now()
	}
	return time.Now()
}
