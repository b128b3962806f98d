package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/internal/jsonexact"
	"github.com/hookside/hookside/internal/jsonpos"
	"github.com/hookside/hookside/internal/jsonscan"
	"github.com/hookside/hookside/output"
	"github.com/hookside/hookside/runner"
	"github.com/hookside/hookside/runner/exec"
	"github.com/hookside/hookside/truststore"
)

func hooksCmd(stdout, stderr io.Writer) *cobra.Command {
	return groupCmd("hooks", "run, list and trust hooks from the shell",
		"Run, list, explain and trust lifecycle hooks from the shell, as an agent host's session would.",
		stdout, stderr,
		hooksRunCmd(stdout, stderr), hooksListCmd(stdout, stderr), hooksExplainCmd(stdout, stderr), trustCmd(stdout, stderr))
}

// sessionFlags are the flags that open a one-shot session from the shell.
type sessionFlags struct {
	home, cwd, userConfig, sessionID string
	workspace                        string // --workspace PATH (placement)
	pluginDirs                       multiFlag
	workspaceHooks                   bool
	hooksEnabled                     bool
	policy                           string
	projectConfig                    string
	profile                          string
	sparkUserDir                     string
	claudeHome                       string
	transcriptPath                   string
	mode                             string
	env                              envFlag
	// flags is the command's flag set, for the review hint
	// of a pending-trust diagnostic (hintFlags); set by registerSession.
	flags *pflag.FlagSet
}

// registerSession adds the flags that place a one-shot session (hooks run,
// list, explain).
func (f *sessionFlags) registerSession(fs *pflag.FlagSet) {
	f.flags = fs
	fs.StringVar(&f.home, "home", "", "hookside home `DIR` (default $HOOKSIDE_HOME or ~/.hookside)")
	fs.StringVar(&f.cwd, "cwd", "", "session working directory `DIR` (default the current directory)")
	fs.StringVar(&f.userConfig, "user-config", "", "user config `FILE` (default <home>/config.json)")
	fs.Var(&f.pluginDirs, "plugin-dir", "plugin root `DIR` holding hooks/hooks.json (repeatable)")
}

// registerAll adds the session, workspace and dialect flags (hooks run,
// list, explain).
func (f *sessionFlags) registerAll(fs *pflag.FlagSet) {
	f.registerSession(fs)
	f.registerWorkspace(fs)
	f.registerProfile(fs)
}

// registerProfile adds the dialect flags (hooks run, list, explain).
func (f *sessionFlags) registerProfile(fs *pflag.FlagSet) {
	fs.StringVar(&f.profile, "profile", "zcode", "configuration dialect `NAME`: zcode, spark or claude")
	fs.StringVar(&f.sparkUserDir, "spark-user-dir", "", "spark user settings `DIR` (default ~/.spark; --profile spark)")
	fs.StringVar(&f.claudeHome, "claude-home", "", "Claude Code's home `DIR`: settings.json, plugins/data/ (default ~/.claude; --profile claude)")
}

// registerTranscript adds --transcript-path, which only the commands that
// run hooks take (hooks run): SessionOptions.TranscriptPath, which hooks of
// every profile get (Session.transcriptFor).
func (f *sessionFlags) registerTranscript(fs *pflag.FlagSet) {
	fs.StringVar(&f.transcriptPath, "transcript-path", "", "the session transcript `FILE` given unchanged to every hook as transcript_path, in every profile (an input transcript_path wins; default a temporary file per hook with the prompt or response)")
}

// userDir is the profile's user directory flag, made absolute.
func (f *sessionFlags) userDir() string {
	d := f.sparkUserDir
	if f.profile == runner.ProfileClaude {
		d = f.claudeHome
	}
	if d != "" {
		if a, err := filepath.Abs(d); err == nil {
			d = a
		}
	}
	return d
}

