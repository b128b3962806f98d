package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/internal/jsonexact"
	"github.com/hookside/hookside/internal/jsonpos"
	"github.com/hookside/hookside/internal/randid"
	"github.com/hookside/hookside/internal/steps"
	"github.com/hookside/hookside/output"
	"github.com/hookside/hookside/runner/config"
	"github.com/hookside/hookside/runner/exec"
	"github.com/hookside/hookside/truststore"
)

// RunRequest is one hooks/run (PROTOCOL.md §3).
type RunRequest struct {
	Event   string
	TurnID  string
	TraceID string
	// Input is the host's event input: a JSON object (camelCase fields;
	// unknown fields pass through to the hook).
	Input json.RawMessage
}

// HookStart is reported just before a hook process starts.
type HookStart struct {
	RunID string
	Hook  *hook.Hook
	Event string
}

// HookDone is reported when a hook has ended (or was skipped).
type HookDone struct {
	RunID  string
	Hook   *hook.Hook
	Event  string
	Run    output.Run
	Stdout []byte
	Stderr []byte
}

// Observer receives per-hook progress (the rpc layer turns it into
// hook/started and hook/completed notifications). Methods are called from
// the goroutine running the event — from several goroutines at once while a
// "parallel" matcher group runs — so they must be safe for concurrent use
// and must not block for long.
type Observer interface {
	HookStarted(HookStart)
	HookCompleted(HookDone)
}

type nopObserver struct{}

func (nopObserver) HookStarted(HookStart)  {}
func (nopObserver) HookCompleted(HookDone) {}

var (
	runPrefix  = sync.OnceValue(newRunPrefix) // drawn at the first run, not at start-up
	runCounter atomic.Uint64
)

// newRunPrefix returns "hr_" + 8 random hex digits + "_": run ids of this
// process are the prefix and a counter.
func newRunPrefix() string {
	return "hr_" + randid.New("")[:8] + "_"
}

func newRunID() string {
	return runPrefix() + strconv.FormatUint(runCounter.Add(1), 10)
}

// InputError is a hooks/run input the runner refuses; Field is the dotted
// path inside the input ("" for the input itself).
type InputError struct {
	Field  string
	Reason string
}

func (e *InputError) Error() string {
	if e.Field == "" {
		return "input " + e.Reason
	}
	return "input." + e.Field + " " + e.Reason
}

// toolNameError is the refusal of raw, the tool name at field (toolName,
// tool_name) of a tool event's input, which is not a non-empty string:
// "is required on EVENT and must be a non-empty string" when it is absent
// or null, else "must be a non-empty string, got a number" (got an empty
// string, an object, …).
func toolNameError(field, event string, raw json.RawMessage) *InputError {
	switch got := jsonpos.ValueKindName(raw); {
	case got == "nothing" || got == "null":
		return &InputError{Field: field, Reason: "is required on " + event + " and must be a non-empty string"}
	case got == "a string":
		return &InputError{Field: field, Reason: "must be a non-empty string, got an empty string"}
	default:
		return &InputError{Field: field, Reason: "must be a non-empty string, got " + got}
	}
}

// matchValue is the value matchers test: the tool name on tool events
// (required: a non-empty string, else every matcher would match), the
// source on SessionStart, nothing on UserPromptSubmit and Stop
// (lifecycle-hooks-and-workspace-trust §"七个事件": an empty value means
// every matcher matches), read from the fields decodeInput decoded.
// Errors are *InputError.
func matchValue(event string, f *inputFields) (string, error) {
	str := func(v json.RawMessage) (string, bool) {
		var s string
		if len(v) == 0 || v[0] != '"' || jsonexact.Unmarshal(v, &s) != nil {
			return "", false
		}
		return s, true
	}
	switch event {
	case hook.PreToolUse, hook.PermissionRequest, hook.PostToolUse, hook.PostToolUseFailure:
		field, v := "toolName", f.ToolName
		if v == nil && f.ToolNameSnake != nil {
			field, v = "tool_name", f.ToolNameSnake
		}
		name, ok := str(v)
		if !ok || name == "" {
			return "", toolNameError(field, event, v)
		}
		return name, nil
	case hook.SessionStart:
		// As in Claude Code, SessionStart matchers see the source
		// (startup, resume, clear, compact).
		if src, ok := str(f.Source); ok {
			return src, nil
		}
	}
	return "", nil
}

