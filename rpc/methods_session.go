package rpc

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/hookside/hookside/internal/home"
	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/internal/steps"
	"github.com/hookside/hookside/output"
	"github.com/hookside/hookside/runner"
	"github.com/hookside/hookside/runner/config"
	"github.com/hookside/hookside/truststore"
)

// session is one open session of this connection.
type session struct {
	id             string
	rs             *runner.Session
	workspaceHooks bool
	profile        string
}

func (ss *session) close() { ss.rs.Close() }

type sessionOpenParams struct {
	SessionID         string            `json:"sessionId"`
	Cwd               string            `json:"cwd"`
	WorkspaceID       string            `json:"workspaceId"`
	AgentName         string            `json:"agentName"`
	Mode              string            `json:"mode"`
	WorkspaceHooks    bool              `json:"workspaceHooks"`
	HooksEnabled      bool              `json:"hooksEnabled"`
	ProjectConfigPath string            `json:"projectConfigPath"`
	PluginDirs        []string          `json:"pluginDirs"`
	Profile           string            `json:"profile"`
	SparkUserDir      string            `json:"sparkUserDir"`
	ClaudeHomeDir     string            `json:"claudeHomeDir"`
	TranscriptPath    string            `json:"transcriptPath"`
	Env               map[string]string `json:"env"`
}

// hookInfo is HookInfo of PROTOCOL.md §2.
type hookInfo struct {
	ID     string     `json:"id"`
	Source hookSource `json:"source"`
	hook.Declared
	StatusMessage string `json:"statusMessage,omitempty"`
	TrustState    string `json:"trustState,omitempty"`
	Digest        string `json:"digest,omitempty"`
}

type hookSource struct {
	Kind string `json:"kind"`
	Path string `json:"path"`
	Name string `json:"name,omitempty"`
}

func toHookInfo(h *hook.Hook) hookInfo {
	return hookInfo{
		ID:       h.ID,
		Source:   hookSource{Kind: string(h.Source.Kind), Path: h.Source.Path, Name: h.Source.Name},
		Declared: hook.DeclaredOf(h), StatusMessage: h.StatusMessage,
	}
}

func hookInfos(hooks []hook.Hook) []hookInfo {
	out := make([]hookInfo, 0, len(hooks))
	for i := range hooks {
		if hooks[i].Source.Kind == hook.SourceInternal {
			continue // internal hooks are private
		}
		out = append(out, toHookInfo(&hooks[i]))
	}
	return out
}

type workspaceHooksInfo struct {
	Feature      bool           `json:"feature"`
	Policy       string         `json:"policy"`
	StoreStatus  string         `json:"storeStatus"`
	StoreError   string         `json:"storeError,omitempty"`
	BundleDigest string         `json:"bundleDigest"`
	Counts       map[string]int `json:"counts"`
}

type sessionOpenResult struct {
	SessionID      string             `json:"sessionId"`
	Hooks          []hookInfo         `json:"hooks"`
	WorkspaceHooks workspaceHooksInfo `json:"workspaceHooks"`
	Diagnostics    []hook.Diagnostic  `json:"diagnostics"`
}

