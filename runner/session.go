// Package runner runs one lifecycle event for a session: it selects the
// hooks configured for the event, asks admission for each, spawns them (the
// only package that starts hook processes), and merges their answers with
// package output (ARCHITECTURE.md "The shell-hook path").
package runner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/hookside/hookside/internal/fsid"
	"github.com/hookside/hookside/internal/home"
	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/matcher"
	"github.com/hookside/hookside/output"
	"github.com/hookside/hookside/runner/config"
	"github.com/hookside/hookside/runner/exec"
	"github.com/hookside/hookside/truststore"
)

// ConfigCheckInterval bounds how often a session stats its config files to
// notice changes on disk: a run within this interval of the last check uses
// the cached configuration, so the no-matching-hook path never touches disk
// on a busy session. Edits are seen within this interval.
const ConfigCheckInterval = 200 * time.Millisecond

// MaxAsyncPerSession bounds the background (async: true) hooks of one
// session running at once; more are reported skipped (reason async_limit).
const MaxAsyncPerSession = 32

// SessionOptions configure a session (PROTOCOL.md §2 session/open).
type SessionOptions struct {
	ID          string
	Cwd         string // absolute; hooks' working directory
	WorkspaceID string // trust identity; default the canonical cwd
	AgentName   string
	Mode        string
	Env         map[string]string // extra environment for every hook
	// UserConfigPath is <home>/config.json unless the host overrides it.
	UserConfigPath string
	// UserConfigNamed: UserConfigPath was named by the host or the command
	// line, so a missing file is a config_file_not_found warning (Open
	// sets it when the path is not the home's default).
	UserConfigNamed bool
	PluginDirs      []string
	// StopLimit is the number of Stop continuations allowed per turn (0 = 3).
	StopLimit int
	// Internal hooks run last (source kind internal); those of TypeInternal
	// call InternalHandlers[hook.Command] in-process (see InternalHook).
	Internal         []hook.Hook
	InternalHandlers map[string]InternalHandler
	// AsyncQueue, when set, takes async (async: true) hooks: they become
	// runs of the durable V2 run queue instead of background processes of
	// this session (the same queue as V2 runs). When it fails (no
	// database), the hook starts in the background of this session.
	AsyncQueue func(ctx context.Context, job exec.AsyncJob) (runID string, err error)
	// Workspace configures workspace (project) hooks and their trust gate.
	Workspace WorkspaceOptions
	// Profile is the configuration dialect: ProfileZcode ("" = zcode) or
	// ProfileSpark (hooks-v2-handbook §1.3; spec/README.md). In the spark
	// dialect the sources are <SparkUserDir>/settings.json (user),
	// <Cwd>/.spark/settings.json (project) and <Cwd>/.spark/settings.local.json
	// (local; project and local are workspace hooks behind the trust gate),
	// then PluginDirs; only UserPromptSubmit, PreToolUse, PostToolUse and
	// Stop have hooks; the first blocking hook ends the event.
	Profile string
	// SparkUserDir is the spark user settings directory (default ~/.spark).
	SparkUserDir string
	// Spawner starts the session's hook processes (nil = exec.Processes,
	// real processes). Tests pass a fake.
	Spawner exec.Spawner
	// UserDir is the profile's user directory, overriding SparkUserDir:
	// for the claude profile Claude Code's home (default ~/.claude), which
	// holds settings.json and plugins/data/.
	UserDir string
	// ManagedSettingsPath overrides the dialect's managed settings file
	// (claude: the per-OS managed-settings.json).
	ManagedSettingsPath string
	// TranscriptPath is the host's own transcript (JSONL) of the session;
	// the hooks of every profile get it unchanged as transcript_path (a
	// per-run input transcript_path wins; transcriptFor). Empty: the
	// synthetic per-hook file.
	TranscriptPath string
	// OnClaudeWake, when set, is called (from a background goroutine) with
	// the result of an asyncRewake hook that exited 2: the host should wake
	// the model with WakeText. It must not block.
	OnClaudeWake func(output.ClaudeAsyncResult)
	// DelegatedTypes are the handler types the host runs for this session
	// (claude: prompt, agent, mcp_tool; see hook.Dialect.HostTypes), and
	// Delegate the call that runs one (runner/claude_delegate.go). Without
	// Delegate the types stay skipped (CodeClaudeDelegatedType).
	DelegatedTypes []hook.HookType
	Delegate       DelegateFunc
	// OnDiagnostic, when set, is called with each diagnostic that a
	// reload of the session's configuration files finds and the previous
	// reading did not have (PROTOCOL.md §7 `diagnostic`): a file broken,
	// or broken differently, after NewSession reported its diagnostics.
	// While a file stays broken its diagnostic is not repeated; once
	// fixed, the same problem is reported again when it comes back. It is
	// called from the goroutine that noticed the change (a run, a hooks
	// list, the admission watch), before that call returns, and must not
	// block.
	OnDiagnostic func(hook.Diagnostic)
}