// Run runs every hook configured for req.Event whose matcher matches, one
// after the other in registration order (in the zcode dialect all of them,
// even after a block; in the spark dialect the first blocking hook ends the
// event and the rest are reported skipped with ReasonEarlierBlock); the
// hooks of a matcher group with "parallel": true run concurrently and are
// merged in registration order. It returns the merged result of PROTOCOL.md §3. It returns
// ErrUnknownEvent for an event outside the seven, an error wrapping
// "input must be a JSON object" for a bad input, and ctx.Err() when the
// request was cancelled (its running hook's process group is killed first).
// Hook failures are never errors: they are runs with outcome failed /
// timed_out.
func (s *Session) Run(ctx context.Context, req RunRequest, obs Observer) (output.Merged, error) {
	ctx, done, ok := s.track(ctx)
	if !ok {
		return output.Merged{}, ErrSessionClosed
	}
	defer done()
	m, err := s.run(ctx, req, obs)
	return m, closedErr(ctx, err)
}

func (s *Session) run(ctx context.Context, req RunRequest, obs Observer) (output.Merged, error) {
	if !hook.IsEvent(req.Event) {
		return output.Merged{}, fmt.Errorf("%w %q", ErrUnknownEvent, req.Event)
	}
	if obs == nil {
		obs = nopObserver{}
	}
	in, err := decodeInput(req.Input)
	if err != nil {
		return output.Merged{}, err
	}
	if err := checkInputTypes(req.Event, &in.f); err != nil {
		return output.Merged{}, err
	}
	steps.Mark(steps.Input)
	value, err := matchValue(req.Event, &in.f)
	if err != nil {
		return output.Merged{}, err
	}
	switch req.Event {
	case hook.Stop:
		if req.TurnID == "" {
			return output.Merged{}, ErrTurnRequired
		}
	case hook.SessionStart:
		s.mu.Lock()
		again := s.sessionStarted
		s.sessionStarted = true
		s.mu.Unlock()
		if again {
			m := s.finish(req, nil, nil)
			m.Skipped = SkipSessionStartRan
			return m, nil
		}
	}
	_, plans := s.current()
	plan := plans[req.Event]

	// Select first, so that the no-match path allocates almost nothing.
	var selected []int
	for i := range plan.hooks {
		if value == "" || plan.matchers[i].Match(value) {
			selected = append(selected, i)
		}
	}
	if len(selected) == 0 {
		return s.finish(req, nil, nil), nil
	}
	defer s.recount()

	s.mu.Lock()
	granted := s.stopGranted[req.TurnID]
	s.mu.Unlock()
	stdinCtx := stdinContext{
		event: req.Event, cwd: s.opts.Cwd, mode: s.opts.Mode, sessionID: s.opts.ID,
		traceID: req.TraceID, turnID: req.TurnID, agentName: s.opts.AgentName,
		now: time.Now(), stopHookActive: granted > 0 || string(in.f.StopHookActive) == "true" || string(in.f.StopHookActiveSnake) == "true",
		raw: req.Input,
	}

	steps.Mark(steps.Planned)
	answers := make([]output.Answer, 0, len(selected))
	runs := make([]output.Run, 0, len(selected))
	for k := 0; k < len(selected); {
		if err := ctx.Err(); err != nil {
			return output.Merged{}, err
		}
		// A batch is one hook, or the consecutive selected hooks of one
		// matcher group that asked for "parallel": true.
		end := k + 1
		if first := &plan.hooks[selected[k]]; first.Parallel {
			for end < len(selected) && sameGroup(first, &plan.hooks[selected[end]]) {
				end++
			}
		}
		batch := s.runBatch(ctx, plan.hooks, selected[k:end], in, stdinCtx, obs)
		if err := ctx.Err(); err != nil {
			return output.Merged{}, err
		}
		blocked := false
		for _, r := range batch {
			answers = append(answers, r.ans)
			runs = append(runs, r.run)
			blocked = blocked || r.ans.Block
		}
		k = end
		if blocked && s.dialect.StopAtFirstBlock {
			// hooks-v2-handbook §1.3: 任一条被拦截就立即返回，不再执行后续
			// hook. The hooks not run are listed as skipped (earlier_block).
			for _, i := range selected[k:] {
				runs = append(runs, s.skip(&plan.hooks[i], req.Event, ReasonEarlierBlock, obs))
			}
			break
		}
	}
	m := s.finish(req, answers, runs)
	m.TrustNotice = s.trustNotice(req.Event, runs)
	return m, nil
}

