package v2bridge

import (
	"context"
	"sort"

	"github.com/hookside/hookside/v2bridge/expr"
	"github.com/hookside/hookside/v2bridge/store"
)

// EffectiveParams are the v2/bindings/effective params: the execution
// context {sessionId, agentId, workspaceId} (workspaceId is the primary
// workspace; an empty field is absent from the context, so bindings of that
// scope do not match, §7.1), optionally narrowed to one hook or one event.
type EffectiveParams struct {
	SessionID   string `json:"sessionId,omitempty"`
	AgentID     string `json:"agentId,omitempty"`
	WorkspaceID string `json:"workspaceId,omitempty"`
	HookID      string `json:"hookId,omitempty"`
	EventName   string `json:"eventName,omitempty"`
}

// EffectiveHook is one definition in a context: Effective is the binding
// that counts there (the matching one with the highest-priority scope, §7.1;
// nil when none matches), Shadowed the other matching bindings, each with
// shadowedBy = the matching bindings of higher priority (computed in this
// context only; the effective binding's shadowedBy is empty). Executes says
// whether an event in this context would run the hook (definition enabled,
// effective binding active; its condition aside).
type EffectiveHook struct {
	HookID    string        `json:"hookId"`
	Name      string        `json:"name"`
	EventName string        `json:"eventName"`
	Enabled   bool          `json:"enabled"`
	Effective *BindingView  `json:"effective"`
	Shadowed  []BindingView `json:"shadowed"`
	Executes  bool          `json:"executes"`
}

// EffectiveResult is {hooks}, ordered by event name, then definition id.
type EffectiveResult struct {
	Hooks []EffectiveHook `json:"hooks"`
}

// EffectiveBindings resolves, for every definition (or p.HookID / the
// definitions of p.EventName), its effective binding in the context p
// (hooks-v2-handbook §7.1, §2.1: the session inspector's "最终生效列表与覆盖
// 关系"), with the same matching rule the dispatcher uses.
func (b *Bridge) EffectiveBindings(ctx context.Context, p EffectiveParams) (EffectiveResult, error) {
	if p.EventName != "" && !expr.KnownEvent(p.EventName) {
		return EffectiveResult{}, invalid("eventName", "%s", expr.UnknownEvent(p.EventName))
	}
	if len(p.SessionID) > store.MaxSessionIDBytes {
		return EffectiveResult{}, invalid("sessionId", "too long: %d bytes (at most %d)", len(p.SessionID), store.MaxSessionIDBytes)
	}
	var defs []store.Definition
	if p.HookID != "" {
		d, err := b.db.GetDefinition(ctx, p.HookID)
		if err != nil {
			return EffectiveResult{}, storeErr(err, "hookId")
		}
		defs = []store.Definition{d}
	} else {
		var err error
		if defs, err = b.db.ListDefinitions(ctx, p.EventName); err != nil {
			return EffectiveResult{}, storeErr(err, "")
		}
	}
	env := &expr.Envelope{Session: expr.Session{ID: p.SessionID}, PrimaryWorkspaceID: p.WorkspaceID}
	if p.AgentID != "" {
		env.Agent = &expr.Agent{ID: p.AgentID}
	}
	out := EffectiveResult{Hooks: []EffectiveHook{}}
	for _, d := range defs {
		bs, err := b.db.ListBindings(ctx, d.ID)
		if err != nil {
			return EffectiveResult{}, storeErr(err, "")
		}
		var matching []store.Binding
		for _, bd := range bs {
			if bindingMatches(bd, env) {
				matching = append(matching, bd)
			}
		}
		h := EffectiveHook{HookID: d.ID, Name: d.Name, EventName: d.EventName, Enabled: d.Enabled, Shadowed: []BindingView{}}
		views := withShadows(matching)
		// Highest priority first: the effective binding, then the shadowed.
		sort.SliceStable(views, func(i, j int) bool {
			return scopePriority[views[i].ScopeKind] > scopePriority[views[j].ScopeKind]
		})
		for i := range views {
			if i == 0 {
				v := views[0]
				h.Effective = &v
				continue
			}
			h.Shadowed = append(h.Shadowed, views[i])
		}
		h.Executes = d.Enabled && h.Effective != nil && h.Effective.State == store.BindingActive
		out.Hooks = append(out.Hooks, h)
	}
	sort.SliceStable(out.Hooks, func(i, j int) bool {
		if out.Hooks[i].EventName != out.Hooks[j].EventName {
			return out.Hooks[i].EventName < out.Hooks[j].EventName
		}
		return out.Hooks[i].HookID < out.Hooks[j].HookID
	})
	return out, nil
}