// WorkspaceOptions configure workspace hooks (lifecycle-hooks-and-workspace-trust
// §"工作区钩子为什么要信任"; PROTOCOL.md §2 session/open).
type WorkspaceOptions struct {
	// Feature is the host's switch (session/open.workspaceHooks). Off:
	// workspace hooks are skipped with workspace_hooks_feature_disabled and
	// the trust file is not read.
	Feature bool
	// Policy comes from the host or CLI flags only, never from a project file.
	Policy truststore.Policy
	// Home is the hookside home; the trust file lives in
	// home.SecurityDir(Home, user config storage.dir).
	Home string
	// ProjectConfigPath is an extra project config file, added to discovery.
	ProjectConfigPath string
	// HooksEnabled is the root switch's command-line (or host) layer:
	// true turns the root switch on, false leaves it to the other layers.
	// The root switch is the OR over the default, user, project,
	// environment (EnvHooksEnabled) and command-line layers
	// (lifecycle-hooks-and-workspace-trust §"按什么摘要信任":
	// workspace-hook-config.ts:130). On, it also brings back user hooks that
	// were off only because the user config omits hooks.enabled; a file
	// that says hooks.enabled: false stays off.
	HooksEnabled bool
	// Store tunes the trust store (lock timeout, clock).
	Store truststore.Options
	// OnAdmissionUpdated is called with the trust-state counts whenever
	// they change (workspaceHooks/admissionUpdated). It must not block.
	OnAdmissionUpdated func(counts map[string]int)
}

// Session is one open host session: its configuration sources, its
// environment and the Stop continuation counters of its turns. It is safe
// for concurrent use; hooks of one hooks/run run sequentially (except the
// hooks of a "parallel" matcher group), different hooks/run requests of a
// session may overlap.
type Session struct {
	opts    SessionOptions
	loader  *config.Loader
	baseEnv []string
	// hostEnvLen is how many entries of baseEnv are hookside's own
	// environment; the rest are the session's additions (exec.AsyncJob.Env).
	hostEnvLen int
	vars       map[string]string

	gate    *truststore.Gate
	dialect *hook.Dialect // the session's profile

	mu          sync.Mutex
	userSet     *config.Set                       // as loaded
	found       *config.Workspace                 // the workspace scope as loaded
	ws          *truststore.Workspace             // found, digested
	set         *config.Set                       // userSet with the workspace hooks
	decls       map[string]truststore.Declaration // workspace hook id -> declaration
	plans       map[string]*eventPlan
	lastCheck   time.Time
	stopGranted map[string]int // turnId -> continuations granted
	// physRoot is runDir's workspace root and its PhysicalDir, resolved
	// once per root instead of on every claude run.
	physRoot [2]string
	// sessionStarted: SessionStart already ran in this session
	// (lifecycle-hooks-and-workspace-trust §"七个事件": 只跑一次靠 hooks.ts:27 的标记).
	sessionStarted bool
	lastCounts     map[string]int
	// security version and workspace of the last recount
	countedVersion uint64
	countedWS      *truststore.Workspace

	// diagMu orders OnDiagnostic reports; reported are the diagnostics of
	// the reading of Set.Version diagVersion, the last one reported.
	diagMu      sync.Mutex
	diagVersion uint64
	reported    map[hook.Diagnostic]bool

	// claudePlugins are a claude session's plugins by root
	// (resolveClaudePlugins).
	claudePlugins map[string]*claudePlugin
	// claude is the claude profile's state (claudeSt).
	claudeOnce sync.Once
	claude     *claudeState
	switches   switchCache // the claude profile's settings switches
	// openMemo is the files read while the session opened (inert after
	// NewSession: fsid.Memo.Done).
	openMemo *fsid.Memo
	shOnce   sync.Once
	sh       string          // the shell of command hooks, found in PATH (shellPath)
	watch    *admissionWatch // nil without OnAdmissionUpdated or fsnotify

	tmpMu  sync.Mutex
	tmpDir string   // private transcript directory, made on first use
	empty  string   // the session's empty transcript file (emptyTranscript); "" until made
	emptyF *os.File // empty, open for emptyIntact (nil where it is not kept open)

	async      sync.WaitGroup
	asyncSlots chan struct{} // running background hooks, at most MaxAsyncPerSession
	asyncLog   asyncLog      // the background hooks started, for AsyncHooks
	asyncCtx   context.Context
	asyncStop  context.CancelFunc
	closedOnce sync.Once
	// runMu guards the foreground runs Close ends: closing is set by
	// Close, inflight holds each running Run's cancel (track).
	runMu    sync.Mutex
	closing  bool
	inflight map[uint64]context.CancelCauseFunc
	nextRun  uint64
	runs     sync.WaitGroup
}

