package v2bridge

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/hookside/hookside/v2bridge/expr"
	"github.com/hookside/hookside/v2bridge/store"
)

// Outcomes of an upsert.
const (
	OutcomeCreated   = "created"
	OutcomeUpdated   = "updated"
	OutcomeUnchanged = "unchanged"
)

// UpsertDefinitionResult is {definition, outcome, bindingsNeedingReview,
// warnings?}: outcome is created, updated or unchanged; bindingsNeedingReview
// counts the enabled bindings whose trust an executing change dropped
// (§8.2; 0 unless updated); warnings as in DefinitionResult, whatever the
// outcome.
type UpsertDefinitionResult struct {
	Definition            store.Definition `json:"definition"`
	Outcome               string           `json:"outcome"`
	BindingsNeedingReview int              `json:"bindingsNeedingReview"`
	Warnings              []expr.Problem   `json:"warnings,omitempty"`
}

// UpsertDefinition creates the definition, or replaces the stored one with
// the same id by it (v2/definitions/upsert): what a host that seeds its
// definitions at start-up calls every time. The definition is the whole
// desired content, not a patch: optional fields it omits are removed. Its
// id is required. enabled, when omitted, keeps the stored value (a user's
// switch survives re-seeding; a new definition is enabled). Same content
// (name, description, enabled and execution hash) → outcome unchanged and
// nothing is written: no revision bump, updatedAt kept. A change of the
// execution hash bumps the revision and drops the bindings' trust exactly as
// v2/definitions/update does (§8.2). Errors: -32602 as create (field
// "definition.…"), store trouble ErrUnavailable.
func (b *Bridge) UpsertDefinition(ctx context.Context, raw json.RawMessage) (UpsertDefinitionResult, error) {
	d, err := decodeDefinition(raw, "definition")
	if err != nil {
		return UpsertDefinitionResult{}, err
	}
	if d.ID == "" {
		return UpsertDefinitionResult{}, invalid("definition.id", "required: an upsert finds the stored definition by its id")
	}
	problems := checkDefinition(d, raw)
	if err := problemsError("definition", problems); err != nil {
		return UpsertDefinitionResult{}, err
	}
	warnings := warningsOf(problems)
	keepEnabled := d.Enabled == nil
	d.ApplyDefaults()
	d.Revision, d.ExecutionHash, d.CreatedAt, d.UpdatedAt = 0, "", "", ""
	for attempt := 0; ; attempt++ {
		cur, err := b.db.GetDefinition(ctx, d.ID)
		if errors.Is(err, store.ErrNotFound) {
			sd, err := toStore(d)
			if err != nil {
				return UpsertDefinitionResult{}, err
			}
			out, err := b.db.CreateDefinition(ctx, sd)
			if errors.Is(err, store.ErrConflict) && attempt == 0 {
				continue // created meanwhile by another writer: compare with it
			}
			if err != nil {
				return UpsertDefinitionResult{}, storeErr(err, "definition.id")
			}
			return UpsertDefinitionResult{Definition: out, Outcome: OutcomeCreated, Warnings: warnings}, nil
		}
		if err != nil {
			return UpsertDefinitionResult{}, storeErr(err, "definition.id")
		}
		if keepEnabled {
			d.Enabled = &cur.Enabled
		}
		sd, err := toStore(d)
		if err != nil {
			return UpsertDefinitionResult{}, err
		}
		if sameContent(sd, cur) {
			return UpsertDefinitionResult{Definition: cur, Outcome: OutcomeUnchanged, Warnings: warnings}, nil
		}
		out, n, err := b.db.UpdateDefinition(ctx, sd)
		if err != nil {
			return UpsertDefinitionResult{}, storeErr(err, "definition.id")
		}
		return UpsertDefinitionResult{Definition: out, Outcome: OutcomeUpdated, BindingsNeedingReview: n, Warnings: warnings}, nil
	}
}

// sameContent reports whether writing d over the stored cur would change
// nothing: the same name, description, enabled and execution hash (which
// covers every other field a definition has, §8.1; timestamps and revision
// are the store's).
func sameContent(d, cur store.Definition) bool {
	return d.Name == cur.Name && d.Description == cur.Description && d.Enabled == cur.Enabled &&
		d.ExecutionHash == cur.ExecutionHash
}

// UpsertBindingResult is {binding, outcome}: outcome created or unchanged.
type UpsertBindingResult struct {
	Binding BindingView `json:"binding"`
	Outcome string      `json:"outcome"`
}

// UpsertBinding makes sure hookID is bound to the scope
// (v2/bindings/upsert): a missing binding is created, enabled and authorised
// with the definition's current hash as v2/bindings/create does (§7.3); an
// existing one is returned as it is (outcome unchanged) — neither re-enabled
// nor re-authorised, since both are the user's decisions (§7.2).
// Errors: as v2/bindings/create, without the conflict.
func (b *Bridge) UpsertBinding(ctx context.Context, hookID, scopeKind, scopeID string) (UpsertBindingResult, error) {
	for attempt := 0; ; attempt++ {
		bv, err := b.CreateBinding(ctx, hookID, scopeKind, scopeID)
		if err == nil {
			return UpsertBindingResult{Binding: bv, Outcome: OutcomeCreated}, nil
		}
		if !errors.Is(err, store.ErrConflict) {
			return UpsertBindingResult{}, err
		}
		bs, lerr := b.ListBindings(ctx, hookID)
		if lerr != nil {
			return UpsertBindingResult{}, lerr
		}
		for _, x := range bs {
			if x.ScopeKind == scopeKind && (scopeKind == store.ScopeApplication || x.ScopeID == scopeID) {
				return UpsertBindingResult{Binding: x, Outcome: OutcomeUnchanged}, nil
			}
		}
		if attempt > 0 { // deleted between the conflict and the read, twice
			return UpsertBindingResult{}, err
		}
	}
}
