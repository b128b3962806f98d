package v2bridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"

	"github.com/hookside/hookside/v2bridge/expr"
)

// Host executes host actions: the RPC layer implements it with server→client
// requests (PROTOCOL §5.2): host/notification/show, host/sound/play,
// host/tool/resolve, host/tool/invoke. Call sends method with params and
// decodes the result into result. It returns a *HostError for a JSON-RPC
// error answer, an error wrapping ErrHostGone when the connection is closed,
// and ctx.Err() when ctx ends first (no answer in time). It must be safe for
// concurrent use and is never called from the connection's read goroutine.
type Host interface {
	Call(ctx context.Context, method string, params, result any) error
}

// Host request methods (PROTOCOL §5.2).
const (
	MethodNotificationShow = "host/notification/show"
	MethodSoundPlay        = "host/sound/play"
	MethodToolResolve      = "host/tool/resolve"
	MethodToolInvoke       = "host/tool/invoke"
)

// HostActions are the actions a host may declare (capabilities.hostActions).
var HostActions = []string{expr.ActionNotification, expr.ActionSound, expr.ActionTool}

// ErrHostGone: the host connection is closed; an action in flight may or may
// not have happened (outcome_unknown).
var ErrHostGone = errors.New("host connection closed")

// HostError is a JSON-RPC error answer from the host (action_failed).
type HostError struct {
	Code    int64
	Message string
}

func (e *HostError) Error() string { return fmt.Sprintf("host error %d: %s", e.Code, e.Message) }

// AttachHost makes h the connected host that executes the declared actions
// (a subset of notification, sound, tool). From now on this process claims
// runs of those actions (the ownership rule of the package comment).
func (b *Bridge) AttachHost(h Host, actions []string) {
	m := map[string]bool{}
	for _, a := range actions {
		m[a] = true
	}
	b.mu.Lock()
	b.host, b.actions = h, m
	b.mu.Unlock()
	b.workerWake.kick()
}

// DetachHost forgets the host: its actions are no longer claimed here, and
// actions waiting on it fail with ErrHostGone (outcome_unknown).
func (b *Bridge) DetachHost() {
	b.mu.Lock()
	b.host, b.actions = nil, nil
	b.mu.Unlock()
}

// hostFor returns the host when it declared action.
func (b *Bridge) hostFor(action string) (Host, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.host == nil || !b.actions[action] {
		return nil, false
	}
	return b.host, true
}

// hostState says whether a host is connected and whether it declared action.
func (b *Bridge) hostState(action string) (connected, declared bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.host != nil, b.host != nil && b.actions[action]
}

// claimableActions is the ClaimFilter.ActionTypes of this process.
func (b *Bridge) claimableActions() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := []string{expr.ActionCommand}
	if b.host != nil {
		for a := range b.actions {
			out = append(out, a)
		}
	}
	sort.Strings(out)
	return out
}

func isHostAction(t string) bool {
	return t == expr.ActionNotification || t == expr.ActionSound || t == expr.ActionTool
}

// Wire shapes of the host requests (PROTOCOL §5.2).
type notificationParams struct {
	Title     string  `json:"title"`
	Body      *string `json:"body,omitempty"`
	SessionID string  `json:"sessionId"`
	RunID     string  `json:"runId"`
}

type notificationResult struct {
	Shown bool `json:"shown"`
}

type soundParams struct {
	RunID string `json:"runId"`
}

type soundResult struct {
	Played bool `json:"played"`
}

type toolResolveParams struct {
	Target expr.ToolTarget `json:"target"`
}

type toolResolveResult struct {
	Found       bool   `json:"found"`
	Version     string `json:"version,omitempty"`
	RiskLevel   string `json:"riskLevel"`
	Idempotency string `json:"idempotency"`
}

type toolInvokeParams struct {
	Target           expr.ToolTarget `json:"target"`
	Input            map[string]any  `json:"input"`
	IdempotencyKey   string          `json:"idempotencyKey,omitempty"`
	InvocationSource string          `json:"invocationSource"`
	HookID           string          `json:"hookId"`
	RunID            string          `json:"runId"`
}

type toolInvokeResult struct {
	OK        bool   `json:"ok"`
	ErrorCode string `json:"errorCode,omitempty"`
	Message   string `json:"message,omitempty"`
	// Output is decoded in property order (expr.DecodeOrdered) so the
	// output summary keeps the host's key order (§11.3).
	Output json.RawMessage `json:"output,omitempty"`
}