// sameGroup reports whether b was declared in the same matcher group as a.
func sameGroup(a, b *hook.Hook) bool {
	return b.Parallel && a.Source.Kind == b.Source.Kind && a.Source.Path == b.Source.Path &&
		a.Event == b.Event && a.MatcherIndex == b.MatcherIndex
}

type batchResult struct {
	ans output.Answer
	run output.Run
}

// runBatch runs the hooks idx of hooks: one directly, several (a parallel
// matcher group) concurrently. Results are in idx order whatever the
// finishing order, so the merge stays deterministic. With a parallel group
// the observer is called from several goroutines at once.
func (s *Session) runBatch(ctx context.Context, hooks []hook.Hook, idx []int, in baseInput, sc stdinContext, obs Observer) []batchResult {
	out := make([]batchResult, len(idx))
	if len(idx) == 1 {
		out[0].ans, out[0].run = s.runOne(ctx, &hooks[idx[0]], in, sc, obs)
		return out
	}
	var wg sync.WaitGroup
	for j, i := range idx {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[j].ans, out[j].run = s.runOne(ctx, &hooks[i], in, sc, obs)
		}()
	}
	wg.Wait()
	return out
}

// skip records h as skipped with reason without running it.
func (s *Session) skip(h *hook.Hook, event, reason string, obs Observer) output.Run {
	runID := newRunID()
	ans := output.Parse(event, output.ProcessResult{ExitCode: -1, Skipped: true, SkipReason: reason})
	run := output.Run{RunID: runID, HookID: h.ID, Source: string(h.Source.Kind), Outcome: ans.Outcome, Reason: reason}
	obs.HookCompleted(HookDone{RunID: runID, Hook: h, Event: event, Run: run})
	return run
}

// finish merges answers and applies the Stop continuation rule.
func (s *Session) finish(req RunRequest, answers []output.Answer, runs []output.Run) output.Merged {
	m := output.MergeFor(s.dialect, req.Event, answers)
	public := make([]output.Run, 0, len(runs))
	for _, r := range runs {
		if r.Source != string(hook.SourceInternal) {
			public = append(public, r) // internal runs are private
		}
	}
	m.Runs = public
	if req.Event == hook.Stop {
		s.mu.Lock()
		granted := s.stopGranted[req.TurnID]
		st := output.DecideStop(answers, m, granted, s.opts.StopLimit)
		if st.ContinueTurn {
			s.stopGranted[req.TurnID] = granted + 1
		}
		s.mu.Unlock()
		m.Stop = &st
	}
	return m
}

// admit asks the trust gate about a workspace hook right before it starts
// (lifecycle-hooks-and-workspace-trust §"信任状态": 运行器在每个钩子真正执行前
// 重新询问准入), for a hook starting in the session directory. Other
// sources are always admitted.
func (s *Session) admit(h *hook.Hook) (truststore.Evaluation, bool) { return s.admitAt(h, "") }

