package v2bridge

import (
	"context"

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
		m.unbound = append(m.unbound, EmitUnbound{DefinitionID: d.ID, Reason: reason})
	}
}
