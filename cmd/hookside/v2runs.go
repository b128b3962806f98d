package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/hookside/hookside/v2bridge"
	"github.com/hookside/hookside/v2bridge/expr"
	"github.com/hookside/hookside/v2bridge/store"
)

// v2RunsErrorsHelp is the errors paragraph of the runs commands: a retry
// or cancel is refused with -32015, where definitions and bindings have
// -32016 (v2ErrorsHelp).
const v2RunsErrorsHelp = "Errors carry the protocol's codes (-32602 invalid params with the field, -32013 not found, " +
	"-32015 a retry or cancel refused in the run's state, -32014 database unavailable) on stderr; " +
	"--json prints {\"error\": {code, message, data}} on stdout."

// v2RunsCmd is `hookside v2 runs list|get|retry|cancel`, calling what the
// v2/runs/* requests call (docs/protocol.md §5), each command with its own
// help (v2Op).
func v2RunsCmd(stdout, stderr io.Writer) *cobra.Command {
	var p v2bridge.RunsListParams
	one := func(call func(b *v2bridge.Bridge, ctx context.Context, id string) (v2bridge.RunResult, error)) func(context.Context, *v2bridge.Bridge, []string) (any, error) {
		return func(ctx context.Context, b *v2bridge.Bridge, a []string) (any, error) {
			return call(b, ctx, a[0])
		}
	}
	showRun := func(w io.Writer, r any) { printRun(w, r.(v2bridge.RunResult).Run) }
	ops := []v2Op{
		{use: "list", short: "list runs, newest first (--status, --hook, --event, --event-id, --session, --since, --until; pages of --limit)",
			noCreate: true,
			about: "Lists the runs, newest first: all, or those that match every filter given: --status S (queued, running, " +
				"succeeded, failed, skipped, blocked, cancelled or outcome_unknown), the definition --hook ID, the " +
				"lifecycle event --event NAME, the event --event-id ID, the session --session ID, created at or after " +
				"--since T and before --until T (RFC 3339). It prints pages of --limit N runs (default 50, at most 500); " +
				"--cursor C, the nextCursor of a page, prints the next one. It creates nothing: without a home or " +
				"database it lists none.",
			out: "The text is a table (RUN, STATUS, EVENT, HOOK, SESSION, ATTEMPTS, ERROR, CREATED; a test run's status " +
				"marked (test)), then more: --cursor C when there is a next page; --json prints {runs: [run…], " +
				"nextCursor} (nextCursor null on the last page).",
			exit: [5]string{2: "; also an unknown --status or --event, --limit outside 0–500, --since/--until not RFC 3339, a bad --cursor"},
			flags: func(cmd *cobra.Command) {
				fs := cmd.Flags()
				fs.StringVar(&p.Status, "status", "", "only runs in this status `S`")
				fs.StringVar(&p.HookID, "hook", "", "only runs of this definition `ID`")
				fs.StringVar(&p.EventName, "event", "", "only runs of this lifecycle event `NAME`")
				fs.StringVar(&p.EventID, "event-id", "", "only runs of this event `ID`")
				fs.StringVar(&p.SessionID, "session", "", "only runs of this session `ID`")
				fs.StringVar(&p.Since, "since", "", "created at or after `T` (RFC 3339)")
				fs.StringVar(&p.Until, "until", "", "created before `T` (RFC 3339)")
				fs.IntVar(&p.Limit, "limit", 50, "page size `N` (≤ 500)")
				fs.StringVar(&p.Cursor, "cursor", "", "nextCursor `C` of the previous page")
				_ = cmd.RegisterFlagCompletionFunc("status", fixedValues(store.RunQueued, store.RunRunning, store.RunSucceeded,
					store.RunFailed, store.RunSkipped, store.RunBlocked, store.RunCancelled, store.RunOutcomeUnknown))
				_ = cmd.RegisterFlagCompletionFunc("event", fixedValues(append(expr.Events(), v2bridge.ShellHookEvent)...))
			},
			call: func(ctx context.Context, b *v2bridge.Bridge, _ []string) (any, error) { return b.ListRuns(ctx, p) },
			text: func(w io.Writer, r any) { printV2Runs(w, r.(v2bridge.RunsListResult)) }},
		{use: "get ID", short: "show one run", args: 1, noCreate: true,
			about: "Shows the run ID: its status, event, definition and revision, session and turn, attempts, error, " +
				"duration and its redacted input and output summaries. It creates nothing: without a home or database " +
				"there is no run to find.",
			out:  "The text is one field a line; --json prints {run}.",
			exit: [5]string{3: ": no run ID (also without a home or database)"},
			call: one((*v2bridge.Bridge).GetRun), text: showRun},
		{use: "retry ID", short: "manual retry (failed, blocked, cancelled, outcome_unknown)", args: 1, noCreate: true,
			about: "Puts the run ID back in the queue, its error cleared: a failed, blocked, cancelled or outcome_unknown " +
				"run (a manual retry). It only queues: a hookside app-server running on this home executes it " +
				"(command actions; host actions need a host that declared them).",
			out: "The text is the run, queued, one field a line, and a line saying who executes it; --json prints {run}.",
			exit: [5]string{1: "; also a run that is queued, running, succeeded or skipped (-32015)",
				3: ": no run ID"},
			call: one((*v2bridge.Bridge).RetryRun),
			text: func(w io.Writer, r any) {
				showRun(w, r)
				fmt.Fprintln(w, "queued again: a running hookside app-server on this home executes it (command actions; host actions need a host that declared them)")
			}},
		{use: "cancel ID", short: "cancel a queued run", args: 1, noCreate: true,
			about: "Cancels the run ID, which must be queued: it becomes cancelled and never starts. A running run is " +
				"not stopped.",
			out:  "The text is the run, cancelled, one field a line; --json prints {run}.",
			exit: [5]string{1: "; also a run that is not queued (-32015)", 3: ": no run ID"},
			call: one((*v2bridge.Bridge).CancelRun), text: showRun},
	}
	return v2OpGroup(v2Group{name: "runs", short: "list, get, retry or cancel V2 runs (runs list|get|retry|cancel)",
		intro: "Hooks V2 runs (one definition's action on one event: queued, running, then how it ended), " +
			"as the v2/runs/* requests (docs/protocol.md §5).",
		errors: v2RunsErrorsHelp,
		exit: "Exit status: 0 ok, 1 error (a retry or cancel refused in the run's state), 2 usage (invalid input), " +
			"3 not found, 4 database unavailable.",
		ops: ops}, stdout, stderr)
}

// printV2Runs is the text of `v2 runs list`: a table (its header also
// without runs), then the flag of the next page.
func printV2Runs(w io.Writer, res v2bridge.RunsListResult) {
	tw := newTable(w, "RUN\tSTATUS\tEVENT\tHOOK\tSESSION\tATTEMPTS\tERROR\tCREATED")
	for _, r := range res.Runs {
		test := ""
		if r.IsTestRun {
			test = " (test)"
		}
		fmt.Fprintf(tw, "%s\t%s%s\t%s\t%s\t%s\t%d\t%s\t%s\n", r.ID, r.Status, test, r.EventName, r.HookID, r.SessionID,
			r.AttemptCount, r.ErrorCode, r.CreatedAt.Format(time.RFC3339))
	}
	tw.Flush()
	if res.NextCursor != nil {
		fmt.Fprintf(w, "more: --cursor %s\n", *res.NextCursor)
	}
}
