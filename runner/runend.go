package runner

import (
	"context"
	"errors"
	"log/slog"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/output"
)

// failureStderrChars caps the stderr quoted by the failure warning.
const failureStderrChars = 500

// markCancelled reports whether run failed because ctx was cancelled — its
// hook killed, or kept from starting, by $/cancelRequest, the server's
// shutdown or a signal to `hooks run` — and then sets run.Error to
// cancelReason(ctx). The outcome stays failed (PROTOCOL.md §3 has no
// cancelled outcome for a shell hook run); only the error says the host
// cancelled it. Both profiles (runOne, claudeRunOne) call it.
func markCancelled(ctx context.Context, run *output.Run) bool {
	if run.Outcome != output.OutcomeFailed || ctx.Err() == nil {
		return false
	}
	run.Error = cancelReason(ctx)
	return true
}

// cancelReason is the Error of a run stopped by the cancellation of ctx:
// output.CodeCancelled + ": " + the cause's text, e.g. "cancelled: the
// request was cancelled ($/cancelRequest)" or "cancelled: the server is
// shutting down" (the causes the RPC dispatcher gives), "cancelled:
// interrupted by SIGINT" (`hooks run`); "cancelled: the request was
// cancelled" for a context cancelled without a cause.
func cancelReason(ctx context.Context) string {
	cause := context.Cause(ctx)
	if cause == nil || errors.Is(cause, context.Canceled) || errors.Is(cause, context.DeadlineExceeded) {
		return output.CodeCancelled + ": the request was cancelled"
	}
	return output.CodeCancelled + ": " + cause.Error()
}

// logRunEnd writes the one line a failed or timed-out hook gets
// (lifecycle-hooks-and-workspace-trust §"进程钩子的协议": 钩子失败…记一条警告):
// hook id, event, source, outcome, exit code, duration, error and the head
// of its stderr, redacted as the previews are. It is WARN "hook failed"
// (or "hook timed_out"), except for a run markCancelled marked
// (cancelled): that hook did not fail by itself, and gets the same record
// at INFO as "hook cancelled". Other outcomes log nothing.
func logRunEnd(h *hook.Hook, event string, run output.Run, stderr []byte, cancelled bool) {
	if run.Outcome != output.OutcomeFailed && run.Outcome != output.OutcomeTimedOut {
		return
	}
	attrs := []any{"hookId", h.ID, "event", event, "source", string(h.Source.Kind),
		"outcome", string(run.Outcome), "durationMs", run.DurationMs}
	if run.ExitCode != nil {
		attrs = append(attrs, "exitCode", *run.ExitCode)
	}
	if run.Error != "" {
		attrs = append(attrs, "error", run.Error)
	}
	if len(stderr) > 0 {
		attrs = append(attrs, "stderr", output.Preview(stderr, failureStderrChars))
	}
	if cancelled {
		slog.Info("hook cancelled", attrs...)
		return
	}
	slog.Warn("hook "+string(run.Outcome), attrs...)
}