func (s *Server) sessionOpen(_ context.Context, p sessionOpenParams) (*sessionOpenResult, error) {
	if p.SessionID == "" {
		return nil, InvalidParams("sessionId", "required")
	}
	if p.Cwd == "" {
		return nil, InvalidParams("cwd", "required")
	}
	if !filepath.IsAbs(p.Cwd) {
		return nil, InvalidParams("cwd", "must be an absolute path")
	}
	if p.SparkUserDir != "" && !filepath.IsAbs(p.SparkUserDir) {
		return nil, InvalidParams("sparkUserDir", "must be an absolute path")
	}
	if p.ClaudeHomeDir != "" && !filepath.IsAbs(p.ClaudeHomeDir) {
		return nil, InvalidParams("claudeHomeDir", "must be an absolute path")
	}
	if p.TranscriptPath != "" && !filepath.IsAbs(p.TranscriptPath) {
		return nil, InvalidParams("transcriptPath", "must be an absolute path")
	}
	for i, d := range p.PluginDirs {
		if !filepath.IsAbs(d) {
			return nil, InvalidParams(fmt.Sprintf("pluginDirs[%d]", i), "must be an absolute path")
		}
	}
	s.mu.Lock()
	_, dup := s.sessions[p.SessionID]
	home := s.home
	init := s.init
	s.mu.Unlock()
	if dup {
		return nil, InvalidParams("sessionId", "a session with this id is already open on this connection")
	}
	userConfig := userConfigPath(home, init)
	policy, _ := truststore.ParsePolicy(init.policy)
	sid := p.SessionID
	internal, internalHandlers := s.mailboxHooks()
	rs, diags, err := runner.Open(runner.SessionOptions{
		Internal: internal, InternalHandlers: internalHandlers, AsyncQueue: s.enqueueAsync,
		ID: p.SessionID, Cwd: filepath.Clean(p.Cwd), WorkspaceID: p.WorkspaceID,
		AgentName: p.AgentName, Mode: p.Mode, Env: p.Env,
		UserConfigPath: userConfig, PluginDirs: p.PluginDirs,
		Profile: p.Profile, UserDir: profileUserDir(p),
		TranscriptPath: p.TranscriptPath,
		DelegatedTypes: s.delegatedTypes(), Delegate: s.delegate,
		OnClaudeWake: func(r output.ClaudeAsyncResult) {
			s.notifyOpt("hook/asyncRewake", asyncRewake{SessionID: sid, Result: r})
		},
		// A file that breaks after this reply: a `diagnostic` notification.
		OnDiagnostic: func(d hook.Diagnostic) { s.diagnostic(sid, d) },
		Workspace: runner.WorkspaceOptions{
			Feature: p.WorkspaceHooks, Policy: policy, Home: home, ProjectConfigPath: p.ProjectConfigPath,
			HooksEnabled: p.HooksEnabled,
			// A corrupt trust file moved aside is logged with the session.
			Store: truststore.Options{Logger: s.log.With("sessionId", sid)},
			OnAdmissionUpdated: func(counts map[string]int) {
				s.notifyOpt("workspaceHooks/admissionUpdated", admissionUpdated{SessionID: sid, Counts: counts})
			},
		},
	})
	var perr *runner.ProfileError
	switch {
	case errors.As(err, &perr):
		return nil, InvalidParams("profile", perr.Error())
	case errors.Is(err, runner.ErrCwd):
		return nil, InvalidParams("cwd", "must be an existing directory")
	case err != nil:
		return nil, InvalidParams("cwd", err.Error())
	}
	ss := &session{id: p.SessionID, rs: rs, workspaceHooks: p.WorkspaceHooks, profile: rs.Options().Profile}
	s.mu.Lock()
	if _, dup := s.sessions[p.SessionID]; dup {
		s.mu.Unlock()
		rs.Close()
		return nil, InvalidParams("sessionId", "a session with this id is already open on this connection")
	}
	s.sessions[p.SessionID] = ss
	s.mu.Unlock()

	hooks, _ := rs.Hooks()
	if diags == nil {
		diags = []hook.Diagnostic{}
	}
	wst := rs.WorkspaceStatus()
	return &sessionOpenResult{
		SessionID:      p.SessionID,
		Hooks:          hookInfosWithTrust(hooks, wst),
		WorkspaceHooks: workspaceInfo(wst, rs.Gate()),
		Diagnostics:    diags,
	}, nil
}

type admissionUpdated struct {
	SessionID string         `json:"sessionId"`
	Counts    map[string]int `json:"counts"`
}

func workspaceInfo(w runner.WorkspaceState, g *truststore.Gate) workspaceHooksInfo {
	return workspaceHooksInfo{
		Feature: w.Feature, Policy: string(w.Policy), StoreStatus: string(w.StoreStatus), StoreError: storeErrorText(g),
		BundleDigest: w.Workspace.BundleDigest, Counts: w.Counts,
	}
}

// hookInfosWithTrust lists hooks, adding trustState and digest to workspace ones.
func hookInfosWithTrust(hooks []hook.Hook, w runner.WorkspaceState) []hookInfo {
	infos := hookInfos(hooks)
	if len(w.Declarations) == 0 {
		return infos
	}
	byID := make(map[string]int, len(w.Declarations))
	for i, d := range w.Declarations {
		byID[d.Hook.ID] = i
	}
	for i := range infos {
		if j, ok := byID[infos[i].ID]; ok {
			infos[i].Digest = w.Declarations[j].Digest
			infos[i].TrustState = string(w.Evaluations[j].State)
		}
	}
	return infos
}

type sessionIDParams struct {
	SessionID string `json:"sessionId"`
}

// lookup returns the open session or -32012.
func (s *Server) lookup(id string) (*session, error) {
	if id == "" {
		return nil, InvalidParams("sessionId", "required")
	}
	s.mu.Lock()
	ss := s.sessions[id]
	s.mu.Unlock()
	if ss == nil {
		return nil, &Error{Code: CodeUnknownSession, Message: fmt.Sprintf("unknown session %q", id)}
	}
	return ss, nil
}

