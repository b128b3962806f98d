package v2bridge

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hookside/hookside/internal/jsonexact"
	"github.com/hookside/hookside/internal/randid"
	"github.com/hookside/hookside/output"
	"github.com/hookside/hookside/runner/exec"
	"github.com/hookside/hookside/v2bridge/store"
)

// ShellHookEvent is the eventName of the runs async shell hooks become.
const ShellHookEvent = "shell_hook.async"

// shellHookSnap is what an async shell hook's run executes (the run's
// execution snapshot): exec.AsyncJob minus the ids.
type shellHookSnap struct {
	Event          string   `json:"event"`
	Argv           []string `json:"argv"`
	CmdLine        string   `json:"cmdLine,omitempty"`
	Dir            string   `json:"dir"`
	Env            []string `json:"env"`
	Stdin          string   `json:"stdin"`
	Transcript     string   `json:"transcript,omitempty"`
	MaxOutputBytes int      `json:"maxOutputBytes"`
}

// EnqueueShellHook turns an async shell hook (`async: true`) into a queued
// run of the durable run queue (PROTOCOL.md §5: async shell hooks run
// through the same queue and appear in v2/runs/list). The run's eventName is
// ShellHookEvent, its hookId the shell hook's id, its session and turn the
// hook's; it is never retried (retry mode unsafe) and any hookside process
// on the home may run it (it needs no host). It returns the run id.
func (b *Bridge) EnqueueShellHook(ctx context.Context, job exec.AsyncJob) (string, error) {
	if set, err := b.db.GetSettings(ctx); err != nil {
		return "", storeErr(err, "")
	} else if !set.Enabled {
		// The master switch stops V2 runs; the shell hook must still run.
		return "", fmt.Errorf("hooks V2 is switched off: async hook not queued")
	}
	snap := snapshot{
		EventName: ShellHookEvent, TimeoutMs: job.TimeoutMs, ConcurrencyPolicy: "parallel",
		ShellHook: &shellHookSnap{Event: job.Event, Argv: job.Argv, CmdLine: job.CmdLine, Dir: job.Dir, Env: job.Env,
			Stdin: string(job.Stdin), Transcript: string(job.Transcript), MaxOutputBytes: job.MaxOutputBytes},
	}
	snap.Action.Type = "command" // claimable by any process (no host needed)
	snap.RetryPolicy.Mode = "unsafe"
	exec, err := json.Marshal(snap)
	if err != nil {
		return "", err
	}
	summary, _ := json.Marshal(map[string]any{"event": job.Event, "argv": job.Argv})
	r, err := b.db.EnqueueRun(ctx, store.NewRun{
		EventID: randid.New("hsh_"), EventName: ShellHookEvent, HookID: job.HookID,
		SessionID: job.SessionID, TurnID: job.TurnID, ConcurrencyPolicy: "parallel",
		Execution: exec, InputSummary: summary,
	})
	if err != nil {
		return "", storeErr(err, "")
	}
	b.workerWake.kick()
	return r.ID, nil
}

// doShellHook runs a queued async shell hook like the session would have
// (its cwd, its environment additions over this process's environment, the
// same stdin with a fresh transcript file). Exit 0 = succeeded; exit 2 is
// recorded failed with the hook's reason (nobody waits for a decision).
func (b *Bridge) doShellHook(ctx context.Context, run store.Run, h *shellHookSnap) outcome {
	if h.Stdin == "" {
		return failed(CodeActionFailed, "the async shell hook's input is not kept after its run finished: it cannot run again")
	}
	var timeoutMs int
	var s snapshot
	if jsonexact.Unmarshal(run.Execution, &s) == nil {
		timeoutMs = s.TimeoutMs
	}
	if timeoutMs <= 0 {
		timeoutMs = 60000
	}
	dir, err := os.MkdirTemp("", "hookside-async-")
	if err != nil {
		return failed(CodeActionFailed, "transcript dir: "+err.Error())
	}
	defer os.RemoveAll(dir)
	tpath := filepath.Join(dir, "transcript.jsonl")
	if err := os.WriteFile(tpath, []byte(h.Transcript), 0o600); err != nil {
		return failed(CodeActionFailed, "transcript: "+err.Error())
	}
	ph, _ := json.Marshal(exec.TranscriptPlaceholder)
	tp, _ := json.Marshal(tpath)
	stdin := bytes.ReplaceAll([]byte(h.Stdin), ph, tp)
	markSent(ctx)
	res := b.opts.Spawner.Run(ctx, exec.Spec{
		Argv: h.Argv, CmdLine: h.CmdLine, Dir: h.Dir, Env: append(os.Environ(), h.Env...), Stdin: stdin,
		Timeout: time.Duration(timeoutMs) * time.Millisecond, KillGrace: exec.KillGrace, MaxOutputBytes: h.MaxOutputBytes,
	})
	// Redacted by content, like hook/completed previews (the summary keeps
	// the run's output in the database and in v2/runs/list).
	out := map[string]any{"exitCode": res.ExitCode,
		"stdout": output.Redact(strings.ToValidUTF8(string(res.Stdout), "\uFFFD")), "stdoutTruncated": res.StdoutTruncated,
		"stderr": output.Redact(strings.ToValidUTF8(string(res.Stderr), "\uFFFD")), "stderrTruncated": res.StderrTruncated}
	switch {
	case res.StartErr != nil:
		return outcome{status: store.RunFailed, code: CodeActionFailed, msg: "start: " + res.StartErr.Error()}
	case res.TimedOut:
		return outcome{status: store.RunFailed, code: CodeTimeout, msg: fmt.Sprintf("the hook did not finish within %d ms", timeoutMs), output: out}
	case res.Canceled:
		return outcome{status: store.RunOutcomeUnknown, msg: "the hook was cancelled in flight", output: out}
	case res.ExitCode != 0:
		msg := fmt.Sprintf("exit status %d", res.ExitCode)
		if t := strings.TrimSpace(output.Redact(string(res.Stderr))); t != "" {
			msg += ": " + clipText(t, 300)
		}
		return outcome{status: store.RunFailed, code: CodeActionFailed, msg: msg, output: out}
	}
	return outcome{status: store.RunSucceeded, output: out}
}

// CancelQueuedShellHooks cancels the async shell hooks of session that are
// still queued (session/close: a closed session's hooks do not start later).
// Runs already running finish. It returns how many were cancelled.
func (b *Bridge) CancelQueuedShellHooks(ctx context.Context, sessionID string) (int, error) {
	runs, _, err := b.db.ListRuns(ctx, store.RunFilter{SessionID: sessionID, EventName: ShellHookEvent, Status: store.RunQueued, Limit: 500})
	if err != nil {
		return 0, storeErr(err, "")
	}
	n := 0
	for _, r := range runs {
		if _, err := b.db.CancelRun(ctx, r.ID); err == nil {
			n++
		}
	}
	return n, nil
}