// registerWorkspace adds the workspace-hook flags.
func (f *sessionFlags) registerWorkspace(fs *pflag.FlagSet) {
	fs.StringVar(&f.workspace, "workspace", "", "the workspace `PATH` whose trust records the session uses (default the session directory); with --cwd DIR inside it, a session in DIR under PATH's identity, as hooks trust --workspace PATH --cwd DIR")
	fs.BoolVar(&f.workspaceHooks, "workspace-hooks", true, "consider workspace (project) hooks; untrusted ones are skipped, never run")
	fs.StringVar(&f.policy, "policy", "user_decides", "workspace hook `POLICY`: user_decides, deny or allow_trusted_only")
	fs.StringVar(&f.projectConfig, "project-config", "", "an extra project config `FILE`, added to workspace discovery")
	fs.BoolVar(&f.hooksEnabled, "hooks-enabled", false, "turn the root switch on (as hooks.enabled: true; also $"+runner.EnvHooksEnabled+"=1)")
}

type multiFlag []string

// envFlag collects repeatable KEY=VAL flags (hooks run --env).
type envFlag map[string]string

func (e *envFlag) String() string {
	if len(*e) == 0 {
		return ""
	}
	return fmt.Sprint(map[string]string(*e))
}
func (e *envFlag) Type() string { return "KEY=VAL" }
func (e *envFlag) Set(v string) error {
	k, val, ok := strings.Cut(v, "=")
	if !ok || k == "" || strings.ContainsAny(k, "\x00") {
		return fmt.Errorf("want KEY=VAL, not %q", v)
	}
	if *e == nil {
		*e = envFlag{}
	}
	(*e)[k] = val
	return nil
}

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }
func (m *multiFlag) Type() string       { return "value" }

// policyValues and profileValues are the accepted values of --policy and
// --profile, as the usage errors name them.
const policyValues = "user_decides, deny or allow_trusted_only"

func profileValues() string {
	names := hook.ProfileNames()
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// cliOpenError words runner.Open's errors as flag errors.
func cliOpenError(err error, cwd string) error {
	var perr *runner.ProfileError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &perr):
		return fmt.Errorf("--profile %q is not %s", perr.Profile, profileValues())
	case errors.Is(err, runner.ErrCwd):
		return fmt.Errorf("--cwd %s: not a directory", cwd)
	}
	return err
}

func printDiagnostics(w io.Writer, diags []hook.Diagnostic) {
	for _, d := range diags {
		src := ""
		if d.Source != "" {
			src = d.Source + ": "
		}
		fmt.Fprintf(w, "hookside: %s%s: %s [%s]\n", src, d.Severity, d.Message, d.Code)
	}
}

func hooksRunCmd(stdout, stderr io.Writer) *cobra.Command {
	var sf sessionFlags
	var o hooksRunOptions
	cmd := &cobra.Command{
		Use:   "run",
		Short: "run one event's hooks and print the merged answer (exit 2 when blocked or stopped)",
		Long: "Run the hooks configured for EVENT once, as app-server's hooks/run would, and print the merged\n" +
			"answer. Exit status: 0 proceed, 2 blocked or stopped (a hook blocked, or answered continue:false,\n" +
			"its stopReason then printed on stderr: the host must not proceed), 1 error (usage errors included,\n" +
			"so that 2 always means the host must not proceed). On Stop and SubagentStop a block (exit 2 or\n" +
			"decision:block) asks to continue the turn, as the stop line says: status 0 (--profile spark: 2, it\n" +
			"counts as a block too); continue:false there stops the agent (status 2) only under --profile claude\n" +
			"(zcode, spark: a warning on the run, status 0). Each run is a session of its own, with no Stop\n" +
			"before it, so a Stop hook (and a SubagentStop hook under --profile claude) reads stop_hook_active\n" +
			"false unless the --input object gives it. Async hooks it started in the background run to their\n" +
			"end before it exits (each within its timeout), and stderr shows each one's outcome (exit code, or\n" +
			"timed out, and its duration in ms). SIGINT (Ctrl-C) or SIGTERM stops every hook still running: a\n" +
			"synchronous one (killed with its process group; nothing is decided, no answer is printed, stderr\n" +
			"says \"interrupted by SIGINT\") or the async ones (each named). The exit status is then 130\n" +
			"(SIGINT) or 143 (SIGTERM), as a shell gives.",
		Annotations: map[string]string{annUsageExit: "1", annJSONErrors: jsonErrorsMessage},
	}
	fs := cmd.Flags()
	fs.StringVar(&o.event, "event", "", "the `EVENT`: "+strings.Join(hook.Events, ", ")+" (--profile claude: every Claude Code event)")
	fs.StringVar(&o.inputPath, "input", "", "`FILE` holding the event input JSON object, or - for stdin (default {}); a leading UTF-8 byte order mark is skipped; not JSON, not an object or a member named twice is an error (exit 1)")
	flagRequired(fs, "event")
	flagUse(fs, "input", "[--input FILE|-]")
	fs.BoolVar(&o.asJSON, "json", false, "print the merged result as JSON (the hooks/run result, docs/protocol.md); a failure that prints no result (a flag or input error) prints {\"error\": {\"message\"}}")
	fs.StringVar(&o.turnID, "turn-id", "cli-turn", "turn `ID` given to the hooks (Stop continuations are counted per session and turn; each hooks run is a session of its own, so its count starts at 0: the limit of 3 is an app-server session's)")
	sf.registerSession(fs)
	fs.StringVar(&sf.sessionID, "session-id", "", "session `ID` given to hooks (default cli-<pid>)")
	fs.StringVar(&sf.mode, "mode", "", "the host's permission `MODE` given to hooks (stdin mode and permission_mode), e.g. default, plan, acceptEdits")
	fs.Var(&sf.env, "env", "KEY=VAL added to every hook's environment (repeatable; as session/open.env)")
	sf.registerWorkspace(fs)
	sf.registerProfile(fs)
	sf.registerTranscript(fs)
	completeEvents(cmd)
	return setRun(cmd, func(args []string) int {
		return messageJSONErrors(cmd, o.asJSON, stdout, stderr, func(stdout, stderr io.Writer) int {
			if noArgs(cmd, args, stderr) {
				return exitError
			}
			o.flags = fs
			return runHooksRun(&sf, o, stdout, stderr)
		})
	})
}

