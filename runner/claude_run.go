package runner

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/internal/jsonexact"
	"github.com/hookside/hookside/output"
	"github.com/hookside/hookside/runner/config"
	"github.com/hookside/hookside/runner/exec"
	"github.com/hookside/hookside/runner/httphook"
)

// Skip reasons of the claude profile (runs[].reason).
const (
	// ReasonDuplicate: an identical handler already runs for this event
	// (https://code.claude.com/docs/en/hooks#hook-handler-fields).
	ReasonDuplicate = "duplicate_handler"
	// ReasonIfNotMatched: the handler's `if` rule does not match the tool
	// call, or the event is not a tool event.
	ReasonIfNotMatched = "if_not_matched"
	// ReasonHooksDisabled: disableAllHooks / allowManagedHooksOnly.
	ReasonHooksDisabled = "hooks_disabled"
)

var claudeSeq atomic.Uint64

// RunClaude runs one event of a claude-profile session the way Claude Code
// does (docs/compatibility.md "The claude profile"): every event of
// hook.ClaudeEvents; the input is Claude Code's snake_case shape and is
// handed to each hook as given, with the common fields filled in; the
// matcher tests the event's matcher field; `if` rules gate handlers on tool
// events; identical handlers of settings files run once; every selected
// handler runs concurrently and the answers are merged in registration
// order by output.MergeClaude. disableAllHooks and allowManagedHooksOnly
// are honoured. Errors: ErrUnknownEvent, *InputError, ctx.Err().
func (s *Session) RunClaude(ctx context.Context, req RunRequest, obs Observer) (output.ClaudeMerged, error) {
	ctx, done, ok := s.track(ctx)
	if !ok {
		return output.ClaudeMerged{}, ErrSessionClosed
	}
	defer done()
	m, err := s.runClaude(ctx, req, obs)
	return m, closedErr(ctx, err)
}

