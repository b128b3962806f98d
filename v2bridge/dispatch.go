package v2bridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/hookside/hookside/internal/jsonexact"
	"github.com/hookside/hookside/v2bridge/expr"
	"github.com/hookside/hookside/v2bridge/store"
)

// Run error codes (PROTOCOL §5.1, hooks-v2-handbook §6.3, §10.2).
const (
	CodeConditionNotMatched = "condition_not_matched"
	CodeMappingFailed       = expr.ErrorCodeMappingFailed
	CodeTrustRequired       = "trust_required"
	CodePolicyBlocked       = "policy_blocked"
	CodeToolNotFound        = "tool_not_found"
	CodeToolVersionChanged  = "tool_version_changed"
	CodeAmbiguousBinding    = "ambiguous_binding"
	CodeActionFailed        = "action_failed"
	CodeTimeout             = "timeout"
	CodeTransientFailure    = "transient_failure"
	// CodeNoCapableHost: a notification, sound or tool run that no host
	// which declared the action claimed within the host claim timeout
	// (Options.HostClaimTimeout); the run is skipped.
	CodeNoCapableHost = "no_capable_host"
)

// snapshot is a run's execution snapshot (store NewRun.Execution): what the
// worker executes, frozen at dispatch (§9.1 "建运行快照"), so a later edit of
// the definition never changes a queued run; the worker re-checks that the
// binding still trusts exactly this hash (§7.3, §8.2).
type snapshot struct {
	Action            expr.Action           `json:"action"`
	Condition         *expr.Condition       `json:"condition,omitempty"`
	InputMapping      map[string]expr.Value `json:"inputMapping"`
	TimeoutMs         int                   `json:"timeoutMs"`
	RetryPolicy       expr.RetryPolicy      `json:"retryPolicy"`
	ConcurrencyPolicy string                `json:"concurrencyPolicy"`
	ExecutionHash     string                `json:"executionHash"`
	Revision          int                   `json:"revision"`
	EventName         string                `json:"eventName"`
	// Envelope is dropped when the run reaches a terminal state
	// (store.PrivateExecutionMembers); a manual retry reads it back from
	// the event.
	Envelope json.RawMessage `json:"envelope,omitempty"`
	// ShellHook is set for an async shell hook handed to the queue
	// (EnqueueShellHook); the run then has no definition or binding.
	ShellHook *shellHookSnap `json:"shellHook,omitempty"`
}

func (s *snapshot) definition() *expr.Definition {
	tm := s.TimeoutMs
	rp := s.RetryPolicy
	d := &expr.Definition{EventName: s.EventName, Condition: s.Condition, Action: s.Action,
		InputMapping: s.InputMapping, TimeoutMs: &tm, RetryPolicy: &rp, ConcurrencyPolicy: s.ConcurrencyPolicy}
	d.ApplyDefaults()
	return d
}

// newRunFor builds the queued run of definition d for env, with its snapshot.
func newRunFor(sd store.Definition, d *expr.Definition, env *expr.Envelope, bd *store.Binding) (store.NewRun, error) {
	envRaw, err := json.Marshal(env)
	if err != nil {
		return store.NewRun{}, err
	}
	dd := *d
	dd.ApplyDefaults()
	snap := snapshot{Action: dd.Action, Condition: dd.Condition, InputMapping: nonNilMapping(dd.InputMapping),
		TimeoutMs: *dd.TimeoutMs, RetryPolicy: *dd.RetryPolicy, ConcurrencyPolicy: dd.ConcurrencyPolicy,
		ExecutionHash: sd.ExecutionHash, Revision: sd.Revision, EventName: dd.EventName, Envelope: envRaw}
	exec, err := json.Marshal(snap)
	if err != nil {
		return store.NewRun{}, err
	}
	nr := store.NewRun{HookID: sd.ID, HookRevision: sd.Revision, ConcurrencyPolicy: dd.ConcurrencyPolicy, Execution: exec}
	if bd != nil {
		nr.BindingID = bd.ID
	}
	return nr, nil
}

// blockUndeclared records a host action run blocked + policy_blocked when
// this process has a connected host that did not declare the action (the
// ownership rule of the package comment). Without a connected host the run
// stays queued for a process whose host can run it.
func (b *Bridge) blockUndeclared(nr *store.NewRun, actionType string) {
	if nr.Status != "" && nr.Status != store.RunQueued {
		return
	}
	if !isHostAction(actionType) {
		return
	}
	if connected, declared := b.hostState(actionType); connected && !declared {
		nr.Status = store.RunBlocked
		nr.ErrorCode = CodePolicyBlocked
		nr.ErrorMessage = fmt.Sprintf("the connected host did not declare %q in capabilities.hostActions", actionType)
	}
}

