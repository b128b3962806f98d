package v2bridge

import (
	"context"
	"errors"
	"fmt"

	"github.com/hookside/hookside/internal/nearmiss"
	"github.com/hookside/hookside/v2bridge/expr"
	"github.com/hookside/hookside/v2bridge/store"
)

// scopePriority orders scopes (§7.1): session > agent > workspace > application.
var scopePriority = map[string]int{
	store.ScopeApplication: 0, store.ScopeWorkspace: 1, store.ScopeAgent: 2, store.ScopeSession: 3,
}

// BindingView is a binding on the wire: the stored binding plus shadowedBy,
// the ids of the same hook's bindings with a higher-priority scope, which win
// wherever both match (§7.1 "其余记入 shadowedBy 仅作展示").
type BindingView struct {
	store.Binding
	ShadowedBy []string `json:"shadowedBy"`
}

// scopeKinds are the scope kinds in priority order, lowest first (§7.1):
// the "did you mean" candidates of an unknown one.
var scopeKinds = []string{store.ScopeApplication, store.ScopeWorkspace, store.ScopeAgent, store.ScopeSession}

// CreateBinding binds hookID to a scope, enabled and authorized with the
// definition's current hash (§7.3 "新增绑定即自动授权并启用").
func (b *Bridge) CreateBinding(ctx context.Context, hookID, scopeKind, scopeID string) (BindingView, error) {
	if hookID == "" {
		return BindingView{}, invalid("hookId", "required")
	}
	if _, ok := scopePriority[scopeKind]; !ok {
		msg := "must be application, workspace, agent or session"
		if m := nearmiss.Suggest(scopeKind, scopeKinds); m != "" {
			msg += fmt.Sprintf("; did you mean %q?", m)
		}
		return BindingView{}, invalid("scopeKind", "%s", msg)
	}
	if scopeKind != store.ScopeApplication && scopeID == "" {
		// §7.3: 请填写作用域对象 ID.
		return BindingView{}, invalid("scopeId", "required for scope %s: the id of the %s the binding applies to", scopeKind, scopeKind)
	}
	bd, err := b.db.CreateBinding(ctx, hookID, scopeKind, scopeID)
	if errors.Is(err, store.ErrConflict) {
		if scopeKind == store.ScopeApplication {
			scopeID = ""
		}
		return BindingView{}, &ConflictError{Kind: "binding", ID: hookID, Scope: scopeKind, ScopeID: scopeID}
	}
	if err != nil {
		return BindingView{}, storeErr(err, "scopeId")
	}
	return b.bindingView(ctx, bd)
}

// UpdateBinding applies enabled and/or an explicit (re)authorization (§7.3):
// authorize with the current hash trusts; a different hash is an explicit
// intent that does not match and drops trust (needs_review); no authorize
// keeps trust while the hash still matches (a non-executing change).
func (b *Bridge) UpdateBinding(ctx context.Context, id string, enabled *bool, authorizeHash *string) (BindingView, error) {
	return b.updateBinding(ctx, id, store.BindingPatch{Enabled: enabled, Authorize: authorizeHash})
}

// UpdateBindingChecked is UpdateBinding for a hash a person typed (the
// CLI): an authorizeHash other than the definition's current execution
// hash is refused with a *HashMismatchError (errors.Is ErrHashMismatch)
// and nothing is changed, enabled included, where UpdateBinding would
// take it as the §7.3 explicit intent and drop the binding's trust.
func (b *Bridge) UpdateBindingChecked(ctx context.Context, id string, enabled *bool, authorizeHash *string) (BindingView, error) {
	return b.updateBinding(ctx, id, store.BindingPatch{Enabled: enabled, Authorize: authorizeHash, RequireCurrent: true})
}

func (b *Bridge) updateBinding(ctx context.Context, id string, patch store.BindingPatch) (BindingView, error) {
	if id == "" {
		return BindingView{}, invalid("id", "required")
	}
	bd, err := b.db.UpdateBinding(ctx, id, patch)
	if err != nil {
		return BindingView{}, storeErr(err, "id")
	}
	return b.bindingView(ctx, bd)
}