// eventPlan is the per-event hook list with compiled matchers, rebuilt only
// when the configuration set changes.
type eventPlan struct {
	hooks    []hook.Hook
	matchers []*matcher.Matcher
}

// ErrUnknownEvent is returned by Run for an event outside the seven.
var ErrUnknownEvent = errors.New("unknown event")

// ErrTurnRequired is returned by Run for a Stop without a turn id: the
// continuation count restarts every turn (lifecycle-hooks-and-workspace-trust
// §"Stop 与续跑上限": 计数每个回合从 0 开始), so a Stop must name its turn.
var ErrTurnRequired = errors.New("turnId is required on Stop: continuations are counted per turn")

// EnvHooksEnabled is the environment layer of the root switch: a true
// value (1, t, true, TRUE, …: strconv.ParseBool) turns it on, a false one
// leaves it to the other layers, anything else is a config_invalid_field
// warning and ignored.
const EnvHooksEnabled = "HOOKSIDE_HOOKS_ENABLED"

// EnvSwitch reads the environment layer of the root switch
// (EnvHooksEnabled): on is true for a true value; unset or empty is off
// with no diagnostic; a value strconv.ParseBool rejects is off with one
// hook.CodeInvalidField warning (no Source), the one NewSession reports.
func EnvSwitch() (on bool, diags []hook.Diagnostic) {
	v, ok := os.LookupEnv(EnvHooksEnabled)
	if !ok || v == "" {
		return false, nil
	}
	on, err := strconv.ParseBool(v)
	if err != nil {
		return false, []hook.Diagnostic{{Code: hook.CodeInvalidField, Severity: hook.SeverityWarning,
			Message: fmt.Sprintf("%s=%q is not a boolean; ignored", EnvHooksEnabled, v)}}
	}
	return on, nil
}

// SkipSessionStartRan is Merged.Skipped for a SessionStart after the first
// in the same session: SessionStart runs once per session
// (lifecycle-hooks-and-workspace-trust §"七个事件").
const SkipSessionStartRan = "session_start_already_ran"

