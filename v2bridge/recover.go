package v2bridge

import (
	"context"
	"fmt"
	"runtime/debug"
	"sync/atomic"
	"time"

	"github.com/hookside/hookside/v2bridge/store"
)

// Pipeline failures (hooks-v2-handbook §10.3 "如果 Worker 管线本身崩了（不是动
// 作失败），会固定 60 秒后重新入队并记为 transient_failure，这个重试不乘退避倍数"):
// a failure of hookside's own pipeline — a panic, the store unreadable while
// pre-checking — before the action was sent re-queues the run after exactly
// PipelineRetryDelay as transient_failure, whatever the retry mode. A panic
// after the action was sent is recorded outcome_unknown (it may have taken
// effect; re-sending it could do it twice).
const (
	PipelineRetryDelay = 60 * time.Second
	// MaxPipelineAttempts bounds those re-queues (hookside's limit; the
	// spec sets none): a run whose pipeline fails on its 10th claim is
	// recorded failed + transient_failure instead of looping forever.
	MaxPipelineAttempts = 10
)

func pipelineFailure(format string, args ...any) outcome {
	return outcome{status: store.RunFailed, code: CodeTransientFailure, msg: fmt.Sprintf(format, args...), pipeline: true}
}

type sentKey struct{}

// withSentMark returns ctx carrying a flag markSent sets when the action
// itself is handed over (host request written, command started).
func withSentMark(ctx context.Context) (context.Context, *atomic.Bool) {
	f := new(atomic.Bool)
	return context.WithValue(ctx, sentKey{}, f), f
}

func markSent(ctx context.Context) {
	if f, ok := ctx.Value(sentKey{}).(*atomic.Bool); ok {
		f.Store(true)
	}
}

// performSafe is perform with a recover: a panic in the pre-check, the
// mapping or an action executor is logged with its stack and turned into an
// outcome recorded on the run; the worker goroutine keeps serving.
func (b *Bridge) performSafe(ctx context.Context, run store.Run) (o outcome) {
	ctx, sent := withSentMark(ctx)
	defer func() {
		p := recover()
		if p == nil {
			return
		}
		b.log.Error("v2 worker panic recovered", "run", run.ID, "hook", run.HookID, "actionSent", sent.Load(),
			"panic", fmt.Sprint(p), "stack", string(debug.Stack()))
		if sent.Load() {
			o = outcome{status: store.RunOutcomeUnknown, msg: fmt.Sprintf("internal error after the action was sent (panic: %v); it may have taken effect", p)}
			return
		}
		o = pipelineFailure("internal error in the hook pipeline (panic: %v); re-queued", p)
	}()
	return b.perform(ctx, run)
}

// guard runs fn, logging and swallowing a panic (dispatcher, maintenance,
// notifier, lease renewal): the process and its shell hooks keep serving.
func (b *Bridge) guard(what string, fn func()) (panicked bool) {
	defer func() {
		if p := recover(); p != nil {
			panicked = true
			b.log.Error("v2 "+what+" panic recovered", "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
		}
	}()
	fn()
	return false
}