// hooksRunOptions are the flags of `hooks run` beyond the session's.
type hooksRunOptions struct {
	event, inputPath, turnID string
	asJSON                   bool
	flags                    *pflag.FlagSet
}

func runHooksRun(sf *sessionFlags, o hooksRunOptions, stdout, stderr io.Writer) (code int) {
	events := profileEvents(sf.profile)
	if o.event == "" || !slices.Contains(events, o.event) {
		fmt.Fprintln(stderr, "hookside hooks run:", eventError(o.event, events))
		return exitError
	}
	if err := checkProfilePolicy(sf, sf.policy); err != nil {
		fmt.Fprintln(stderr, "hookside hooks run:", err)
		return exitError
	}
	if d, _ := hook.Profile(sf.profile); !d.HasEvent(o.event) {
		// The run goes on and runs nothing, as for an event without hooks
		// (exit 0): a host of that profile never sends the event.
		fmt.Fprintf(stderr, "hookside hooks run: the %s profile has no %s event (its events are %s): no hook runs for it\n",
			d.Name, o.event, strings.Join(d.Events, ", "))
	}
	in := hookInput{body: []byte("{}")}
	if o.inputPath != "" {
		var err error
		if in, err = readInput(o.inputPath); err != nil {
			fmt.Fprintln(stderr, "hookside hooks run:", err)
			return exitError
		}
	}
	input := in.body
	_ = exec.EnableSubreaper() // best effort: escaped processes are then killed too
	defer exec.ReapEscapees()
	s, diags, err := sf.open()
	if err != nil {
		fmt.Fprintln(stderr, "hookside hooks run:", err)
		return exitError
	}
	defer s.Close()
	printDiagnostics(stderr, append(sf.userDirDiagnostics(), diags...))
	ctx, stop, caught := signalContext()
	defer stop()
	// The async hooks started in the background run to their end before
	// the command exits (Close would stop them): a host would leave them
	// running after its reply. Their outcomes are shown; a signal that
	// stopped them sets the exit status (finishAsync).
	defer func() {
		if sc := finishAsync(ctx, s, caught, stderr); sc != 0 {
			code = sc
		}
	}()
	if sf.profile == runner.ProfileClaude {
		return runClaudeCLI(ctx, s, runner.RunRequest{Event: o.event, TurnID: o.turnID, Input: input}, in, o.asJSON, hintFlags(o.flags, hintTrust), caught, stdout, stderr)
	}
	outs := &runOutputs{byRun: map[string]runOutput{}}
	m, err := s.Run(ctx, runner.RunRequest{Event: o.event, TurnID: o.turnID, Input: input}, outs)
	if err != nil {
		return runFailure(stderr, in.locate(err), caught)
	}
	if o.asJSON {
		writeJSON(stdout, outs.withOutput(m))
	} else {
		printMerged(termSafe{stdout}, m, outs)
	}
	printSkippedForTrust(stderr, s, m.Runs, hintFlags(o.flags, hintTrust), "")
	if len(m.Runs) == 0 {
		if off := rootSwitchOff(s, o.event); off > 0 {
			printRootSwitchOff(stderr, off, sf, s)
		}
	}
	return hooksRunStatus(stderr, m.Blocked, m.Continue, m.StopReason)
}