// NewSession loads the session's configuration. Problems in configuration
// files are returned as diagnostics, never as an error.
func NewSession(opts SessionOptions) (*Session, []hook.Diagnostic) {
	if opts.StopLimit <= 0 {
		opts.StopLimit = output.MaxStopContinuations
	}
	if opts.Spawner == nil {
		opts.Spawner = exec.Processes
	}
	if opts.WorkspaceID == "" {
		opts.WorkspaceID = opts.Cwd
	}
	var early []hook.Diagnostic
	dialect, ok := hook.Profile(opts.Profile)
	if !ok {
		early = append(early, hook.Diagnostic{Code: "profile_unknown", Severity: hook.SeverityError,
			Message: fmt.Sprintf("unknown profile %q; using zcode", opts.Profile)})
		dialect = hook.Zcode
	}
	opts.Profile = dialect.Name
	if opts.Delegate != nil {
		dialect = dialect.WithHostTypes(opts.DelegatedTypes)
	}
	envOn, envDiags := EnvSwitch()
	early = append(early, envDiags...)
	opts.Workspace.HooksEnabled = opts.Workspace.HooksEnabled || envOn
	lopts := config.LoaderOptions{
		UserConfigPath:    opts.UserConfigPath,
		UserConfigNamed:   opts.UserConfigNamed,
		PluginDirs:        opts.PluginDirs,
		Internal:          opts.Internal,
		Dialect:           dialect,
		Cwd:               opts.Cwd,
		ProjectConfigPath: opts.Workspace.ProjectConfigPath,
		RootOn:            opts.Workspace.HooksEnabled,
	}
	if dialect.UserSettingsFile != "" {
		if opts.UserDir == "" {
			opts.UserDir = opts.SparkUserDir
		}
		if opts.UserDir == "" {
			opts.UserDir = DefaultUserDir(dialect)
		}
		if opts.SparkUserDir == "" {
			opts.SparkUserDir = opts.UserDir
		}
		if opts.UserDir != "" { // "" (no home directory): no user scope
			lopts.UserSettingsPath = filepath.Join(opts.UserDir, dialect.UserSettingsFile)
		}
		lopts.ManagedSettingsPath = opts.ManagedSettingsPath
		if lopts.ManagedSettingsPath == "" {
			lopts.ManagedSettingsPath = dialect.ManagedSettingsPath
		}
	}
	var plugins map[string]*claudePlugin
	// memo holds the settings files read while the session opens: the
	// plugin resolution, the loader and the switches each need the user
	// and workspace settings, and each file state is read once (fsid.Memo;
	// a file edited in between is read again). Dropped once open.
	memo := fsid.NewMemo()
	defer memo.Done()
	if dialect.Name == ProfileClaude {
		var pdiags []hook.Diagnostic
		lopts.Memo = memo
		lopts.PluginDirs, lopts.WorkspacePluginDirs, plugins, pdiags = resolveClaudePlugins(opts, dialect, memo)
		lopts.WorkspaceRoot, lopts.WorkspacePluginOrder = opts.Cwd, len(dialect.WorkspaceFiles)
		early = append(early, pdiags...)
	}
	s := &Session{
		opts:          opts,
		claudePlugins: plugins,
		openMemo:      memo,
		dialect:       dialect,
		loader:        config.NewLoader(lopts),
		stopGranted:   map[string]int{},
		asyncSlots:    make(chan struct{}, MaxAsyncPerSession),
	}
	s.asyncCtx, s.asyncStop = context.WithCancel(context.Background())
	s.vars = make(map[string]string, len(hook.ProjectDirVars)+len(hook.SessionIDVars))
	for _, k := range hook.ProjectDirVars {
		s.vars[k] = opts.Cwd
	}
	for _, k := range hook.SessionIDVars {
		s.vars[k] = opts.ID
	}
	env := os.Environ()
	s.hostEnvLen = len(env)
	for k, v := range opts.Env {
		env = append(env, k+"="+v)
	}
	for k, v := range s.vars {
		env = append(env, k+"="+v)
	}
	s.baseEnv = env
	set, err := s.loader.Load()
	if err != nil {
		return s, []hook.Diagnostic{{Code: "config_load_failed", Severity: hook.SeverityError, Message: err.Error()}}
	}
	s.install(set, time.Now())
	s.gate = truststore.NewGate(truststore.GateOptions{
		WorkspaceID: opts.WorkspaceID, Root: s.ws.Root, Site: s.pinSite(), Policy: opts.Workspace.Policy,
		Feature: opts.Workspace.Feature, Dir: home.SecurityDir(opts.Workspace.Home, set.StorageDir), Store: opts.Workspace.Store,
	})
	diags := append(early, s.fileDiagnostics(s.set, s.found, s.ws)...)
	s.diagVersion, s.reported = set.Version, make(map[hook.Diagnostic]bool, len(diags))
	for _, d := range diags {
		s.reported[d] = true
	}
	s.logLoaded(set)
	if st := s.WorkspaceStatus(); st.Feature {
		// The same numbers as counts: enabled declarations waiting for trust.
		pending, stale := st.Counts[string(truststore.PendingTrust)], st.Counts[string(truststore.StaleDigest)]
		if pending+stale > 0 {
			diags = append(diags, hook.Diagnostic{Code: truststore.CodePendingTrust, Severity: hook.SeverityWarning,
				Message: fmt.Sprintf("%d workspace hook declaration(s) in %s wait for trust and will not run (pending_trust %d, stale_digest %d); review them (%s, or workspaceHooks/review/start)", pending+stale, s.ws.Root, pending, stale, s.ReviewCommand())})
		}
	}
	s.startWatch()
	return s, diags
}