// admitAt is admit for a hook that starts in dir ("" = the session
// directory): a grant holds only where the pins resolved there equal it
// (truststore.Gate.AdmitAt).
func (s *Session) admitAt(h *hook.Hook, dir string) (truststore.Evaluation, bool) {
	if h.Source.Kind != hook.SourceWorkspace {
		return truststore.Evaluation{}, true
	}
	s.mu.Lock()
	d, ok := s.decls[h.ID]
	s.mu.Unlock()
	if !ok {
		// The declaration vanished from disk since selection: fail closed.
		return truststore.Evaluation{State: truststore.PendingTrust, Reason: "declaration_changed"}, false
	}
	ev := s.gate.AdmitAt(d, dir)
	return ev, ev.Runnable()
}

// recount re-evaluates every workspace declaration when the security
// version moved, so workspaceHooks/admissionUpdated is pushed on change.
func (s *Session) recount() {
	s.mu.Lock()
	ws := s.ws
	s.mu.Unlock()
	if len(ws.Declarations) == 0 || s.opts.Workspace.OnAdmissionUpdated == nil {
		return
	}
	v := s.gate.Version()
	s.mu.Lock()
	same := v == s.countedVersion && ws == s.countedWS
	s.countedVersion, s.countedWS = v, ws
	s.mu.Unlock()
	if !same {
		s.noteCounts(enabledCounts(ws, s.gate.Evaluate(ws.Declarations)), false)
	}
}

// runOne runs one hook and returns its parsed answer and run record.
func (s *Session) runOne(ctx context.Context, h *hook.Hook, in baseInput, sc stdinContext, obs Observer) (output.Answer, output.Run) {
	runID := newRunID()
	if h.Type == TypeInternal {
		// Private: no observer calls; finish drops the run from the result.
		start := time.Now()
		ans := s.runInternal(ctx, h, sc.raw, sc)
		return ans, output.Run{RunID: runID, HookID: h.ID, Source: string(h.Source.Kind), Outcome: ans.Outcome,
			DurationMs: time.Since(start).Milliseconds(), Error: ans.Error}
	}
	ev, ok := s.admit(h)
	if h.Source.Kind == hook.SourceWorkspace {
		slog.Debug("admission", "hookId", h.ID, "event", sc.event, "digest", ev.Digest, "state", string(ev.State), "reason", ev.Reason, "admitted", ok)
	}
	if !ok {
		reason := string(ev.State)
		if ev.Reason != "" && ev.Reason != reason {
			reason += ": " + ev.Reason
		}
		pr := output.ProcessResult{ExitCode: -1, Skipped: true, SkipReason: reason}
		ans := output.Parse(sc.event, pr)
		run := output.Run{RunID: runID, HookID: h.ID, Source: string(h.Source.Kind), Outcome: ans.Outcome, Reason: reason}
		obs.HookCompleted(HookDone{RunID: runID, Hook: h, Event: sc.event, Run: run})
		return ans, run
	}
	obs.HookStarted(HookStart{RunID: runID, Hook: h, Event: sc.event})
	steps.Mark(steps.Started)
	start := time.Now()
	pr, stdout, stderr := s.spawn(ctx, h, in, sc)
	ans := output.Parse(sc.event, pr)
	run := output.Run{
		RunID:           runID,
		HookID:          h.ID,
		Source:          string(h.Source.Kind),
		Outcome:         ans.Outcome,
		ExitCode:        ans.ExitCode,
		DurationMs:      time.Since(start).Milliseconds(),
		StdoutTruncated: pr.StdoutTruncated,
		StderrTruncated: pr.StderrTruncated,
		Error:           ans.Error,
		Warnings:        ans.Warnings,
		QueuedRunID:     pr.QueuedRunID,
	}
	if pr.Skipped { // e.g. async_limit: a reason, not an error
		run.Reason, run.Error = pr.SkipReason, ""
	}
	run.Error = s.exit127Error(h, s.opts.Cwd, run.ExitCode, run.Error)
	ans.Error = run.Error
	cancelled := markCancelled(ctx, &run)
	if cancelled {
		ans.Error = run.Error
	}
	logRunEnd(h, sc.event, run, stderr, cancelled)
	obs.HookCompleted(HookDone{RunID: runID, Hook: h, Event: sc.event, Run: run, Stdout: stdout, Stderr: stderr})
	steps.Mark(steps.Completed)
	return ans, run
}

