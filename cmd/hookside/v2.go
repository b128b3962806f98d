package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/hookside/hookside/internal/home"
	"github.com/hookside/hookside/internal/jsonexact"
	"github.com/hookside/hookside/internal/jsonhtml"
	"github.com/hookside/hookside/rpc"
	"github.com/hookside/hookside/runner/exec"
	"github.com/hookside/hookside/v2bridge"
	"github.com/hookside/hookside/v2bridge/store"
)

// Exit statuses of `hookside v2` beyond the shared ones.
const (
	exitNotFound    = 3 // no such run
	exitUnavailable = 4 // the V2 database cannot be used
)

const v2Long = `Hooks V2 (lifecycle bridge) from the shell. The database is <home>/hookside.db.

Every command takes --json, --home DIR and --help.
Exit status: 0 ok, 1 error, 2 usage, 3 not found, 4 database unavailable; emit also 5 (the event
is stored but not dispatched) and 130 (SIGINT/SIGTERM).`

func v2Cmd(stdout, stderr io.Writer) *cobra.Command {
	runs := v2RunsCmd(stdout, stderr)
	cmd := groupCmd("v2", "Hooks V2 from the shell (definitions, bindings, runs, emit)", v2Long, stdout, stderr,
		v2DefinitionsCmd(stdout, stderr), v2BindingsCmd(stdout, stderr), runs, v2EmitCmd(stdout, stderr))
	// `hookside v2` alone prints its help to stdout (it lists the commands).
	inner := cmd.RunE
	cmd.RunE = func(c *cobra.Command, args []string) error {
		if len(args) == 0 {
			_ = c.Help()
			return exitStatus(exitUsage)
		}
		return inner(c, args)
	}
	return cmd
}

type v2Common struct {
	json bool
	home string
}

func (c *v2Common) register(fs *pflag.FlagSet) {
	fs.BoolVar(&c.json, "json", false, "machine-readable output")
	fs.StringVar(&c.home, "home", "", "hookside home `DIR` (default $HOOKSIDE_HOME or ~/.hookside)")
}

func (c *v2Common) homeDir() string {
	if c.home != "" {
		return c.home
	}
	return home.Default()
}