// WorkspaceState is the session's workspace hooks with their trust states.
type WorkspaceState struct {
	Workspace    *truststore.Workspace
	Declarations []truststore.Declaration
	Evaluations  []truststore.Evaluation
	Counts       map[string]int
	StoreStatus  truststore.Status
	Policy       truststore.Policy
	Feature      bool
	// RunDir is the run directory the state is at (WorkspaceStatusAt);
	// "" for the session directory.
	RunDir string
}

// WorkspaceStatus re-discovers changed workspace files and evaluates every
// declaration (PROTOCOL.md §4 workspaceHooks/status).
func (s *Session) WorkspaceStatus() WorkspaceState {
	st := s.workspaceState()
	s.noteCounts(st.Counts, false)
	return st
}

// workspaceState is WorkspaceStatus without reporting the counts.
func (s *Session) workspaceState() WorkspaceState {
	s.reload()
	s.mu.Lock()
	ws := s.ws
	s.mu.Unlock()
	evs := s.gate.Evaluate(ws.Declarations)
	counts := enabledCounts(ws, evs)
	return WorkspaceState{
		Workspace: ws, Declarations: ws.Declarations, Evaluations: evs, Counts: counts,
		StoreStatus: s.gate.StoreStatus(), Policy: s.gate.Policy(), Feature: s.opts.Workspace.Feature,
	}
}

// enabledCounts tallies the trust states of the declarations that can run:
// those passing the three enabled switches (lifecycle-hooks-and-workspace-trust
// §"按什么摘要信任": 来源文件、声明与根开关). A disabled declaration or a
// switched-off file or root is in no count.
func enabledCounts(ws *truststore.Workspace, evs []truststore.Evaluation) map[string]int {
	on := make([]truststore.Evaluation, 0, len(evs))
	for i, e := range evs {
		if ws.Enabled[i] {
			on = append(on, e)
		}
	}
	return truststore.Counts(on)
}

// Gate returns the session's admission gate.
func (s *Session) Gate() *truststore.Gate { return s.gate }

// SetPolicy changes the session's workspace hook policy at run time
// (lifecycle-hooks-and-workspace-trust §"按什么摘要信任": 收紧策略会让安全版本号变化，
// 下一次评估立即生效): the security version moves, the next admission uses
// the new policy, and OnAdmissionUpdated is called with the new counts even
// when they did not change. It returns the new workspace state.
func (s *Session) SetPolicy(p truststore.Policy) WorkspaceState {
	s.gate.SetPolicy(p)
	st := s.workspaceState()
	s.noteCounts(st.Counts, true)
	return st
}

// noteCounts reports counts to OnAdmissionUpdated when they changed (or
// when force is set).
func (s *Session) noteCounts(counts map[string]int, force bool) {
	s.mu.Lock()
	same := len(counts) == len(s.lastCounts)
	if same {
		for k, v := range counts {
			if s.lastCounts[k] != v {
				same = false
				break
			}
		}
	}
	first := s.lastCounts == nil
	if !same || first {
		s.lastCounts = counts
	}
	s.mu.Unlock()
	if (force || !same && !first) && s.opts.Workspace.OnAdmissionUpdated != nil {
		s.opts.Workspace.OnAdmissionUpdated(counts)
	}
}

