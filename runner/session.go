// Package runner runs one lifecycle event for a session: it selects the
// hooks configured for the event, asks admission for each, spawns them (the
// only package that starts hook processes), and merges their answers with
// package output (ARCHITECTURE.md "The shell-hook path").
package runner

import (
	"context"
	"errors"
	"os"
	"sync"
	"time"

	"github.com/hookside/hookside/matcher"
	"github.com/hookside/hookside/runner/config"
)

// DefaultStopLimit is MAX_STOP_HOOK_CONTINUATIONS: at most 3 Stop
// continuations per turn (lifecycle-hooks-and-workspace-trust §"Stop 与续跑上限").
const DefaultStopLimit = 3

// ConfigCheckInterval bounds how often a session stats its config files to
// notice changes on disk: a run within this interval of the last check uses
// the cached configuration, so the no-matching-hook path never touches disk
// on a busy session. Edits are seen within this interval.
const ConfigCheckInterval = 200 * time.Millisecond

// KillGrace is the time between SIGTERM and SIGKILL to a hook's process
// group once its deadline passed or its request was cancelled.
const KillGrace = 500 * time.Millisecond

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
	PluginDirs     []string
	// StopLimit is the number of Stop continuations allowed per turn (0 = 3).
	StopLimit int
	// Internal hooks run last (source kind internal).
	Internal []config.Hook
}

// Session is one open host session: its configuration sources, its
// environment and the Stop continuation counters of its turns. It is safe
// for concurrent use; hooks of one hooks/run run sequentially, different
// hooks/run requests of a session may overlap.
type Session struct {
	opts    SessionOptions
	loader  *config.Loader
	baseEnv []string
	vars    map[string]string

	mu          sync.Mutex
	set         *config.Set
	plans       map[string]*eventPlan
	lastCheck   time.Time
	stopGranted map[string]int // turnId -> continuations granted

	async      sync.WaitGroup
	asyncCtx   context.Context
	asyncStop  context.CancelFunc
	closedOnce sync.Once
}

// eventPlan is the per-event hook list with compiled matchers, rebuilt only
// when the configuration set changes.
type eventPlan struct {
	hooks    []config.Hook
	matchers []*matcher.Matcher
}

// ErrUnknownEvent is returned by Run for an event outside the seven.
var ErrUnknownEvent = errors.New("unknown event")

// NewSession loads the session's configuration. Problems in configuration
// files are returned as diagnostics, never as an error.
func NewSession(opts SessionOptions) (*Session, []config.Diagnostic) {
	if opts.StopLimit <= 0 {
		opts.StopLimit = DefaultStopLimit
	}
	if opts.WorkspaceID == "" {
		opts.WorkspaceID = opts.Cwd
	}
	s := &Session{
		opts: opts,
		loader: config.NewLoader(config.LoaderOptions{
			UserConfigPath: opts.UserConfigPath,
			PluginDirs:     opts.PluginDirs,
			Internal:       opts.Internal,
		}),
		stopGranted: map[string]int{},
	}
	s.asyncCtx, s.asyncStop = context.WithCancel(context.Background())
	s.vars = map[string]string{
		"ZCODE_PROJECT_DIR":      opts.Cwd,
		"ZCODE_SESSION_ID":       opts.ID,
		"CLAUDE_PROJECT_DIR":     opts.Cwd,
		"CLAUDE_SESSION_ID":      opts.ID,
		"CLAUDE_CODE_SESSION_ID": opts.ID,
	}
	env := os.Environ()
	for k, v := range opts.Env {
		env = append(env, k+"="+v)
	}
	for k, v := range s.vars {
		env = append(env, k+"="+v)
	}
	s.baseEnv = env
	set, err := s.loader.Load()
	if err != nil {
		return s, []config.Diagnostic{{Code: "config_load_failed", Severity: config.SeverityError, Message: err.Error()}}
	}
	s.install(set, time.Now())
	return s, set.Diagnostics
}

// Options returns the options the session was opened with.
func (s *Session) Options() SessionOptions { return s.opts }

// install makes set current and rebuilds the event plans. Caller holds mu
// or is the constructor.
func (s *Session) install(set *config.Set, now time.Time) {
	s.lastCheck = now
	if set == s.set {
		return
	}
	s.set = set
	s.plans = make(map[string]*eventPlan, len(config.Events))
	for _, ev := range config.Events {
		hooks := set.ForEvent(ev)
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
// once per ConfigCheckInterval.
func (s *Session) current() (*config.Set, map[string]*eventPlan) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Now()
	if now.Sub(s.lastCheck) >= ConfigCheckInterval {
		if set, err := s.loader.Load(); err == nil {
			s.install(set, now)
		} else {
			s.lastCheck = now
		}
	}
	return s.set, s.plans
}

// Hooks returns the session's hooks in run order and the current
// configuration diagnostics, re-reading changed files first.
func (s *Session) Hooks() ([]config.Hook, []config.Diagnostic) {
	s.mu.Lock()
	s.lastCheck = time.Time{}
	s.mu.Unlock()
	set, _ := s.current()
	return set.Hooks, set.Diagnostics
}

// Close stops the session's background (async) hooks: their process groups
// get SIGTERM, then SIGKILL after KillGrace. It waits for them to end.
func (s *Session) Close() {
	s.closedOnce.Do(func() {
		s.asyncStop()
		s.async.Wait()
	})
}