// dispatchLoop is the dispatcher (§9.1): events emitted here are resolved at
// once; the backlog (events of other processes, released leases, the master
// switch turned back on) is claimed with a lease (§9.4).
func (b *Bridge) dispatchLoop() {
	defer b.wg.Done()
	for {
		wake := b.dispatchWake.wait()
		if b.isClosed() {
			return
		}
		b.dispatchPending()
		if b.backlogWanted.Swap(false) {
			b.dispatchBacklog()
		}
		select {
		case <-wake:
		case <-b.ctx.Done():
			return
		}
	}
}

// dispatchPending resolves the events this process just emitted without a
// claim round-trip: ResolveEvent is idempotent (runs are UNIQUE(event_id,
// hook_id)), so racing another process's dispatcher is harmless.
func (b *Bridge) dispatchPending() {
	b.mu.Lock()
	ids := b.pending
	b.pending = nil
	b.mu.Unlock()
	if len(ids) == 0 {
		return
	}
	set, err := b.db.GetSettings(b.ctx)
	if err != nil || !set.Enabled {
		// master switch off (§12.1): the backlog pass picks them up later
		b.mu.Lock()
		for _, id := range ids {
			delete(b.local, id)
		}
		b.mu.Unlock()
		return
	}
	for _, id := range ids {
		b.mu.Lock()
		ev, ok := b.local[id]
		delete(b.local, id)
		b.mu.Unlock()
		if !ok {
			var err error
			if ev, err = b.db.GetEvent(b.ctx, id); err != nil || ev.Status != store.EventPending {
				continue
			}
		}
		if err := b.dispatchEventSafe(ev); err != nil && b.ctx.Err() == nil {
			b.log.Warn("v2 dispatch failed; the event stays pending", "event", id, "err", err)
		}
	}
}

func (b *Bridge) dispatchBacklog() {
	for b.ctx.Err() == nil && !b.isClosed() {
		evs, err := b.db.ClaimEvents(b.ctx, b.owner, b.opts.EventLease, dispatchBatch)
		if err != nil {
			if b.ctx.Err() == nil {
				b.log.Warn("v2 claim events failed", "err", err)
			}
			return
		}
		if len(evs) == 0 {
			return
		}
		for _, ev := range evs {
			if err := b.dispatchEventSafe(ev); err != nil && b.ctx.Err() == nil {
				b.log.Warn("v2 dispatch failed; event released", "event", ev.ID, "err", err)
				_ = b.db.ReleaseEvent(b.ctx, ev.ID, b.owner, err.Error())
			}
		}
	}
}

// DispatchStored dispatches the stored event id now, in the caller's
// goroutine (one attempt of §9.1's dispatch, as the dispatcher makes it):
// nil when the event is dispatched (resolved or failed) by this call or
// already was. An event that another process's dispatcher holds under a
// live lease (§9.4) is left to it: ErrEventLeased. The master switch is
// not checked here (the caller decides, §12.1). Other errors are the
// dispatch's own (reading the definitions and bindings, the commit), the
// event staying pending.
func (b *Bridge) DispatchStored(ctx context.Context, id string) error {
	ev, err := b.db.GetEvent(ctx, id)
	switch {
	case err != nil:
		return storeErr(err, "")
	case ev.Status != store.EventPending:
		return nil
	case ev.LeaseOwner != "" && ev.LeaseOwner != b.owner && ev.LeaseUntil.After(b.now()):
		return ErrEventLeased
	}
	return b.dispatchEventSafe(ev)
}

// ErrEventLeased: another dispatcher holds the event's lease (DispatchStored).
var ErrEventLeased = errors.New("another process is dispatching the event")

// dispatchEventSafe is dispatchEvent with a recover: a panic leaves the
// event pending (or releases its lease) like any dispatch error, and the
// dispatcher keeps serving.
func (b *Bridge) dispatchEventSafe(ev store.Event) (err error) {
	defer b.changed.broadcast()
	if b.guard("dispatcher", func() { err = b.dispatchEvent(ev) }) {
		return fmt.Errorf("internal error dispatching event %s (panic, logged)", ev.ID)
	}
	return err
}

