package v2bridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/hookside/hookside/internal/jsonexact"
	"github.com/hookside/hookside/v2bridge/expr"
	"github.com/hookside/hookside/v2bridge/store"
)

// Causes of an action cancelled in flight: the run is recorded
// outcome_unknown (§9.4, §12.2) — it may already have had its effect.
var (
	errShutdown = errors.New("hookside shut down while the action was in flight")
	// §12.2: 尽力取消 — cancelled as far as possible, nothing rolled back.
	errSwitchOff = errors.New("the master switch was turned off while the action was in flight (cancelled as far as possible; not rolled back)")
	errLeaseLost = errors.New("the run lease was lost")
)

// outcome is the result of one attempt.
type outcome struct {
	// requeue: the action was not started after all (e.g. the host went
	// away between claim and call): back to the queue, no error recorded.
	requeue           bool
	status, code, msg string
	input, output     any // summarized before storing (§11.3)
	keyed             bool
	// pipeline: hookside's own pipeline failed before the action was sent
	// (fixed 60 s re-queue, see PipelineRetryDelay).
	pipeline bool
}

func (o outcome) retryable() bool {
	return o.status == store.RunFailed && (o.code == CodeTransientFailure || o.code == CodeTimeout)
}

func blocked(code, format string, args ...any) outcome {
	return outcome{status: store.RunBlocked, code: code, msg: fmt.Sprintf(format, args...)}
}

func failed(code, msg string) outcome {
	return outcome{status: store.RunFailed, code: code, msg: msg}
}

// workerLoop is one worker (§9.1 HookWorker): sleep until woken, then claim
// (lease), execute, write the terminal state or re-queue until nothing is
// claimable. Open's start-up kick wakes one worker, which wakes the next
// when it claims a run (kicker).
func (b *Bridge) workerLoop() {
	defer b.wg.Done()
	for {
		select {
		case <-b.workerWake.ch:
		case <-b.ctx.Done():
			return
		}
		for b.ctx.Err() == nil && !b.isClosed() && b.workOnceSafe() {
		}
	}
}

// workOnceSafe is workOnce with a last-resort recover (a panic outside the
// action path, e.g. while writing the outcome, leaves the run to its lease:
// outcome_unknown); the worker keeps serving.
func (b *Bridge) workOnceSafe() (worked bool) {
	if b.guard("worker", func() { worked = b.workOnce() }) {
		return true
	}
	return worked
}

// workOnce claims and executes one run; false when nothing was claimable.
func (b *Bridge) workOnce() bool {
	run, ok, err := b.db.ClaimRun(b.ctx, b.owner, b.opts.RunLease, b.now(),
		store.ClaimFilter{ActionTypes: b.claimableActions(), SessionID: b.opts.ClaimSessionID, EventID: b.opts.ClaimEventID,
			ReadFirst: b.opts.ClaimSessionID != ""}) // the CLI's session usually has nothing queued
	if err != nil {
		if b.ctx.Err() == nil {
			b.log.Warn("v2 claim run failed", "err", err)
		}
		return false
	}
	if !ok {
		return false
	}
	b.workerWake.kick() // another worker may find the next one
	b.execute(run)
	return true
}

// execute runs one claimed run to its terminal state or re-queue. The lease
// is renewed every RunLease/3 while it runs (§9.4).
func (b *Bridge) execute(run store.Run) {
	if b.isClosed() { // claimed while closing: nothing was started
		b.finish(run, outcome{requeue: true})
		return
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	b.mu.Lock()
	if b.closed {
		cancel(errShutdown)
	}
	b.addInflight(run.ID, &inflightRun{cancel: cancel})
	b.mu.Unlock()
	defer func() {
		b.mu.Lock()
		b.removeInflight(run.ID)
		b.mu.Unlock()
	}()
	renewDone := make(chan struct{})
	go b.renew(ctx, run.ID, cancel, renewDone)
	o := b.performSafe(ctx, run)
	o = cancelledBeforeSend(o, context.Cause(ctx))
	cancel(nil)
	<-renewDone
	b.finish(run, o)
}

// cancelledBeforeSend corrects o when the run was cancelled from outside
// (shutdown, master switch off, lease lost: cause) before its action was
// sent: the pipeline's reads then fail only because of that cancellation,
// which is not a pipeline failure — §10.3's fixed 60 s re-queue would hold
// back every later run of its hook and session (§10.5) for a minute. The run
// goes back to the queue claimable at once (nothing was started); with the
// lease lost somebody else already decided.
func cancelledBeforeSend(o outcome, cause error) outcome {
	switch {
	case !o.pipeline || cause == nil:
		return o
	case errors.Is(cause, errLeaseLost):
		return outcome{}
	}
	return outcome{requeue: true}
}

func (b *Bridge) renew(ctx context.Context, id string, cancel context.CancelCauseFunc, done chan struct{}) {
	defer close(done)
	defer func() {
		if p := recover(); p != nil {
			b.log.Error("v2 lease renewal panic recovered", "run", id, "panic", fmt.Sprint(p))
		}
	}()
	t := time.NewTicker(max(b.opts.RunLease/3, 10*time.Millisecond))
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if err := b.db.RenewRunLease(context.Background(), id, b.owner, b.opts.RunLease); errors.Is(err, store.ErrLeaseLost) || errors.Is(err, store.ErrNotFound) {
			cancel(errLeaseLost)
			return
		} else if err != nil {
			b.log.Warn("v2 lease renewal failed", "run", id, "err", err)
		}
	}
}