// Options returns the options the session was opened with.
func (s *Session) Options() SessionOptions { return s.opts }

// install makes set current (digesting its workspace scope when it was
// discovered again) and rebuilds the event plans. Caller holds mu or is
// the constructor.
func (s *Session) install(set *config.Set, now time.Time) {
	s.lastCheck = now
	if set == s.userSet {
		return
	}
	prevPlugins := 0
	if s.userSet != nil {
		prevPlugins = len(s.userSet.WorkspacePlugins)
	}
	if found := set.Workspace; found != s.found || s.ws == nil || len(set.WorkspacePlugins) > 0 || prevPlugins > 0 {
		if found == nil { // no cwd: an empty workspace scope
			found = &config.Workspace{Root: s.opts.Cwd, Cwd: s.opts.Cwd}
		}
		s.found = found
		s.ws = trustWorkspace(found, set.WorkspacePlugins, s.pinSite())
		s.decls = make(map[string]truststore.Declaration, len(s.ws.Declarations))
		for _, d := range s.ws.Declarations {
			s.decls[d.Hook.ID] = d
		}
	}
	s.userSet = set
	if s.opts.Workspace.HooksEnabled {
		set = set.WithRootEnabled()
	}
	set = set.WithWorkspace(s.ws.Executable())
	s.set = set
	s.plans = make(map[string]*eventPlan, len(hook.Events))
	for _, ev := range planEvents(s.dialect) {
		hooks := set.ForEvent(ev)
		if !s.dialect.HasEvent(ev) {
			hooks = nil // e.g. spark has four events; plugins' others do not run
		}
		p := &eventPlan{hooks: hooks, matchers: make([]*matcher.Matcher, len(hooks))}
		for i := range hooks {
			// Invalid patterns were reported as diagnostics at load time;
			// Compile then returns a matcher that matches nothing.
			p.matchers[i], _ = matcher.Compile(hooks[i].Matcher)
		}
		s.plans[ev] = p
	}
}

// current returns the configuration, re-checking the files on disk at most
// once per ConfigCheckInterval. When the files changed, the new
// diagnostics are reported (reportReload) before it returns.
func (s *Session) current() (*config.Set, map[string]*eventPlan) {
	s.mu.Lock()
	now := time.Now()
	reloaded := false
	if now.Sub(s.lastCheck) >= ConfigCheckInterval {
		if set, err := s.loader.Load(); err == nil {
			reloaded = set != s.userSet
			s.install(set, now)
		} else {
			s.lastCheck = now
		}
	}
	set, plans := s.set, s.plans
	s.mu.Unlock()
	if reloaded {
		s.reportReload()
	}
	return set, plans
}

// reload re-reads the changed configuration files now, whatever
// ConfigCheckInterval says; a reading with new problems is reported
// (reportReload).
func (s *Session) reload() {
	s.mu.Lock()
	s.lastCheck = time.Time{}
	s.mu.Unlock()
	s.current()
}

// Hooks returns the session's hooks in run order and the current
// configuration diagnostics (on the claude profile those of the settings
// switches first, as session/open reports them), re-reading changed files
// first.
func (s *Session) Hooks() ([]hook.Hook, []hook.Diagnostic) {
	s.reload()
	s.mu.Lock()
	set := s.set
	ws, found := s.ws, s.found
	s.mu.Unlock()
	return set.Hooks, s.fileDiagnostics(set, found, ws)
}

// WaitAsync waits until the session's background (async) hooks have
// ended (each is bounded by its own timeout and kill grace), or ctx is
// done; it reports whether they all ended. It stops nothing: Close does.
func (s *Session) WaitAsync(ctx context.Context) bool {
	done := make(chan struct{})
	go func() {
		s.async.Wait()
		close(done)
	}()
	select {
	case <-done:
		return true
	case <-ctx.Done():
		return false
	}
}

// UserLimits returns the user config's limits, the fallback workspace
// declarations resolve against.
func (s *Session) UserLimits() hook.Limits {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.userSet.UserLimits
}