// spawn prepares argv, environment and stdin for h and executes it (or
// starts it in the background when h.Async).
func (s *Session) spawn(ctx context.Context, h *hook.Hook, in baseInput, sc stdinContext) (output.ProcessResult, []byte, []byte) {
	argv, cmdLine, env, err := s.commandLine(h)
	path := ""
	if err == nil && h.Type == hook.TypeProcess {
		var perr error
		if path, perr = s.checkProcess(argv, false); perr != nil {
			err = fmt.Errorf("hook %s: %w", h.ID, perr)
		}
	} else if err == nil {
		path = s.shellPath(h, argv)
	}
	if err != nil {
		return output.ProcessResult{ExitCode: -1, SpawnError: err.Error()}, nil, nil
	}
	transcript, cleanup, err := s.transcriptFor(sc.event, in)
	if err != nil {
		return output.ProcessResult{ExitCode: -1, SpawnError: err.Error()}, nil, nil
	}
	// Workspace hooks are not queued: their trust is decided right before
	// they start (a queued run would start later, after the declaration or
	// a script it pins may have changed), so they start here, admitted.
	if h.Async && s.opts.AsyncQueue != nil && h.Source.Kind != hook.SourceWorkspace {
		cleanup() // the queue's worker writes its own transcript file
		job := exec.AsyncJob{
			SessionID: s.opts.ID, TurnID: sc.turnID, Event: sc.event, HookID: h.ID,
			Argv: argv, CmdLine: cmdLine, Dir: s.opts.Cwd, Env: env[s.hostEnvLen:],
			Stdin:          buildStdin(in, sc, exec.TranscriptPlaceholder),
			Transcript:     transcriptContent(sc.event, in),
			TimeoutMs:      h.TimeoutMs,
			MaxOutputBytes: h.MaxOutputBytes,
		}
		if id, err := s.opts.AsyncQueue(ctx, job); err == nil {
			return output.ProcessResult{ExitCode: -1, Async: true, QueuedRunID: id}, nil, nil
		}
		// No queue (database unavailable): start it here, as without one.
		if transcript, cleanup, err = s.transcriptFor(sc.event, in); err != nil {
			return output.ProcessResult{ExitCode: -1, SpawnError: err.Error()}, nil, nil
		}
	}
	spec := exec.Spec{
		Argv:           argv,
		Path:           path,
		CmdLine:        cmdLine,
		Dir:            s.opts.Cwd,
		Env:            env,
		Stdin:          buildStdin(in, sc, transcript),
		Timeout:        time.Duration(h.TimeoutMs) * time.Millisecond,
		KillGrace:      exec.KillGrace,
		MaxOutputBytes: h.MaxOutputBytes,
	}
	if h.Async {
		// spec runner.ts:125: started in the background, output takes part
		// in no decision. The session's Close stops it. At most
		// MaxAsyncPerSession run at once; more are skipped, not queued.
		select {
		case s.asyncSlots <- struct{}{}:
		default:
			cleanup()
			return output.ProcessResult{ExitCode: -1, Skipped: true,
				SkipReason: fmt.Sprintf("async_limit: %d background hooks of this session are still running", MaxAsyncPerSession)}, nil, nil
		}
		s.async.Add(1)
		rec := s.asyncLog.start(h, sc.event)
		go func() {
			defer s.async.Done()
			defer func() { <-s.asyncSlots }()
			defer cleanup()
			s.asyncLog.end(rec, s.opts.Spawner.Run(s.asyncCtx, spec))
		}()
		return output.ProcessResult{ExitCode: -1, Async: true}, nil, nil
	}
	defer cleanup()
	steps.Mark(steps.Prepared)
	res := s.opts.Spawner.Run(ctx, spec)
	slog.Debug("hook process", "hookId", h.ID, "event", sc.event, "argv0", argv[0], "pid", res.PID,
		"exitCode", res.ExitCode, "durationMs", res.Duration.Milliseconds(), "timedOut", res.TimedOut, "startError", res.StartErr != nil)
	pr := output.ProcessResult{
		ExitCode:        res.ExitCode,
		Stdout:          res.Stdout,
		Stderr:          res.Stderr,
		StdoutTruncated: res.StdoutTruncated,
		StderrTruncated: res.StderrTruncated,
		TimedOut:        res.TimedOut,
	}
	if res.StartErr != nil {
		pr.SpawnError = res.StartErr.Error()
		if h.Type == hook.TypeProcess {
			if err := s.spawnProblem(argv, path, res.StartErr); err != nil {
				pr.SpawnError = fmt.Errorf("hook %s: %w", h.ID, err).Error()
			}
		}
	}
	return pr, res.Stdout, res.Stderr
}