// inputObject checks data, the input read from path ("-" = stdin), and
// returns the JSON object it holds: data without a leading UTF-8 byte
// order mark (jsonpos.SkipBOM, as for configuration files; Windows
// editors write one). msg, when not "", is why data is not a UTF-8 JSON
// object, at its "file:line:col" (internal/jsonpos; the mark takes no
// column, byte offsets count it): the bad byte, the syntax error, the
// kind of value it is ("got a JSON array", "got null"), or a member named
// twice in one object (hooks/run refuses those: two readers could act on
// different values), at the repeat: the name's second occurrence in that
// object.
func inputObject(path string, data []byte) (input []byte, msg string) {
	name := path
	if path == "-" {
		name = "<stdin>"
	}
	if msg, bad := notUTF8(name, data, "the input is "); bad {
		return nil, msg
	}
	input, base := jsonpos.SkipBOM(data)
	at := func(off int) string { return jsonpos.At(name, data, base+off) }
	var obj map[string]json.RawMessage
	err := jsonexact.Unmarshal(input, &obj)
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case err == nil && obj != nil:
		if path, off, dup := jsonscan.DuplicateAt(input); dup {
			return nil, fmt.Sprintf("%s: duplicate member %q: this name appears twice in one object (each member name may appear once, as in hooks/run)", at(off), path)
		}
		return input, ""
	case errors.As(err, &se):
		f := jsonpos.SyntaxFault(input, se)
		return nil, fmt.Sprintf("%s: invalid JSON: %s", at(f.Off), f.Text)
	case errors.As(err, &te):
		return nil, fmt.Sprintf("%s: the input must be a JSON object: got a JSON %s", at(jsonpos.TypeErrorOffset(input, te)), te.Value)
	case err == nil:
		off, _ := jsonpos.PathOffset(input, "")
		return nil, fmt.Sprintf("%s: the input must be a JSON object: got null", at(off))
	}
	return nil, fmt.Sprintf("%s: the input must be a JSON object: %v", name, err)
}

// runFailure reports on stderr why s.Run or s.RunClaude failed and returns
// the exit status of `hooks run`: when SIGINT or SIGTERM (caught) stopped
// the run, its running hooks killed with their process groups, stderr says
// "interrupted by SIGINT" (or SIGTERM) and the status is signalExit's (130,
// 143), as after the async wait (finishAsync); any other failure is
// exitError.
func runFailure(stderr io.Writer, err error, caught func() os.Signal) int {
	if sig := caught(); sig != nil && errors.Is(err, context.Canceled) {
		fmt.Fprintf(stderr, "hookside hooks run: interrupted by %s: the running hooks were stopped, nothing was decided\n", signalName(sig))
		return signalExit(sig)
	}
	fmt.Fprintln(stderr, "hookside hooks run:", runErrText(err))
	return exitError
}

// runErrText is a failed run's message: a run stopped by SIGINT/SIGTERM
// says so instead of Go's "context canceled".
func runErrText(err error) string {
	if errors.Is(err, context.Canceled) {
		return "interrupted by a signal: the running hooks were stopped, nothing was decided"
	}
	return err.Error()
}