// finish writes the outcome: a retryable failure is re-queued with backoff
// backoffMs·2^(attemptCount−1) when the retry mode allows it (§10.2–§10.4),
// everything else is terminal.
func (b *Bridge) finish(run store.Run, o outcome) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if o.requeue {
		if _, err := b.db.RequeueRun(ctx, run.ID, b.owner, b.now(), "", ""); err != nil {
			b.log.Warn("v2 requeue failed", "run", run.ID, "err", err)
		}
		return
	}
	if o.status == "" { // lease lost: somebody else decided (outcome_unknown)
		return
	}
	if o.pipeline && run.AttemptCount < MaxPipelineAttempts {
		next := b.now().Add(PipelineRetryDelay)
		if _, err := b.db.RequeueRun(ctx, run.ID, b.owner, next, CodeTransientFailure, o.msg); err != nil {
			b.log.Warn("v2 requeue failed", "run", run.ID, "err", err)
			return
		}
		time.AfterFunc(PipelineRetryDelay+time.Millisecond, b.workerWake.kick)
		return
	}
	var snap snapshot
	_ = jsonexact.Unmarshal(run.Execution, &snap)
	if o.retryable() {
		rp := snap.definition().RetryPolicy
		mode, maxAttempts, backoff := rp.Mode, *rp.MaxAttempts, *rp.BackoffMs
		retry := run.AttemptCount < maxAttempts && (mode == expr.RetrySafe || (mode == expr.RetryKeyed && o.keyed))
		if retry {
			delay := time.Duration(backoff) * time.Millisecond << max(run.AttemptCount-1, 0)
			next := b.now().Add(delay)
			if _, err := b.db.RequeueRun(ctx, run.ID, b.owner, next, o.code, o.msg); err != nil {
				b.log.Warn("v2 requeue failed", "run", run.ID, "err", err)
				return
			}
			time.AfterFunc(delay+time.Millisecond, b.workerWake.kick)
			return
		}
	}
	f := store.Finish{Status: o.status, ErrorCode: o.code, ErrorMessage: o.msg}
	if o.input != nil {
		f.InputSummary, _ = json.Marshal(expr.Summarize(o.input))
	}
	if o.output != nil {
		f.OutputSummary, _ = json.Marshal(expr.Summarize(o.output))
	}
	if _, err := b.db.FinishRun(ctx, run.ID, b.owner, f); err != nil {
		b.log.Warn("v2 finish run failed", "run", run.ID, "status", o.status, "err", err)
		return
	}
	b.log.Debug("v2 run finished", "run", run.ID, "binding", run.BindingID, "status", o.status, "code", o.code)
	if o.status == store.RunBlocked && o.code == CodePolicyBlocked && !run.IsTestRun {
		b.autoPause(ctx, run.BindingID)
	}
}

// AutoPauseAfter is the number of consecutive policy-blocked runs after
// which a binding is put back to needs_review (hooks-v2-handbook §14.1:
// only blocked runs count; consecutive failed runs never pause).
const AutoPauseAfter = 5

// autoPause applies AutoPauseAfter to bindingID and tells the host.
func (b *Bridge) autoPause(ctx context.Context, bindingID string) {
	bd, paused, err := b.db.PauseAfterPolicyBlocks(ctx, bindingID, CodePolicyBlocked, AutoPauseAfter)
	if err != nil {
		b.log.Warn("v2 auto-pause check failed", "binding", bindingID, "err", err)
		return
	}
	if !paused {
		return
	}
	b.log.Info("v2 binding auto-paused (needs_review) after consecutive policy-blocked runs", "binding", bindingID,
		"hook", bd.HookID, "runs", AutoPauseAfter)
	if cb := b.opts.OnBindingUpdated; cb != nil {
		v, _ := b.bindingView(ctx, bd)
		b.guard("binding update callback", func() { cb(v, "auto_paused") })
	}
}