// shellRefuse returns the directories a hook's shell must never be found
// in: the workspace root and the session directory (takes mu).
func (s *Session) shellRefuse() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	dirs := []string{s.opts.Cwd}
	if s.ws != nil {
		dirs = append(dirs, s.ws.Root)
	}
	return dirs
}

// commandLine returns argv, the raw command line of a shell "cmd" hook on
// Windows (exec.Spec.CmdLine; "" for every other hook and OS) and the
// environment for h, with ${VAR} expanded in command and args (PROTOCOL.md
// §3; ${ZCODE_SKILL_DIR} is a configuration error).
func (s *Session) commandLine(h *hook.Hook) ([]string, string, []string, error) {
	vars, env := s.hookVars(h)
	cmd, err := config.Expand(h.Command, vars)
	if err != nil {
		return nil, "", nil, fmt.Errorf("hook %s: %w", h.ID, err)
	}
	if h.Type == hook.TypeCommand {
		argv, line, err := shellArgv(h.Shell, cmd, s.shellRefuse)
		if err != nil {
			return nil, "", nil, fmt.Errorf("hook %s: %w", h.ID, err)
		}
		return argv, line, env, nil
	}
	argv := make([]string, 0, 1+len(h.Args))
	argv = append(argv, cmd)
	for _, a := range h.Args {
		ea, err := config.Expand(a, vars)
		if err != nil {
			return nil, "", nil, fmt.Errorf("hook %s: %w", h.ID, err)
		}
		argv = append(argv, ea)
	}
	if err := checkProcessArgv(argv); err != nil {
		return nil, "", nil, fmt.Errorf("hook %s: %w", h.ID, err)
	}
	return argv, "", env, nil
}

// hookVars are the ${NAME} values of h's command and args (the session's,
// with a plugin hook's root and data dirs; for a command hook as its shell
// writes paths: shellVars) and the environment its process gets, which
// holds each of them too.
func (s *Session) hookVars(h *hook.Hook) (map[string]string, []string) {
	vars, env := s.vars, s.baseEnv
	// Plugin hooks, and workspace declarations from a project file's
	// plugins.dirs, get their plugin's root and data dirs.
	if h.Source.PluginRoot != "" {
		vars = make(map[string]string, len(s.vars)+4)
		for k, v := range s.vars {
			vars[k] = v
		}
		env = append(env[:len(env):len(env)], make([]string, 0, 4)...)
		for _, k := range hook.PluginRootVars {
			vars[k] = h.Source.PluginRoot
			env = append(env, k+"="+h.Source.PluginRoot)
		}
		for _, k := range hook.PluginDataVars {
			vars[k] = h.Source.PluginData
			env = append(env, k+"="+h.Source.PluginData)
		}
	}
	if h.Type == hook.TypeCommand {
		vars = shellVars(h.Shell, vars)
	}
	return vars, env
}