// printSkippedForTrust tells, after the run, which workspace hooks were
// skipped because they wait for trust, with their digests and how to review
// them (lifecycle-hooks-and-workspace-trust §"信任存在哪、怎样审查": Workspace
// Hooks skipped, the pending digests, the review hint).
// hint holds the flags in use that the review needs (hintFlags); runCwd,
// when set, is the claude run's directory the review resolves at
// (Session.RunReviewCwd).
func printSkippedForTrust(w io.Writer, s *runner.Session, runs []output.Run, hint, runCwd string) {
	var lines []string
	for _, n := range s.SkippedWorkspaceHooks(runs) {
		if st := truststore.TrustState(n.TrustState); st == truststore.PendingTrust || st == truststore.StaleDigest {
			lines = append(lines, fmt.Sprintf("  %s  %s  %s", n.Digest, st, dispText(n.HookID)))
		}
	}
	if len(lines) == 0 {
		return
	}
	fmt.Fprintf(w, "Workspace Hooks skipped: %d waiting for trust\n%s\n", len(lines), strings.Join(lines, "\n"))
	if runCwd != "" {
		hint += reviewTarget(s) + " --run-cwd " + hintWord(runCwd)
	} else {
		hint += reviewTarget(s)
	}
	fmt.Fprintf(w, "Review them with: hookside hooks trust review%s\n", hint)
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

func hooksListCmd(stdout, stderr io.Writer) *cobra.Command {
	var sf sessionFlags
	var event string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list",
		Short: "list the configured hooks in run order",
		Long: "List the hooks configured for a session in DIR, in run order, with their resolved timeouts.\n" +
			"Configured hooks that cannot run (a handler type the profile cannot run, a malformed or a\n" +
			"disabled one) are counted and named with why: after the list, or, when none would load, instead\n" +
			"of \"no hooks configured\". A corrupt trust file is reported (store_corrupt, a warning on stderr)\n" +
			"and left where it is.\n" +
			"Exit status: 0 listed (also when none is configured or files have diagnostics), 1 a session that\n" +
			"cannot be opened (a --cwd that is not a directory), 2 a usage error (a flag or argument error, an\n" +
			"unknown --event, --profile or --policy).",
		Annotations: map[string]string{annJSONErrors: jsonErrorsMessage},
	}
	fs := cmd.Flags()
	fs.StringVar(&event, "event", "", "only this `EVENT`: "+strings.Join(hook.Events, ", ")+" (--profile claude: every Claude Code event)")
	fs.BoolVar(&asJSON, "json", false, "print JSON ({hooks, diagnostics, rootSwitch, cannotRun}); a failure (a flag error) prints {\"error\": {\"message\"}}")
	sf.registerAll(fs)
	completeEvents(cmd)
	return setRun(cmd, func(args []string) int {
		return messageJSONErrors(cmd, asJSON, stdout, stderr, func(stdout, stderr io.Writer) int {
			if noArgs(cmd, args, stderr) {
				return exitUsage
			}
			return runHooksList(&sf, event, asJSON, stdout, stderr)
		})
	})
}