// errBadEnvelope marks an event that can never be dispatched.
var errBadEnvelope = errors.New("unreadable envelope")

// dispatchEvent resolves one event (§9.1): for every enabled definition of
// the event, the effective binding (§7.1), the condition (§4), and the run
// snapshot; all runs and the "resolved" mark in ONE transaction.
func (b *Bridge) dispatchEvent(ev store.Event) error {
	var env expr.Envelope
	if err := jsonexact.Unmarshal(ev.Envelope, &env); err != nil {
		owner := ""
		if ev.LeaseOwner == b.owner {
			owner = b.owner
		}
		return b.db.FailEvent(b.ctx, ev.ID, owner, fmt.Sprintf("%v: %v", errBadEnvelope, err))
	}
	if !expr.KnownEvent(env.EventName) {
		// A missing or unknown event name would list every definition
		// (ListDefinitions("")) or none: the event fails instead.
		owner := ""
		if ev.LeaseOwner == b.owner {
			owner = b.owner
		}
		return b.db.FailEvent(b.ctx, ev.ID, owner, fmt.Sprintf("%v: unknown lifecycle event name %q", errBadEnvelope, env.EventName))
	}
	runs, err := b.resolveRuns(b.ctx, &env, nil)
	if err != nil {
		return err
	}
	_, err = b.db.ResolveEvent(b.ctx, ev.ID, runs)
	if err == nil {
		b.log.Debug("v2 event dispatched", "event", ev.ID, "name", env.EventName, "runs", len(runs))
	}
	return err
}

// resolveRuns decides the runs of one envelope (§7, §4, §7.4):
//   - no matching binding, or a disabled effective binding: no run;
//   - several bindings at the winning priority: blocked + ambiguous_binding;
//   - condition miss: skipped + condition_not_matched (whatever the
//     binding's state);
//   - otherwise queued with the snapshot — also for a needs_review binding,
//     which the worker's pre-check records blocked + trust_required (§7.2:
//     the lack of authorization is visible in the audit).
//
// m, when not nil, also collects the emit reply's matches from the same
// reads (Options.ResolveAtEmit).
func (b *Bridge) resolveRuns(ctx context.Context, env *expr.Envelope, m *matches) ([]store.NewRun, error) {
	defs, err := b.db.ListDefinitions(ctx, env.EventName)
	if err != nil {
		return nil, err
	}
	var runs []store.NewRun
	for _, sd := range defs {
		if !sd.Enabled {
			continue
		}
		bs, err := b.db.ListBindings(ctx, sd.ID)
		if err != nil {
			return nil, err
		}
		if m != nil {
			m.add(sd, bs, env)
		}
		win, matched, ambiguous := effectiveBinding(bs, env)
		if !matched || (!ambiguous && win.State == store.BindingDisabled) {
			continue
		}
		d, err := fromStore(sd)
		if err != nil {
			runs = append(runs, store.NewRun{HookID: sd.ID, HookRevision: sd.Revision, BindingID: win.ID,
				Status: store.RunFailed, ErrorCode: CodeActionFailed, ErrorMessage: "stored definition unreadable: " + err.Error(),
				ConcurrencyPolicy: sd.ConcurrencyPolicy})
			continue
		}
		nr, err := newRunFor(sd, d, env, &win)
		if err != nil {
			return nil, err
		}
		// The condition is decided first, whatever the binding's state
		// (§11.1: skipped is decided at dispatch). A needs_review binding's
		// matching run is queued like any other and blocked trust_required
		// by the worker's pre-check (§7.2 "仍会进入队列"), so a
		// re-authorization before the worker reaches it lets it run.
		ok, err := expr.Evaluate(d.Condition, env)
		switch {
		case err != nil:
			nr.Status, nr.ErrorCode, nr.ErrorMessage = store.RunFailed, CodeActionFailed, "condition: "+err.Error()
		case !ok:
			nr.Status, nr.ErrorCode = store.RunSkipped, CodeConditionNotMatched
		case ambiguous:
			nr.Status, nr.ErrorCode = store.RunBlocked, CodeAmbiguousBinding
			nr.ErrorMessage = "several bindings of this hook match at the same scope priority"
		}
		b.blockUndeclared(&nr, d.Action.Type)
		runs = append(runs, nr)
	}
	return runs, nil
}