// perform pre-checks and executes the run's action (§9.1 HookWorker: 前置复核
// → 映射 → 执行).
func (b *Bridge) perform(ctx context.Context, run store.Run) outcome {
	var snap snapshot
	if err := jsonexact.Unmarshal(run.Execution, &snap); err != nil {
		return failed(CodeActionFailed, "unreadable run snapshot: "+err.Error())
	}
	if snap.ShellHook != nil {
		// An async shell hook: trusted when it was queued (admission ran
		// before the runner handed it over); no definition, no binding.
		return b.doShellHook(ctx, run, snap.ShellHook)
	}
	envRaw := snap.Envelope
	if len(envRaw) == 0 || string(envRaw) == "null" {
		// A manually retried run: its snapshot lost the envelope at its
		// terminal state; the outbox keeps the event for its retention.
		ev, err := b.db.GetEvent(ctx, run.EventID)
		switch {
		case errors.Is(err, store.ErrNotFound):
			return failed(CodeActionFailed, "the event's envelope is no longer stored (runs drop it at their terminal state, the outbox after its retention): emit the event again")
		case err != nil:
			return pipelineFailure("reading the event: %v", err)
		}
		envRaw = ev.Envelope
	}
	var env expr.Envelope
	if err := jsonexact.Unmarshal(envRaw, &env); err != nil {
		return failed(CodeActionFailed, "unreadable envelope: "+err.Error())
	}
	def := snap.definition()
	if o, ok := b.precheck(ctx, run, &snap); !ok {
		return o
	}
	actx, cancelAction := context.WithTimeoutCause(ctx, time.Duration(*def.TimeoutMs)*time.Millisecond, errActionTimeout)
	defer cancelAction()
	var o outcome
	switch def.Action.Type {
	case expr.ActionNotification:
		o = b.doNotification(actx, run, def, &env)
	case expr.ActionSound:
		o = b.doSound(actx, run)
	case expr.ActionTool:
		o = b.doTool(actx, run, def, &env)
	case expr.ActionCommand:
		o = b.doCommand(actx, run, def, &env)
	default:
		o = failed(CodeActionFailed, fmt.Sprintf("unknown action type %q", def.Action.Type))
	}
	// A cancellation from outside (shutdown, master switch off, lease lost)
	// wins over whatever the action reported while being torn down.
	switch cause := context.Cause(ctx); {
	case errors.Is(cause, errLeaseLost):
		return outcome{}
	case o.requeue:
		return o
	case cause != nil && o.status != store.RunSucceeded && o.status != store.RunBlocked:
		return outcome{status: store.RunOutcomeUnknown, msg: cause.Error(), input: o.input}
	}
	return o
}

var errActionTimeout = errors.New("action timed out")

// precheck is the pre-execution review (§7.2, §7.3, §11.1 blocked): the
// effective binding must still be enabled and trust exactly the snapshot's
// execution hash; the definition must still exist, be enabled and have that
// hash. Test runs are not gated by bindings.
func (b *Bridge) precheck(ctx context.Context, run store.Run, snap *snapshot) (outcome, bool) {
	if run.IsTestRun {
		return outcome{}, true
	}
	bd, err := b.db.GetBinding(ctx, run.BindingID)
	if errors.Is(err, store.ErrNotFound) {
		return blocked(CodeTrustRequired, "the binding was deleted"), false
	} else if err != nil {
		return pipelineFailure("reading the binding: %v", err), false
	}
	if !bd.Enabled {
		return blocked(CodeTrustRequired, "the binding is disabled"), false
	}
	if bd.TrustedExecutionHash != snap.ExecutionHash {
		// §7.3: 待重新授权.
		return blocked(CodeTrustRequired, "the binding does not trust this execution hash (re-authorize the binding with the current hash)"), false
	}
	sd, err := b.db.GetDefinition(ctx, run.HookID)
	if errors.Is(err, store.ErrNotFound) {
		return blocked(CodeTrustRequired, "the definition was deleted"), false
	} else if err != nil {
		return pipelineFailure("reading the definition: %v", err), false
	}
	if !sd.Enabled {
		return blocked(CodeTrustRequired, "the definition is disabled"), false
	}
	if sd.ExecutionHash != snap.ExecutionHash {
		return blocked(CodeTrustRequired, "the definition changed since the run was created"), false
	}
	return outcome{}, true
}