func runHooksList(sf *sessionFlags, event string, asJSON bool, stdout, stderr io.Writer) int {
	if events := profileEvents(sf.profile); event != "" && !slices.Contains(events, event) {
		fmt.Fprintln(stderr, "hookside hooks list:", eventError(event, events))
		return exitUsage
	}
	if err := checkProfilePolicy(sf, sf.policy); err != nil {
		fmt.Fprintln(stderr, "hookside hooks list:", err)
		return exitUsage
	}
	s, _, err := sf.openToRead("hookside hooks list", stderr)
	if err != nil {
		fmt.Fprintln(stderr, "hookside hooks list:", err)
		return exitError
	}
	defer s.Close()
	hooks, diags := s.Hooks()
	_, envDiags := runner.EnvSwitch()
	diags = slices.Concat(envDiags, sf.userDirDiagnostics(), diags)
	trust := map[string]truststore.Evaluation{}
	if w := s.WorkspaceStatus(); w.Workspace != nil {
		for i, d := range w.Declarations {
			if i < len(w.Evaluations) {
				trust[d.Hook.ID] = w.Evaluations[i]
			}
		}
	}
	switchedOff := s.SwitchedOff(hooks)
	var sel []listedHook
	for _, h := range hooks {
		if event == "" || h.Event == event {
			lh := listedHook{Hook: h}
			if ev, ok := trust[h.ID]; ok && h.Source.Kind == hook.SourceWorkspace {
				lh.TrustState, lh.TrustReason = string(ev.State), ev.Reason
			}
			if off, ok := switchedOff[h.ID]; ok {
				lh.OffReason, lh.OffDetail, lh.off = runner.WhyHooksDisabled, off.Detail, off
			}
			sel = append(sel, lh)
		}
	}
	// One explanation of the files as listed: what cannot run, and what
	// the root switch keeps off.
	xs := s.ExplainEach(explainedEvents(event), "")
	dropped := cannotRun(xs, event)
	if asJSON {
		if sel == nil {
			sel = []listedHook{}
		}
		if diags == nil {
			diags = []hook.Diagnostic{}
		}
		writeJSON(stdout, map[string]any{"hooks": sel, "diagnostics": diags, "rootSwitch": rootSwitchOf(s, sf), "cannotRun": cannotRunJSON(dropped)})
		return exitOK
	}
	printDiagnostics(stderr, diags)
	off := rootSwitchOffIn(xs)
	if len(sel) == 0 && off == 0 && len(dropped) == 0 {
		if n := unreadableFiles(diags); n > 0 {
			// Not "nothing configured": what a broken file declares is unknown.
			fmt.Fprintf(stdout, "no hooks loaded: %d configuration file(s) could not be read (see the errors above); their hooks do not run\n", n)
			return exitOK
		}
		if n := unloadedDeclarations(diags, event); n > 0 {
			// Not "nothing configured" either: hooks are declared in a
			// shape that does not load ("PreToolUse": {…}, not an array).
			fmt.Fprintf(stdout, "no hooks loaded: hooks are declared but could not be loaded: %d error(s) (see the errors above); they do not run\n", n)
			return exitOK
		}
		fmt.Fprintln(stdout, "no hooks configured")
		return exitOK
	}
	switch {
	case len(sel) == 0 && len(dropped) > 0:
		printCannotRun(stdout, dropped, false, eventFlagOf(event), hintFlags(sf.flags, hintSession), profileEvents(sf.profile))
	case len(sel) == 0:
		fmt.Fprintln(stdout, "no hooks run")
	}
	defer func() {
		if len(sel) > 0 && len(dropped) > 0 {
			printCannotRun(stdout, dropped, true, eventFlagOf(event), hintFlags(sf.flags, hintSession), profileEvents(sf.profile))
		}
		if off > 0 {
			printRootSwitchOff(stdout, off, sf, s)
		}
	}()
	for _, h := range sel {
		m := "*"
		if h.Matcher != nil {
			m = dispText(*h.Matcher)
		}
		cmd := dispCommand(h.Command, h.Args)
		trust := ""
		if h.TrustState != "" {
			trust = "  trust=" + h.TrustState
			if h.TrustReason != "" && h.TrustReason != h.TrustState {
				trust += " (" + h.TrustReason + ")"
			}
		}
		off := ""
		if h.OffReason != "" {
			off = "  off=" + h.OffReason + " (" + h.off.Setting + ": true in " + dispText(h.off.File) + ")"
		}
		fmt.Fprintf(stdout, "%-18s %-9s %-8s matcher=%-16s timeout=%dms  %s%s%s\n", h.Event, h.Source.Kind, h.Type, m, h.TimeoutMs, cmd, trust, off)
	}
	return exitOK
}

// listedHook is one hook of `hooks list --json`: the hook and, for a
// workspace hook, its trust state and reason (lifecycle-hooks-and-workspace-trust
// §"信任状态"); user and plugin hooks are not behind the trust gate and
// have neither. OffReason (runner.WhyHooksDisabled, as `hooks explain`
// gives it) and OffDetail (explain's detail: the switch and its file) are
// set when a settings switch keeps the loaded hook from running (claude
// profile: disableAllHooks, allowManagedHooksOnly; runner.SwitchedOff).
type listedHook struct {
	hook.Hook
	TrustState  string `json:"trustState,omitempty"`
	TrustReason string `json:"trustReason,omitempty"`
	OffReason   string `json:"offReason,omitempty"`
	OffDetail   string `json:"offDetail,omitempty"`
	off         runner.SwitchOff
}

// hintWord is p for a command line to paste: shell-quoted, or, when it
// holds a non-printable character, escaped and double-quoted for the
// terminal (dispText).
func hintWord(p string) string {
	if !printable(p) {
		return dispText(p)
	}
	return runner.ShellWord(p)
}
