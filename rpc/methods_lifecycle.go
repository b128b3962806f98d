package rpc

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/internal/jsonexact"
	"github.com/sourcegraph/jsonrpc2"
)

// initializeParams are PROTOCOL.md §2 initialize params.
type initializeParams struct {
	ProtocolVersion     string      `json:"protocolVersion"`
	ClientInfo          *clientInfo `json:"clientInfo"`
	HomeDir             string      `json:"homeDir"`
	UserConfigPath      string      `json:"userConfigPath"`
	WorkspaceHookPolicy *string     `json:"workspaceHookPolicy"`
	// Locale is the host's UI locale, a BCP 47 tag ("en-US", "zh-CN"):
	// the language of V2 fallback notification titles (zh* = the
	// handbook's Chinese phrases, anything else or absent = English).
	Locale       string `json:"locale"`
	Capabilities struct {
		HostActions         []string `json:"hostActions"`
		OptOutNotifications []string `json:"optOutNotifications"`
		// LifecycleReplay: the host answers host/lifecycle/facts (the
		// compensator, methods_replay.go).
		LifecycleReplay bool `json:"lifecycleReplay"`
		// DelegatedHookTypes: the claude-profile handler types the host
		// runs for hookside (prompt, agent, mcp_tool; methods_delegate.go).
		DelegatedHookTypes []string `json:"delegatedHookTypes"`
	} `json:"capabilities"`

	policy string          // resolved policy
	optOut map[string]bool // notifications the host does not want
}

type clientInfo struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
}

// Workspace hook policies (lifecycle-hooks-and-workspace-trust §"信任状态").
const (
	PolicyUserDecides      = "user_decides"
	PolicyDeny             = "deny"
	PolicyAllowTrustedOnly = "allow_trusted_only"
)

type initializeResult struct {
	ProtocolVersion string     `json:"protocolVersion"`
	ServerInfo      clientInfo `json:"serverInfo"`
	Capabilities    struct {
		Events          []string `json:"events"`
		LifecycleEvents []string `json:"lifecycleEvents"`
		HookTypes       []string `json:"hookTypes"`
		Framing         Framing  `json:"framing"`
	} `json:"capabilities"`
}

// LifecycleEvents are the seven observational V2 events
// (hooks-v2-handbook §3).
var LifecycleEvents = []string{"turn.started", "permission.requested", "question.requested", "response.committed", "turn.completed", "turn.failed", "turn.cancelled"}

func (s *Server) initialize(_ context.Context, p initializeParams) (*initializeResult, error) {
	if p.ProtocolVersion == "" {
		return nil, InvalidParams("protocolVersion", "required")
	}
	if p.ProtocolVersion != ProtocolVersion {
		return nil, InvalidParams("protocolVersion", fmt.Sprintf("unsupported version %q (this server speaks %q)", p.ProtocolVersion, ProtocolVersion))
	}
	if p.ClientInfo == nil || p.ClientInfo.Name == "" {
		return nil, InvalidParams("clientInfo.name", "required")
	}
	// As session/open's paths: a relative one would be resolved against
	// wherever the host happened to start the server.
	if p.UserConfigPath != "" && !filepath.IsAbs(p.UserConfigPath) {
		return nil, InvalidParams("userConfigPath", "must be an absolute path")
	}
	var diags []hook.Diagnostic
	p.policy = PolicyUserDecides
	if p.WorkspaceHookPolicy != nil {
		switch *p.WorkspaceHookPolicy {
		case PolicyUserDecides, PolicyDeny, PolicyAllowTrustedOnly:
			p.policy = *p.WorkspaceHookPolicy
		default:
			// An invalid policy means deny (lifecycle-hooks-and-workspace-trust
			// §"信任状态": 读取策略出错时按 deny 处理).
			p.policy = PolicyDeny
			diags = append(diags, hook.Diagnostic{Code: "workspace_hook_policy_invalid", Severity: hook.SeverityWarning,
				Message: fmt.Sprintf("workspaceHookPolicy %q is not one of user_decides, deny, allow_trusted_only: using deny", *p.WorkspaceHookPolicy)})
		}
	}
	for _, a := range p.Capabilities.HostActions {
		switch a {
		case "notification", "sound", "tool":
		default:
			return nil, InvalidParams("capabilities.hostActions", fmt.Sprintf("unknown host action %q (want notification, sound, tool)", a))
		}
	}
	for _, t := range p.Capabilities.DelegatedHookTypes {
		if !hook.IsDelegated(hook.HookType(t)) {
			return nil, InvalidParams("capabilities.delegatedHookTypes", fmt.Sprintf("unknown hook type %q (want prompt, agent, mcp_tool)", t))
		}
	}
	p.optOut = map[string]bool{}
	for _, m := range p.Capabilities.OptOutNotifications {
		p.optOut[m] = true
	}
	s.mu.Lock()
	s.init = &p
	if p.HomeDir != "" {
		s.home = p.HomeDir
	}
	s.state = stateReady
	s.mu.Unlock()

	res := &initializeResult{}
	res.ProtocolVersion = ProtocolVersion
	res.ServerInfo = clientInfo{Name: "hookside", Version: s.opts.Version}
	res.Capabilities.Events = hook.Events
	res.Capabilities.LifecycleEvents = LifecycleEvents
	res.Capabilities.HookTypes = []string{string(hook.TypeProcess), string(hook.TypeCommand)}
	res.Capabilities.Framing = s.opts.Framing
	if res.Capabilities.Framing == "" {
		res.Capabilities.Framing = FramingNDJSON
	}
	s.v2OpenIfPresent()
	s.replayStart()
	if len(diags) > 0 {
		// After the reply, so the host sees the result first.
		go func() {
			for _, d := range diags {
				s.diagnostic("", d)
			}
		}()
	}
	return res, nil
}