func quietV2Logger(w io.Writer) *slog.Logger {
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

// v2Fail prints err and returns the exit status for it.
func v2Fail(stderr io.Writer, prefix string, err error) int {
	fmt.Fprintf(stderr, "%s: %v\n", prefix, err)
	return v2ExitFor(err)
}

// v2ExitFor is the exit status of a v2 command failing with err.
func v2ExitFor(err error) int {
	var ie *v2bridge.InvalidError
	switch {
	case errors.Is(err, v2bridge.ErrNotFound):
		return exitNotFound
	case errors.Is(err, v2bridge.ErrUnavailable):
		return exitUnavailable
	case errors.As(err, &ie):
		return exitUsage
	}
	return exitError
}

func printRun(w io.Writer, r store.Run) {
	fmt.Fprintf(w, "run        %s\nstatus     %s\nevent      %s (%s)\nhook       %s rev %d\nsession    %s  turn %s\nattempts   %d\n",
		r.ID, r.Status, r.EventName, r.EventID, r.HookID, r.HookRevision, r.SessionID, r.TurnID, r.AttemptCount)
	if r.ErrorCode != "" || r.ErrorMessage != "" {
		fmt.Fprintf(w, "error      %s %s\n", r.ErrorCode, r.ErrorMessage)
	}
	// A duration is finished − first start (§10.3): a run that never
	// started (cancelled or skipped while queued) has none.
	if r.DurationMs != nil && !r.StartedAt.IsZero() && r.AttemptCount > 0 {
		fmt.Fprintf(w, "duration   %d ms\n", *r.DurationMs)
	}
	if len(r.InputSummary) > 0 {
		fmt.Fprintf(w, "input      %s\n", jsonhtml.Unescape(r.InputSummary))
	}
	if len(r.OutputSummary) > 0 {
		fmt.Fprintf(w, "output     %s\n", jsonhtml.Unescape(r.OutputSummary))
	}
}

// emitOutput is what `v2 emit --json` prints.
type emitOutput struct {
	v2bridge.EmitResult
	Runs           []emitRun `json:"runs"`
	WaitingForHost int       `json:"waitingForHost"`
	// NotDispatched: the event is stored but this emit did not dispatch it.
	NotDispatched *notDispatched `json:"notDispatched,omitempty"`
	// Notes are the notes printed on stderr (without the command prefix).
	Notes []string `json:"notes"`
	// Warnings are the file's unknown members (emitUnknownMembers), each
	// printed on stderr too; absent when there are none.
	Warnings []locatedProblem `json:"warnings,omitempty"`
}

func v2EmitCmd(stdout, stderr io.Writer) *cobra.Command {
	var c v2Common
	var file string
	var wait time.Duration
	cmd := &cobra.Command{
		Use:         "emit",
		Short:       "emit one lifecycle event and run its command actions here",
		Annotations: map[string]string{annJSONErrors: jsonErrorsV2},
		Long: "Emit one lifecycle event (a JSON file with the v2/events/emit params: eventName, session, turn,\n" +
			"payload, …; \"-\" reads stdin) and run the pipeline in this process: the event is durable\n" +
			"before anything runs; command actions of its runs execute here, and the command waits until\n" +
			"they are finished. Notification, sound and tool actions need a connected host: they stay\n" +
			"queued for a hookside app-server whose host declared them. A problem in the file is reported\n" +
			"at file:line:col; a member the params do not define (a misspelling: \"sesion\") is ignored and\n" +
			"printed as a warning at its file:line:col (--json: warnings).\n\n" +
			"A run re-queued for a later attempt (retry backoff, or 60 s after a pipeline failure) is waited\n" +
			"for when that attempt can end within --wait; otherwise it is left queued at once and reported\n" +
			"with its next attempt time and who runs it (--json: nextAttemptAt and leftQueued on the run).\n" +
			"Every note on stderr is also in --json's notes. Should the event stay undispatched (its\n" +
			"dispatch failed 4 times, or the master switch is off), the command says so at once (--json:\n" +
			"notDispatched); the event stays pending for an app-server.\n\n" +
			"Exit status: 0 when the command runs finished (whatever their outcome, printed per run) or were\n" +
			"left queued for a later attempt, 1 when --wait expired first (runs still running are cancelled\n" +
			"and recorded outcome_unknown, others left queued; the event stays written), 5 when the event is\n" +
			"stored but not dispatched, 130 on SIGINT/SIGTERM, 2 usage, 4 database unavailable.",
	}
	fs := cmd.Flags()
	c.register(fs)
	fs.StringVar(&file, "file", "", "event `FILE` (required; - = stdin)")
	fs.DurationVar(&wait, "wait", 130*time.Second, "how long (`D`, e.g. 130s) to wait for the event's command runs; 0 runs none here: they are left queued (leftQueued not_waited) for an app-server or a later emit, exit 0")
	_ = cmd.MarkFlagFilename("file", "json")
	flagRequired(fs, "file")
	flagUse(fs, "file", "--file FILE|-")
	return setRun(cmd, func(pos []string) int { return runV2Emit(c, &file, &wait, pos, stdout, stderr) })
}

func runV2Emit(c v2Common, file *string, wait *time.Duration, pos []string, stdout, stderr io.Writer) int {
	const prefix = "hookside v2 emit"
	usage := func(field, msg string) int { return v2UsageFail(stdout, stderr, prefix, c.json, field, msg) }
	// fail prints err as v2Fail does (and under --json its error object).
	fail := func(err error) int {
		if c.json {
			we := rpc.V2WireError(err)
			writeV2JSONError(stdout, we.Code, we.Message, we.Data)
		}
		return v2Fail(stderr, prefix, err)
	}
	if len(pos) > 0 || *file == "" {
		return usage("--file", "--file is required (and no other argument)")
	}
	if *wait < 0 {
		return usage("--wait", fmt.Sprintf("--wait must not be negative (got %v)", *wait))
	}
	f, err := readV2File(*file, "--file")
	if err != nil {
		var ie *v2bridge.InvalidError
		if errors.As(err, &ie) {
			return usage("--file", ie.Reason)
		}
		if c.json {
			writeV2JSONError(stdout, rpc.CodeInternalError, err.Error(), v2UsageData("--file", err.Error()))
		}
		fmt.Fprintf(stderr, "%s: %v\n", prefix, err)
		return exitError
	}
	var p v2bridge.EmitParams
	if err := jsonexact.Unmarshal(f.raw, &p); err != nil {
		return usage("--file", f.decodeError(err))
	}
	// A misspelt member is ignored and so silently missing ("sesion"): each
	// is a warning at its place, printed before any error it explains.
	warnings := f.locateProblems(emitUnknownMembers(f.raw))
	for _, w := range warnings {
		fmt.Fprintf(stderr, "%s: warning: %s\n", prefix, w.line())
	}
	explicitSource := p.SourceID != ""
	v2bridge.PinSourceID(&p) // Emit's event id is then env's, which the workers are narrowed to
	env, err := v2bridge.BuildEnvelope(p, time.Now())
	if err != nil {
		return fail(f.locate(err, ""))
	}
	// Its command actions run here, as hooks run's hooks do: what one
	// starts and leaves behind (setsid, a double fork) is killed when the
	// action ends, and whatever is left when the command exits.
	_ = exec.EnableSubreaper()
	defer exec.ReapEscapees()
	// --wait 0: the event is written and dispatched, and nothing is run
	// here (no workers: an action started here would be cut short at once).
	noWait := *wait == 0
	b, err := v2bridge.Open(v2bridge.Options{Home: c.homeDir(), Logger: quietV2Logger(stderr),
		ClaimSessionID: p.Session.ID, ClaimEventID: env.EventID, NoPipeline: noWait,
		ResolveAtEmit: true, Store: store.Options{OneConnection: true}})
	if err != nil {
		return fail(err)
	}
	// SIGINT/SIGTERM stop the wait: the actions in flight are cancelled
	// (recorded outcome_unknown) and the command exits 130.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	res, err := b.Emit(ctx, p)
	if err != nil {
		b.Close(0)
		return fail(err)
	}
	out := emitOutput{EmitResult: res, Runs: []emitRun{}, Notes: []string{}, Warnings: warnings}
	note := func(format string, args ...any) {
		msg := fmt.Sprintf(format, args...)
		out.Notes = append(out.Notes, msg)
		fmt.Fprintf(stderr, "%s: %s\n", prefix, msg)
	}
	done := true
	if res.Enqueued {
		out.NotDispatched = ensureDispatched(ctx, b, res.EventID)
	}
	if res.Enqueued && out.NotDispatched == nil {
		done = false // --wait 0: the runs are read back below, left queued
		if !noWait {
			var st emitRunsState
			st, done = waitEventRuns(ctx, b, res.EventID, time.Now().Add(*wait))
			out.Runs, out.WaitingForHost = st.runs, st.waitingForHost
		}
	}
	interrupted := ctx.Err() != nil
	// The wait is over: nothing more is started here, and an action still in
	// flight is cancelled now (this process exits; its outcome is recorded
	// outcome_unknown). The runs are then read back, so what is printed is
	// their real, final state in the database.
	b.Close(0)
	if !done {
		why, reason := "--wait expired", leftWaitExpired
		switch {
		case interrupted:
			why, reason = "interrupted", leftInterrupted
		case noWait:
			why, reason = "--wait 0", leftNotWaited
		}
		if db, err := store.Open(home.DBPath(c.homeDir()), store.Options{OneConnection: true}); err == nil {
			now := time.Now()
			if st, err := readEventRuns(context.Background(), db, res.EventID, now, now); err == nil {
				out.Runs, out.WaitingForHost = st.runs, st.waitingForHost
			}
			db.Close()
		}
		var left, cut int
		for i, r := range out.Runs {
			switch {
			case r.Status == store.RunQueued && !hostActionRun(r.Run) && r.LeftQueued == nil:
				out.Runs[i].LeftQueued = &leftQueued{Reason: reason, RunBy: runByText(r.Run)}
				left++
			case r.Status == store.RunOutcomeUnknown:
				cut++
			}
		}
		if cut > 0 {
			note("%s: %d run(s) still running were cancelled and recorded outcome_unknown (the action may have taken effect)", why, cut)
		}
		if left > 0 {
			note("%s: %d run(s) were left queued: an app-server on this home, or `hookside v2 emit` of this event again, runs them", why, left)
		}
	}
	for _, r := range out.Runs {
		lq := r.LeftQueued
		switch {
		case lq == nil:
		case lq.Reason == leftRetryLater:
			note("run %s left queued for its next attempt at %s (last attempt: %s); it is run by %s", r.ID, rfc3339(r.NextAttemptAt), lastAttempt(r.Run), lq.RunBy)
		case lq.Reason == leftBehindRetry:
			note("run %s left queued behind run %s of its session, whose next attempt is at %s; it is run by %s", r.ID, lq.Behind.RunID, rfc3339(lq.Behind.NextAttemptAt), lq.RunBy)
		}
	}
	if res.Duplicate {
		// The id is derived (eventName and turn.id, or the event's other
		// source id): two sessions whose turns share an id collide, and the
		// second event is dropped unread (§3.2). Say so when it shows.
		for _, r := range out.Runs {
			if r.SessionID != "" && r.SessionID != p.Session.ID {
				fix := "give them ids unique across sessions, or set sourceId"
				if explicitSource {
					fix = "give each session's events their own sourceId"
				}
				note("this event of session %q was dropped as a duplicate of session %q's: the event id comes from eventName and its source id (turn.id for turn events; messageId, requestId or questionId for the others; sourceId when given), and both sent %q; %s", p.Session.ID, r.SessionID, p.SourceID, fix)
				break
			}
		}
	}
	if nd := out.NotDispatched; nd != nil {
		if nd.Reason == notDispatchedSwitchOff {
			note("event %s is stored but not dispatched: the V2 master switch is off (it waits pending); dispatched by %s", res.EventID, nd.DispatchBy)
		} else {
			note("event %s is stored but not dispatched (%d attempts, the last: %s); it waits pending, dispatched by %s", res.EventID, nd.Attempts, nd.Error, nd.DispatchBy)
		}
	}
	if out.WaitingForHost > 0 {
		note("%d run(s) need a host action (notification, sound or tool): they stay queued until a hookside app-server with a connected host that declared them runs on this home, for at most the host claim timeout (default %v, $%s), then they are skipped", out.WaitingForHost, v2bridge.DefaultHostClaimTimeout, v2bridge.EnvHostClaimMs)
	}
	if c.json {
		writeJSON(stdout, out)
	} else {
		switch {
		case !res.Enqueued:
			fmt.Fprintf(stdout, "event %s: no enabled definition listens to %s; nothing written\n", res.EventID, p.EventName)
		case out.NotDispatched != nil:
			fmt.Fprintf(stdout, "event %s: stored, not dispatched\n", res.EventID)
		case res.Duplicate:
			fmt.Fprintf(stdout, "event %s: duplicate (already in the outbox)\n", res.EventID)
		default:
			fmt.Fprintf(stdout, "event %s: enqueued\n", res.EventID)
		}
		printUnbound(stdout, res)
		for _, r := range out.Runs {
			fmt.Fprintf(stdout, "  run %s  %s  %s %s", r.ID, r.Status, r.ErrorCode, r.ErrorMessage)
			if !r.NextAttemptAt.IsZero() {
				fmt.Fprintf(stdout, "  (next attempt %s)", rfc3339(r.NextAttemptAt))
			}
			fmt.Fprintln(stdout)
		}
	}
	switch {
	case interrupted:
		return exitInterrupted
	case out.NotDispatched != nil:
		return exitNotDispatched
	case !done && !noWait:
		return exitError // --wait expired before the command runs finished
	}
	return exitOK
}

// exitNotDispatched is `v2 emit`'s exit status when the event is stored
// but not dispatched (notDispatched).
const exitNotDispatched = 5

// rfc3339 formats t in UTC to the millisecond.
func rfc3339(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z07:00") }

// lastAttempt is the reason a queued run's last attempt gave (its error).
func lastAttempt(r store.Run) string {
	switch {
	case r.ErrorCode != "" && r.ErrorMessage != "":
		return r.ErrorCode + ": " + r.ErrorMessage
	case r.ErrorCode != "":
		return r.ErrorCode
	}
	return "none recorded"
}

// exitInterrupted is the exit status after SIGINT/SIGTERM (128 + SIGINT).
const exitInterrupted = 130