func (s *Server) sessionClose(_ context.Context, p sessionIDParams) (any, error) {
	ss, err := s.lookup(p.SessionID)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	delete(s.sessions, p.SessionID)
	s.mu.Unlock()
	go ss.close() // async hooks get their grace without blocking the reader
	if s.v2IsOpen() {
		// Queued async hooks of the session do not start after it closed.
		go func() {
			b, err := s.v2Bridge()
			if err != nil {
				return
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			if n, err := b.CancelQueuedShellHooks(ctx, p.SessionID); err != nil {
				s.log.Warn("cancel queued async hooks", "session", p.SessionID, "err", err)
			} else if n > 0 {
				s.log.Debug("cancelled queued async hooks of a closed session", "session", p.SessionID, "count", n)
			}
		}()
	}
	return nil, nil
}

type hooksListParams struct {
	SessionID       string `json:"sessionId"`
	IncludeInternal bool   `json:"includeInternal"`
}

type hooksListResult struct {
	Hooks []hookInfo `json:"hooks"`
}

func (s *Server) hooksList(_ context.Context, p hooksListParams) (*hooksListResult, error) {
	ss, err := s.lookup(p.SessionID)
	if err != nil {
		return nil, err
	}
	hooks, _ := ss.rs.Hooks()
	var infos []hookInfo
	if p.IncludeInternal {
		infos = make([]hookInfo, 0, len(hooks))
		for i := range hooks {
			infos = append(infos, toHookInfo(&hooks[i]))
		}
	} else {
		infos = hookInfosWithTrust(hooks, ss.rs.WorkspaceStatus())
	}
	return &hooksListResult{infos}, nil
}

type hooksRunParams struct {
	SessionID string          `json:"sessionId"`
	Event     string          `json:"event"`
	TurnID    string          `json:"turnId"`
	TraceID   string          `json:"traceId"`
	Input     jsonRawOrAbsent `json:"input"`
}

// hooksRun is hooks/run: output.Merged, or output.ClaudeMerged in a
// claude-profile session.
func (s *Server) hooksRun(ctx context.Context, p hooksRunParams) (any, error) {
	steps.Mark(steps.Handler)
	defer steps.Mark(steps.Merged)
	if p.Event == "" {
		return nil, InvalidParams("event", "required")
	}
	if len(p.Input) > 0 && p.Input[0] != '{' && string(p.Input) != "null" {
		return nil, InvalidParams("input", "must be an object")
	}
	ss, err := s.lookup(p.SessionID)
	if err != nil {
		return nil, err
	}
	events := hook.Events
	if ss.profile == runner.ProfileClaude {
		events = hook.ClaudeEvents
	}
	if !slices.Contains(events, p.Event) {
		return nil, InvalidParams("event", config.UnknownEvent(p.Event, events, config.EventParam))
	}
	rreq := runner.RunRequest{Event: p.Event, TurnID: p.TurnID, TraceID: p.TraceID, Input: []byte(p.Input)}
	obs := &runObserver{s: s, sessionID: ss.id}
	ctx = context.WithValue(ctx, observerKey{}, obs)
	steps.Mark(steps.Session)
	var m any
	if ss.profile == runner.ProfileClaude {
		m, err = ss.rs.RunClaude(ctx, rreq, obs)
	} else {
		m, err = ss.rs.Run(ctx, rreq, obs)
	}
	obs.end()
	if err != nil {
		if errors.Is(err, runner.ErrSessionClosed) {
			return nil, &Error{Code: CodeRequestCancelled, Message: "request cancelled: the session was closed"}
		}
		if errors.Is(err, context.Canceled) {
			return nil, err
		}
		if errors.Is(err, runner.ErrUnknownEvent) {
			return nil, InvalidParams("event", config.UnknownEvent(p.Event, events, config.EventParam))
		}
		if errors.Is(err, runner.ErrTurnRequired) {
			return nil, InvalidParams("turnId", "required on Stop: continuations are counted per turn")
		}
		var ie *runner.InputError
		if errors.As(err, &ie) {
			field := "input"
			if ie.Field != "" {
				field += "." + ie.Field
			}
			return nil, InvalidParams(field, ie.Reason)
		}
		return nil, InvalidParams("input", err.Error())
	}
	if mm, ok := m.(output.Merged); ok {
		return mergedResult{mm}, nil
	}
	return m, nil
}

// jsonRawOrAbsent keeps a raw value.
type jsonRawOrAbsent []byte

func (j *jsonRawOrAbsent) UnmarshalJSON(b []byte) error {
	*j = append((*j)[:0], b...)
	return nil
}

// PreviewChars caps stdoutPreview / stderrPreview (characters).
const PreviewChars = output.PreviewChars

func preview(b []byte) string { return output.Preview(b, PreviewChars) }

// userConfigPath is initialize.userConfigPath, else <home>/config.json.
func userConfigPath(dir string, init *initializeParams) string {
	if init != nil && init.UserConfigPath != "" {
		return init.UserConfigPath
	}
	return home.ConfigPath(dir)
}

// profileUserDir is the session's user directory option for its profile
// (claude: claudeHomeDir; spark: sparkUserDir).
func profileUserDir(p sessionOpenParams) string {
	if p.Profile == runner.ProfileClaude {
		return p.ClaudeHomeDir
	}
	return p.SparkUserDir
}

// asyncRewake is hook/asyncRewake: an asyncRewake hook of the session exited
// 2; the host wakes the model with result.wakeText.
type asyncRewake struct {
	SessionID string                   `json:"sessionId"`
	Result    output.ClaudeAsyncResult `json:"result"`
}