// shutdown stops accepting work, lets in-flight requests finish (or
// cancels them after the grace period) and then replies null. The reply is
// deferred so $/cancelRequest can still be read meanwhile.
func (s *Server) shutdown(context.Context, noParams) (deferred, error) {
	s.beginShutdown()
	return func() (any, error) {
		s.d.drain(s.opts.ShutdownGrace)
		// V2 actions in flight get the grace too (the host is still there to
		// answer); what is left is recorded outcome_unknown.
		s.v2Close(s.opts.ShutdownGrace)
		s.mu.Lock()
		s.state = stateShutdown
		s.mu.Unlock()
		return nil, nil
	}, nil
}

// handleNotification handles client notifications: initialized, exit,
// $/cancelRequest. Unknown notifications are ignored (logged at debug).
func (s *Server) handleNotification(req *jsonrpc2.Request) {
	switch req.Method {
	case "initialized":
	case "exit":
		// 0 once a shutdown request has come, also while its drain runs
		// (the exit notification may overtake the shutdown reply).
		code := 1
		if s.getState() >= stateShuttingDown {
			code = 0
		}
		select {
		case s.exitCode <- code:
		default:
		}
	case cancelMethod:
		id, e := cancelID(req.Params)
		if e != nil {
			s.log.Warn("$/cancelRequest without a valid id", "reason", e.Message)
			return
		}
		s.d.cancelRequest(id)
	default:
		s.log.Debug("ignoring notification", "method", req.Method)
	}
}

// cancelMethod is the cancel notification (PROTOCOL.md §1), also taken as
// a request (dispatcher.cancelAsRequest).
const cancelMethod = "$/cancelRequest"

// cancelID reads the id of $/cancelRequest params {"id": string |
// integer}: -32602 with field "" when params are not an object, "id" when
// it is absent, null or of another type.
func cancelID(raw *json.RawMessage) (jsonrpc2.ID, *Error) {
	if e := checkParamsShape(raw); e != nil {
		return jsonrpc2.ID{}, e
	}
	var p struct {
		ID json.RawMessage `json:"id"`
	}
	if raw == nil || string(*raw) == "null" {
		return jsonrpc2.ID{}, InvalidParams("", "params are required")
	}
	if jsonexact.Unmarshal(*raw, &p) != nil {
		return jsonrpc2.ID{}, InvalidParams("", "params must be an object")
	}
	if len(p.ID) == 0 || string(p.ID) == "null" {
		return jsonrpc2.ID{}, InvalidParams("id", "required")
	}
	var id jsonrpc2.ID
	if id.UnmarshalJSON(p.ID) != nil {
		return jsonrpc2.ID{}, InvalidParams("id", "must be a string or a non-negative integer")
	}
	return id, nil
}

// diagnostic sends a `diagnostic` notification.
func (s *Server) diagnostic(sessionID string, d hook.Diagnostic) {
	type diag struct {
		SessionID string `json:"sessionId,omitempty"`
		Code      string `json:"code"`
		Severity  string `json:"severity"`
		Message   string `json:"message"`
		Source    string `json:"source,omitempty"`
	}
	s.notifyOpt("diagnostic", diag{SessionID: sessionID, Code: d.Code, Severity: d.Severity, Message: d.Message, Source: d.Source})
}

// notifyOpt sends a notification unless the host opted out of it.
func (s *Server) notifyOpt(method string, params any) {
	if !s.optedOut(method) {
		s.notify(method, params)
	}
}

// holdOpt is notifyOpt for a notification that may wait for the next frame
// of the connection (Server.hold).
func (s *Server) holdOpt(method string, params any) {
	if !s.optedOut(method) {
		s.hold(method, params)
	}
}

// optedOut reports whether the host declared method in
// capabilities.optOutNotifications.
func (s *Server) optedOut(method string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.init != nil && s.init.optOut[method]
}
