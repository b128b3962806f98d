package v2bridge

import (
	"context"
	"fmt"
	"strings"

	"github.com/hookside/hookside/v2bridge/expr"
	"github.com/hookside/hookside/v2bridge/store"
)

// Reasons of EmitResult.Unbound: why an enabled definition that listens to
// the event will not run its action for it.
const (
	// UnboundNoBinding: no binding of the definition matches the event's
	// scope (§7.1: application, or the event's workspace, agent or session).
	UnboundNoBinding = "no_binding"
	// UnboundBindingDisabled: the effective binding is disabled ("off in
	// this context", §7.2): no run.
	UnboundBindingDisabled = "binding_disabled"
	// UnboundNeedsReview: the effective binding does not trust the
	// definition's current execution hash: the run is recorded blocked +
	// trust_required (§7.2).
	UnboundNeedsReview = "needs_review"
)

// EmitMatch is one enabled definition that listens to the emitted event,
// with the binding that decides it in the event's scope (§7.1). BindingID and
// BindingState are empty when no binding matches. The definition's
// condition is not evaluated here (that happens at dispatch, §4).
type EmitMatch struct {
	DefinitionID string `json:"definitionId"`
	Name         string `json:"name"`
	BindingID    string `json:"bindingId,omitempty"`
	// BindingState is active, needs_review or disabled (§7.2).
	BindingState string `json:"bindingState,omitempty"`
}

// EmitUnbound is a matched definition without an active effective binding:
// Reason is one of UnboundNoBinding, UnboundBindingDisabled,
// UnboundNeedsReview.
type EmitUnbound struct {
	DefinitionID string `json:"definitionId"`
	Reason       string `json:"reason"`
	// Hint, for no_binding, names a workspace binding of the definition
	// that names the event's primaryWorkspaceId in another form (a path
	// where the event says local:PATH, or the other way round): scope ids
	// are compared exactly (hookside extension).
	Hint string `json:"hint,omitempty"`
}

// matchEvent lists the enabled definitions of env's event with their
// effective binding in env's scope, the same rule the dispatcher applies
// (effectiveBinding). It reads the state at emit time: a binding created or
// authorised before the dispatcher reaches the event still counts there.
func (b *Bridge) matchEvent(ctx context.Context, env *expr.Envelope) ([]EmitMatch, []EmitUnbound, error) {
	m := newMatches()
	defs, err := b.db.ListDefinitions(ctx, env.EventName)
	if err != nil {
		return m.matched, m.unbound, err
	}
	for _, d := range defs {
		if !d.Enabled {
			continue
		}
		bs, err := b.db.ListBindings(ctx, d.ID)
		if err != nil {
			return m.matched, m.unbound, err
		}
		m.add(d, bs, env)
	}
	return m.matched, m.unbound, nil
}

// matches collects EmitResult.Matched and Unbound.
type matches struct {
	matched []EmitMatch
	unbound []EmitUnbound
}

func newMatches() *matches { return &matches{matched: []EmitMatch{}, unbound: []EmitUnbound{}} }

// add records enabled definition d with its bindings bs.
func (m *matches) add(d store.Definition, bs []store.Binding, env *expr.Envelope) {
	em := EmitMatch{DefinitionID: d.ID, Name: d.Name}
	win, ok, _ := effectiveBinding(bs, env)
	reason := UnboundNoBinding
	if ok {
		em.BindingID, em.BindingState = win.ID, win.State
		switch win.State {
		case store.BindingActive:
			reason = ""
		case store.BindingDisabled:
			reason = UnboundBindingDisabled
		default:
			reason = UnboundNeedsReview
		}
	}
	m.matched = append(m.matched, em)
	if reason != "" {
		u := EmitUnbound{DefinitionID: d.ID, Reason: reason}
		if reason == UnboundNoBinding {
			u.Hint = workspaceNearMiss(bs, env)
		}
		m.unbound = append(m.unbound, u)
	}
}

// workspaceNearMiss is the hint of EmitUnbound.Hint: a workspace binding
// of bs whose scope id and env's primaryWorkspaceId (what a workspace
// binding is matched against) differ only by a "local:" in front, or "".
func workspaceNearMiss(bs []store.Binding, env *expr.Envelope) string {
	id := env.PrimaryWorkspaceID
	for _, b := range bs {
		if b.ScopeKind == store.ScopeWorkspace && id != "" && id != b.ScopeID &&
			strings.TrimPrefix(id, "local:") == strings.TrimPrefix(b.ScopeID, "local:") {
			return fmt.Sprintf("binding %s is at workspace %q, this event's workspace is %q: scope ids are compared exactly; bind the definition at %q", b.ID, b.ScopeID, id, id)
		}
	}
	return ""
}