func (s *Session) runClaude(ctx context.Context, req RunRequest, obs Observer) (output.ClaudeMerged, error) {
	if !s.dialect.HasEvent(req.Event) {
		return output.ClaudeMerged{}, fmt.Errorf("%w %q", ErrUnknownEvent, req.Event)
	}
	if obs == nil {
		obs = nopObserver{}
	}
	in := claudeInput{}
	if raw := bytes.TrimSpace(req.Input); len(raw) > 0 && string(raw) != "null" {
		if raw[0] != '{' || jsonexact.Unmarshal(raw, &in) != nil {
			return output.ClaudeMerged{}, &InputError{Reason: "must be a JSON object"}
		}
	}
	field, hasMatcher := s.dialect.MatcherField(req.Event)
	value, _ := in.str(field)
	if field == "tool_name" && value == "" {
		return output.ClaudeMerged{}, toolNameError(field, req.Event, in[field])
	}
	if req.Event == hook.FileChanged {
		value = filepath.Base(value)
	}
	cst := s.claudeSt()
	cwd, cwdOK, err := s.claudeRunCwd(in)
	if err != nil {
		return output.ClaudeMerged{}, err
	}
	if req.Event == hook.Stop || req.Event == hook.SubagentStop {
		if err := cst.fillStopHookActive(in, claudeStopKey(req.Event, in)); err != nil {
			return output.ClaudeMerged{}, err
		}
	}

	_, plans := s.current()
	plan := plans[req.Event]
	sw := s.claudeSwitches()
	var picks []pick
	seen := map[string]string{}
	for i := range plan.hooks {
		h := &plan.hooks[i]
		if hasMatcher && !cst.matcherMatches(req.Event, h.Matcher, value) {
			continue
		}
		p := pick{h: h}
		switch {
		case h.Source.Kind == hook.SourceInternal: // hookside's own (mailbox): always
		case s.keptOff(sw, h):
			p.reason = ReasonHooksDisabled
		case h.If != "":
			if ok, why := claudeIfMatches(req.Event, h.If, in, cwd, s.opts.Cwd); !ok {
				p.reason = ReasonIfNotMatched + ": " + why
			}
		}
		if p.reason == "" && s.dialect.DedupeHandlers && !isPluginHook(h) && h.Source.Kind != hook.SourceInternal {
			key := handlerKey(h)
			if first, dup := seen[key]; dup {
				p.reason = ReasonDuplicate + ": same as " + first
			} else {
				seen[key] = h.ID
			}
		}
		picks = append(picks, p)
	}

	rc := claudeRunCtx{event: req.Event, turnID: req.TurnID, raw: req.Input, in: in, cwd: cwd, cwdOK: cwdOK, sw: sw}
	if slices.Contains(hook.ClaudeEnvFileEvents, req.Event) && len(picks) > 0 {
		if dir, err := s.transcriptDir(); err == nil {
			rc.envFile = filepath.Join(dir, "env-"+strconv.FormatUint(claudeSeq.Add(1), 10)+".sh")
			if f, err := os.OpenFile(rc.envFile, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600); err == nil {
				f.Close()
				defer os.Remove(rc.envFile)
			} else {
				rc.envFile = ""
			}
		}
	}
	// The background results of earlier runs go out with this reply; one
	// that finishes while this run's hooks run waits for the next reply,
	// as Claude Code delivers async output on the next turn.
	pending := cst.takePending()
	answers := make([]output.ClaudeAnswer, len(picks))
	runs := make([]output.Run, len(picks))
	var wg sync.WaitGroup
	for i, p := range picks {
		if p.reason != "" {
			answers[i], runs[i] = s.claudeSkip(p.h, req.Event, p.reason, obs)
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			answers[i], runs[i] = s.claudeRunOne(ctx, p.h, &rc, obs)
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		cst.restorePending(pending)
		return output.ClaudeMerged{}, err
	}

	m := output.MergeClaude(req.Event, value, answers)
	m.Runs = make([]output.Run, 0, len(runs))
	for _, r := range runs {
		if r.Source != string(hook.SourceInternal) {
			m.Runs = append(m.Runs, r) // internal runs are private
		}
	}
	if req.Event == hook.Stop || req.Event == hook.SubagentStop || req.Event == hook.UserPromptSubmit {
		s.claudeStop(&m, answers, req.Event, in)
	}
	if rc.envFile != "" {
		m.EnvExports = readExports(rc.envFile)
	}
	m.AsyncResults = pending
	m.TrustNotice = s.trustNotice(req.Event, m.Runs)
	s.noteRunDir(m.TrustNotice, rc.cwd, rc.cwdOK)
	m.DisabledNotice = disabledNotice(sw, req.Event, picks)
	m.SpillOversized(s.saveOversized)
	return m, nil
}

// claudeRunCtx is what every handler of one RunClaude shares.
type claudeRunCtx struct {
	event   string
	turnID  string
	raw     json.RawMessage // the host's input, for internal hooks
	in      claudeInput
	cwd     string // runDir of the input cwd
	cwdOK   bool   // cwd resolved (runDir); else no workspace hook is admitted
	envFile string
	sw      claudeSwitches
}

// claudeStop applies the consecutive-block cap: the counter of the agent
// (the main agent, or SubagentStop's agent_id: claudeStopKey) grows with
// each granted continuation and resets when a Stop does not continue or a
// prompt is submitted (https://code.claude.com/docs/en/hooks#stop-input).
// The same counter gives the next Stop's stop_hook_active
// (fillStopHookActive).
func (s *Session) claudeStop(m *output.ClaudeMerged, answers []output.ClaudeAnswer, event string, in claudeInput) {
	c := s.claudeSt()
	c.mu.Lock()
	defer c.mu.Unlock()
	if event == hook.UserPromptSubmit {
		delete(c.stopBlocks, hook.Stop)
		return
	}
	key := claudeStopKey(event, in)
	st := output.DecideClaudeStop(*m, answers, c.stopBlocks[key])
	if st.ContinueTurn {
		c.stopBlocks[key] = st.Consecutive
	} else {
		delete(c.stopBlocks, key)
	}
	m.Stop = &st
}

// managedPlugin reports whether h comes from a plugin managed settings
// force-enable; its hooks keep running under disableAllHooks and
// allowManagedHooksOnly (https://code.claude.com/docs/en/settings-reference#allowmanagedhooksonly).
func (s *Session) managedPlugin(h *hook.Hook) bool {
	p := s.claudePlugins[h.Source.PluginRoot]
	return h.Source.Kind == hook.SourcePlugin && p != nil && p.ManagedForced
}

// isPluginHook reports whether h comes from a plugin: a plugin hook, or
// the workspace declaration of a plugin only the workspace switches on
// (both carry the plugin's root).
func isPluginHook(h *hook.Hook) bool {
	return h.Source.PluginRoot != "" && (h.Source.Kind == hook.SourcePlugin || h.Source.Kind == hook.SourceWorkspace)
}

func isManaged(h *hook.Hook) bool {
	return h.Source.Kind == hook.SourceUser && h.Source.Name == config.ManagedSourceName
}

// handlerKey identifies a handler for deduplication: a command handler by
// its command string and args, an http handler by its URL (as Claude Code
// does; https://github.com/anthropics/claude-code/issues/76297).
func handlerKey(h *hook.Hook) string {
	if h.Type == hook.TypeHTTP && h.HTTP != nil {
		return "http\x00" + h.HTTP.URL
	}
	if h.Delegated != nil { // Command is the canonical configuration
		return string(h.Type) + "\x00" + h.Command
	}
	return "command\x00" + h.Command + "\x00" + strings.Join(h.Args, "\x00")
}

// claudeSwitches returns the settings switches of the session's files as
// they are now (switchCache: read again only when a file changed).
func (s *Session) claudeSwitches() claudeSwitches {
	managed, user, project, local := claudeSettingsFiles(s.opts, s.dialect)
	return s.switches.get([4]string{managed, user, project, local}, func() claudeSwitches {
		return readClaudeSwitches(s.openMemo, managed, user, project, local)
	})
}

// claudeSwitchDiagnostics returns the diagnostics of the settings switches
// as the files are now (claudeSwitches.diagnostics); nil outside the
// claude profile.
func (s *Session) claudeSwitchDiagnostics() []hook.Diagnostic {
	if s.dialect.Name != ProfileClaude {
		return nil
	}
	return s.claudeSwitches().diagnostics()
}

func (s *Session) claudeSkip(h *hook.Hook, event, reason string, obs Observer) (output.ClaudeAnswer, output.Run) {
	runID := newRunID()
	a := output.ParseClaude(event, output.ProcessResult{ExitCode: -1, Skipped: true, SkipReason: reason})
	run := output.Run{RunID: runID, HookID: h.ID, Source: string(h.Source.Kind), Outcome: a.Outcome, Reason: reason}
	obs.HookCompleted(HookDone{RunID: runID, Hook: h, Event: event, Run: run})
	return a, run
}

// claudeRunOne admits, runs and parses one handler. Internal hooks run
// in-process; their context joins the answer and their run stays private.
func (s *Session) claudeRunOne(ctx context.Context, h *hook.Hook, rc *claudeRunCtx, obs Observer) (output.ClaudeAnswer, output.Run) {
	if h.Type == TypeInternal {
		start := time.Now()
		ans := s.runInternal(ctx, h, rc.raw, stdinContext{event: rc.event, turnID: rc.turnID})
		a := output.ClaudeAnswer{Outcome: ans.Outcome, Error: ans.Error, AdditionalContext: ans.AdditionalContext}
		return a, output.Run{RunID: newRunID(), HookID: h.ID, Source: string(h.Source.Kind), Outcome: ans.Outcome,
			DurationMs: time.Since(start).Milliseconds(), Error: ans.Error}
	}
	if ev, ok := s.admitRun(h, rc.cwd, rc.cwdOK); !ok { // it starts in rc.cwd
		reason := string(ev.State)
		if ev.Reason != "" && ev.Reason != reason {
			reason += ": " + ev.Reason
		}
		return s.claudeSkip(h, rc.event, reason, obs)
	}
	runID := newRunID()
	obs.HookStarted(HookStart{RunID: runID, Hook: h, Event: rc.event})
	start := time.Now()
	var a output.ClaudeAnswer
	var pr output.ProcessResult
	var stdout, stderr []byte
	switch {
	case h.Type == hook.TypeHTTP:
		hr := s.claudeHTTP(ctx, h, rc)
		a, stdout = output.ParseClaudeHTTP(rc.event, hr), hr.Body
		pr.StdoutTruncated = hr.BodyTruncated
		pr.SpawnError = hr.Err
	case h.Delegated != nil:
		dr := s.claudeDelegated(ctx, h, rc, runID)
		a, stdout = output.ParseClaudeDelegated(rc.event, dr), dr.Body
	default:
		pr = s.claudeSpawn(ctx, h, rc)
		a, stdout, stderr = output.ParseClaude(rc.event, pr), pr.Stdout, pr.Stderr
		if !pr.Async && output.ClaudeAsyncMarker(pr.Stdout) {
			a = s.claudeLateAsync(h, rc.event, pr)
		}
	}
	run := output.Run{
		RunID: runID, HookID: h.ID, Source: string(h.Source.Kind), Outcome: a.Outcome,
		ExitCode: a.ExitCode, DurationMs: time.Since(start).Milliseconds(),
		StdoutTruncated: pr.StdoutTruncated, StderrTruncated: pr.StderrTruncated,
		Error: a.Error, Warnings: a.Warnings,
	}
	if a.Outcome == output.OutcomeBlocked {
		run.Reason = output.RunReason(a.BlockReason)
	}
	if pr.Skipped {
		run.Reason, run.Error = pr.SkipReason, ""
	}
	run.Error = s.exit127Error(h, rc.cwd, run.ExitCode, run.Error)
	a.Error = run.Error
	cancelled := markCancelled(ctx, &run)
	if cancelled {
		a.Error = run.Error
	}
	logRunEnd(h, rc.event, run, stderr, cancelled)
	obs.HookCompleted(HookDone{RunID: runID, Hook: h, Event: rc.event, Run: run, Stdout: stdout, Stderr: stderr})
	return a, run
}

// claudeTranscript returns the transcript path a hook gets: the run's
// transcript_path, else the session's, else a synthetic per-hook file
// (with the prompt on UserPromptSubmit, last_assistant_message on Stop).
func (s *Session) claudeTranscript(rc *claudeRunCtx) (string, func(), error) {
	if p, ok := rc.in.str("transcript_path"); ok && p != "" {
		return p, func() {}, nil
	}
	if s.opts.TranscriptPath != "" {
		return s.opts.TranscriptPath, func() {}, nil
	}
	fields := inputFields{Prompt: rc.in["prompt"], ResponseText: rc.in["last_assistant_message"]}
	return s.writeTranscript(rc.event, baseInput{f: fields})
}

// claudeSpawn runs a command handler (shell or exec form) with Claude
// Code's environment: CLAUDE_PROJECT_DIR (the session cwd), for plugin
// hooks CLAUDE_PLUGIN_ROOT and CLAUDE_PLUGIN_DATA (created under the
// profile's home), CLAUDE_ENV_FILE on the events that have it.
func (s *Session) claudeSpawn(ctx context.Context, h *hook.Hook, rc *claudeRunCtx) output.ProcessResult {
	hc := *h
	plugin := s.claudePlugins[hc.Source.PluginRoot]
	if isPluginHook(&hc) && s.opts.UserDir != "" {
		id := hc.Source.Name
		if plugin != nil {
			id = plugin.ID
		}
		hc.Source.PluginData = filepath.Join(s.opts.UserDir, "plugins", "data", pluginDataID(id))
		if err := os.MkdirAll(hc.Source.PluginData, 0o700); err != nil {
			return output.ProcessResult{ExitCode: -1, SpawnError: "create CLAUDE_PLUGIN_DATA: " + err.Error()}
		}
	}
	argv, cmdLine, env, err := s.commandLine(&hc)
	if err != nil {
		return output.ProcessResult{ExitCode: -1, SpawnError: err.Error()}
	}
	if isPluginHook(&hc) && plugin != nil {
		if argv, err = userConfigArgv(&hc, plugin, argv); err != nil {
			return output.ProcessResult{ExitCode: -1, SpawnError: err.Error()}
		}
		env = append(env[:len(env):len(env)], pluginOptionEnv(plugin)...)
	}
	if rc.envFile != "" {
		env = append(env[:len(env):len(env)], hook.EnvClaudeEnvFile+"="+rc.envFile)
	}
	transcript, cleanup, err := s.claudeTranscript(rc)
	if err != nil {
		return output.ProcessResult{ExitCode: -1, SpawnError: err.Error()}
	}
	spec := exec.Spec{
		Argv: argv, Path: s.shellPath(&hc, argv), CmdLine: cmdLine, Dir: rc.cwd, Env: env,
		Stdin:          claudeStdin(rc.in, rc.event, s.opts.ID, transcript, rc.cwd, s.opts.Mode),
		Timeout:        time.Duration(h.TimeoutMs) * time.Millisecond,
		KillGrace:      exec.KillGrace,
		MaxOutputBytes: h.MaxOutputBytes,
	}
	if h.Async {
		return s.claudeAsync(h, rc.event, spec, cleanup)
	}
	return s.claudeSpawnRun(ctx, h, rc.event, spec, cleanup)
}

// claudeAsync starts an async handler in the background
// (https://code.claude.com/docs/en/hooks#run-hooks-in-the-background): its
// additionalContext and systemMessage are delivered in the next reply of
// this session (ClaudeMerged.AsyncResults); an asyncRewake handler that
// exits 2 is also handed to SessionOptions.OnClaudeWake at once.
func (s *Session) claudeAsync(h *hook.Hook, event string, spec exec.Spec, cleanup func()) output.ProcessResult {
	select {
	case s.asyncSlots <- struct{}{}:
	default:
		cleanup()
		return output.ProcessResult{ExitCode: -1, Skipped: true,
			SkipReason: fmt.Sprintf("async_limit: %d background hooks of this session are still running", MaxAsyncPerSession)}
	}
	s.async.Add(1)
	rec := s.asyncLog.start(h, event)
	go func() {
		defer s.async.Done()
		defer func() { <-s.asyncSlots }()
		defer cleanup()
		res := s.opts.Spawner.Run(s.asyncCtx, spec)
		s.asyncLog.end(rec, res)
		if res.Canceled {
			return
		}
		// As a detached or foreground handler's: the truncation flags
		// too, so a stream cut at the cap gets its notice (ClaudeAsync).
		s.deliverAsync(h, event, claudeProcessResult(res))
	}()
	return output.ProcessResult{ExitCode: -1, Async: true}
}

// claudeHTTP sends an http handler's request with the session's
// environment for header interpolation.
func (s *Session) claudeHTTP(ctx context.Context, h *hook.Hook, rc *claudeRunCtx) output.HTTPResult {
	transcript, cleanup, err := s.claudeTranscript(rc)
	if err != nil {
		return output.HTTPResult{Err: err.Error()}
	}
	defer cleanup()
	body := claudeStdin(rc.in, rc.event, s.opts.ID, transcript, rc.cwd, s.opts.Mode)
	c := &httphook.Client{Getenv: s.lookupEnv}
	return c.Do(ctx, httphook.Handler{
		URL: h.HTTP.URL, Headers: h.HTTP.Headers, AllowedEnvVars: h.HTTP.AllowedEnvVars,
		Timeout: time.Duration(h.TimeoutMs) * time.Millisecond, MaxBodyBytes: h.MaxOutputBytes,
	}, httphook.Policy{AllowedURLs: rc.sw.AllowedURLs, AllowedEnvVars: rc.sw.AllowedEnvVars}, bytes.TrimSuffix(body, []byte("\n")))
}

// lookupEnv resolves name in the hooks' environment (the session's
// additions override hookside's own).
func (s *Session) lookupEnv(name string) (string, bool) {
	for i := len(s.baseEnv) - 1; i >= 0; i-- {
		if k, v, ok := strings.Cut(s.baseEnv[i], "="); ok && k == name {
			return v, true
		}
	}
	return "", false
}

// readExports returns the non-blank lines hooks wrote to a CLAUDE_ENV_FILE.
func readExports(path string) []string {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// pick is one hook RunClaude considers: reason non-empty means skipped.
type pick struct {
	h      *hook.Hook
	reason string
}

// disabledNotice is the ClaudeMerged.DisabledNotice of one event: set when
// a workspace settings file's disableAllHooks (claudeSwitches.DisabledBy)
// kept at least one user or plugin hook from running; nil otherwise.
func disabledNotice(sw claudeSwitches, event string, picks []pick) *output.ClaudeDisabledNotice {
	if sw.DisabledBy == "" || sw.ManagedDisable {
		return nil
	}
	n := 0
	for _, p := range picks {
		if p.reason == ReasonHooksDisabled && p.h.Source.Kind != hook.SourceWorkspace {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	return &output.ClaudeDisabledNotice{File: sw.DisabledBy, Skipped: n,
		Message: fmt.Sprintf("%d of your %s hook(s) did not run: disableAllHooks is true in %s, a workspace file; what they check was not checked.", n, event, sw.DisabledBy)}
}