// DeleteBinding deletes one binding.
func (b *Bridge) DeleteBinding(ctx context.Context, id string) error {
	if id == "" {
		return invalid("id", "required")
	}
	return storeErr(b.db.DeleteBinding(ctx, id), "id")
}

// GetBinding returns one binding with its shadowedBy, as ListBindings
// shows it. Errors: ErrNotFound, *InvalidError on "id" (empty),
// *DatabaseError.
func (b *Bridge) GetBinding(ctx context.Context, id string) (BindingView, error) {
	if id == "" {
		return BindingView{}, invalid("id", "required")
	}
	bd, err := b.db.GetBinding(ctx, id)
	if err != nil {
		return BindingView{}, storeErr(err, "id")
	}
	return b.bindingView(ctx, bd)
}

// ListBindings lists bindings (of one hook, or all) with shadowedBy, ordered
// application → workspace → agent → session (§7.3).
func (b *Bridge) ListBindings(ctx context.Context, hookID string) ([]BindingView, error) {
	bs, err := b.db.ListBindings(ctx, hookID)
	if err != nil {
		return nil, storeErr(err, "hookId")
	}
	return withShadows(bs), nil
}

func (b *Bridge) bindingView(ctx context.Context, bd store.Binding) (BindingView, error) {
	bs, err := b.db.ListBindings(ctx, bd.HookID)
	if err != nil {
		return BindingView{Binding: bd, ShadowedBy: []string{}}, nil
	}
	for _, v := range withShadows(bs) {
		if v.ID == bd.ID {
			v.Binding = bd
			return v, nil
		}
	}
	return BindingView{Binding: bd, ShadowedBy: []string{}}, nil
}

func withShadows(bs []store.Binding) []BindingView {
	out := make([]BindingView, 0, len(bs))
	for _, x := range bs {
		v := BindingView{Binding: x, ShadowedBy: []string{}}
		for _, y := range bs {
			if y.HookID == x.HookID && y.ID != x.ID && scopePriority[y.ScopeKind] > scopePriority[x.ScopeKind] {
				v.ShadowedBy = append(v.ShadowedBy, y.ID)
			}
		}
		out = append(out, v)
	}
	return out
}

// bindingMatches is the matching rule of §7.1: application needs scopeId "";
// workspace needs the envelope's primaryWorkspaceId equal; agent needs an
// agent with that id; session compares the session id.
func bindingMatches(bd store.Binding, env *expr.Envelope) bool {
	switch bd.ScopeKind {
	case store.ScopeApplication:
		return bd.ScopeID == ""
	case store.ScopeWorkspace:
		return env.PrimaryWorkspaceID != "" && env.PrimaryWorkspaceID == bd.ScopeID
	case store.ScopeAgent:
		return env.Agent != nil && env.Agent.ID != "" && env.Agent.ID == bd.ScopeID
	case store.ScopeSession:
		return env.Session.ID == bd.ScopeID
	}
	return false
}

// effectiveBinding resolves a hook's bindings for env (§7.1): the matching
// binding with the highest-priority scope wins, the others are shadowed. A
// disabled winner means "off in this context": no run, no record (§7.2).
// ambiguous is true when more than one binding matches at the winning
// priority (impossible while UNIQUE(hook_id, scope_kind, scope_id) holds and
// every scope matches by equality, but recorded as a run — not only logged —
// should it ever happen: the ambiguous_binding gap hookside fixes).
func effectiveBinding(bs []store.Binding, env *expr.Envelope) (win store.Binding, matched, ambiguous bool) {
	best := -1
	count := 0
	for _, bd := range bs {
		if !bindingMatches(bd, env) {
			continue
		}
		p := scopePriority[bd.ScopeKind]
		switch {
		case p > best:
			best, win, count = p, bd, 1
		case p == best:
			count++
		}
	}
	return win, best >= 0, count > 1
}
