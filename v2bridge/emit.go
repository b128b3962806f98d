package v2bridge

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/hookside/hookside/internal/jsonexact"
	"github.com/hookside/hookside/internal/jsonpos"
	"github.com/hookside/hookside/internal/randid"
	"github.com/hookside/hookside/v2bridge/expr"
	"github.com/hookside/hookside/v2bridge/store"
)

// EmitParams are the v2/events/emit params (PROTOCOL §5.2).
type EmitParams struct {
	EventName          string           `json:"eventName"`
	SourceID           string           `json:"sourceId,omitempty"`
	OccurredAt         string           `json:"occurredAt,omitempty"`
	Session            *expr.Session    `json:"session"`
	Turn               *expr.Turn       `json:"turn"`
	Agent              *expr.Agent      `json:"agent,omitempty"`
	Workspaces         []expr.Workspace `json:"workspaces"`
	PrimaryWorkspaceID string           `json:"primaryWorkspaceId,omitempty"`
	Payload            map[string]any   `json:"payload"`

	// payloadJSON is the payload as received, so the envelope keeps its
	// members' order (templates and summaries are JSON.stringify, §5.2).
	payloadJSON json.RawMessage
}

type emitParamsJSON EmitParams

// UnmarshalJSON decodes the params and keeps the payload's member order.
func (p *EmitParams) UnmarshalJSON(b []byte) error {
	var aux struct {
		*emitParamsJSON
		Payload json.RawMessage `json:"payload"`
	}
	aux.emitParamsJSON = (*emitParamsJSON)(p)
	if err := jsonexact.Unmarshal(b, &aux); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) { // name the wire field, not the Go alias
			te.Field = strings.TrimPrefix(te.Field, "emitParamsJSON.")
		}
		return err
	}
	p.Payload, p.payloadJSON = nil, nil
	if len(aux.Payload) == 0 || string(aux.Payload) == "null" {
		return nil
	}
	if err := jsonexact.Unmarshal(aux.Payload, &p.Payload); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			// te.Offset counts from the payload's start: make it count
			// from b's, so that positions derived from it (the RPC
			// error's field, the CLI's line:col) are the payload's.
			if start, ok := jsonpos.PathOffset(b, "payload"); ok {
				te.Offset += int64(start)
			}
			if te.Field == "" {
				te.Field = "payload"
			} else {
				te.Field = "payload." + te.Field
			}
		}
		return err
	}
	p.payloadJSON = aux.Payload
	return nil
}

// MaxEnvelopeDepth is the deepest nesting of objects/arrays an emitted
// envelope may have (the envelope object itself is level 1).
const MaxEnvelopeDepth = 64

// jsonDepthExceeds reports whether v (decoded JSON) nests objects/arrays
// deeper than max levels (v itself, if an object or array, is level 1).
func jsonDepthExceeds(v any, max int) bool {
	switch x := v.(type) {
	case map[string]any:
		if max < 1 {
			return true
		}
		for _, e := range x {
			if jsonDepthExceeds(e, max-1) {
				return true
			}
		}
	case []any:
		if max < 1 {
			return true
		}
		for _, e := range x {
			if jsonDepthExceeds(e, max-1) {
				return true
			}
		}
	}
	return false
}

// EmitResult is {eventId, duplicate, enqueued, matched, unbound}. Matched
// lists the enabled definitions that listen to the event with their
// effective binding in its scope; Unbound those of them without an active
// binding and why (see EmitUnbound): a host can tell from the reply alone
// that an event will run nothing. Both are empty (never null) when no
// enabled definition listens.
type EmitResult struct {
	EventID   string        `json:"eventId"`
	Duplicate bool          `json:"duplicate"`
	Enqueued  bool          `json:"enqueued"`
	Matched   []EmitMatch   `json:"matched"`
	Unbound   []EmitUnbound `json:"unbound"`
}

// BuildEnvelope builds the §3.4 envelope of p: eventId = "hev_" +
// sha256(eventName:sourceId) with sourceId explicit, else derived (§3.2),
// else a random UUID.
func BuildEnvelope(p EmitParams, now time.Time) (*expr.Envelope, error) {
	if p.EventName == "" {
		return nil, invalid("eventName", "required")
	}
	if !expr.KnownEvent(p.EventName) {
		return nil, invalid("eventName", "%s", expr.UnknownEvent(p.EventName))
	}
	if p.Session == nil || p.Session.ID == "" {
		return nil, invalid("session.id", "required: every lifecycle event belongs to a session, and one without a session id is not emitted")
	}
	if len(p.Session.ID) > store.MaxSessionIDBytes {
		return nil, invalid("session.id", "too long: %d bytes (at most %d)", len(p.Session.ID), store.MaxSessionIDBytes)
	}
	if p.Turn == nil || p.Turn.ID == "" {
		return nil, invalid("turn.id", "required")
	}
	if p.Agent != nil && p.Agent.ID == "" && p.Agent.Name == "" {
		p.Agent = nil
	}
	if p.OccurredAt == "" {
		p.OccurredAt = now.UTC().Format(time.RFC3339Nano)
	} else if _, err := time.Parse(time.RFC3339Nano, p.OccurredAt); err != nil {
		return nil, invalid("occurredAt", "must be an RFC 3339 time")
	}
	if p.Payload == nil {
		p.Payload = map[string]any{}
	}
	// The envelope object is level 1 and payload level 2: a payload nested
	// deeper is refused here, before anything is stored.
	if jsonDepthExceeds(p.Payload, MaxEnvelopeDepth-1) {
		return nil, invalid("payload", "nested deeper than %d levels (the whole envelope is limited to %d)", MaxEnvelopeDepth-1, MaxEnvelopeDepth)
	}
	if p.Workspaces == nil {
		p.Workspaces = []expr.Workspace{}
	}
	src := sourceID(p)
	env := &expr.Envelope{
		SchemaVersion: expr.SchemaVersion, EventID: expr.EventID(p.EventName, src), EventName: p.EventName,
		OccurredAt: p.OccurredAt, Source: "host", Session: *p.Session, Turn: *p.Turn, Agent: p.Agent,
		Workspaces: p.Workspaces, PrimaryWorkspaceID: p.PrimaryWorkspaceID, Payload: p.Payload,
	}
	if p.payloadJSON != nil {
		if err := env.SetPayloadJSON(p.payloadJSON); err != nil {
			return nil, invalid("payload", "%v", err)
		}
	}
	return env, nil
}

// sourceID is p's source id: explicit, else derived (§3.2), else a random
// UUID (the source id of last resort).
func sourceID(p EmitParams) string {
	if p.SourceID != "" {
		return p.SourceID
	}
	if p.Turn != nil {
		if src, ok := expr.SourceID(p.EventName, p.Turn.ID, p.Payload); ok {
			return src
		}
	}
	return randid.UUID()
}

// PinSourceID sets p.SourceID when it is empty (derived, else a random
// UUID), so that every BuildEnvelope and Emit of p computes the same event
// id: a caller that needs the id before emitting (the CLI narrows its
// workers to it) pins it first.
func PinSourceID(p *EmitParams) { p.SourceID = sourceID(*p) }

// Emit builds the envelope and enqueues it durably (v2/events/emit): when no
// enabled definition listens to the event nothing is written (§3.3, the
// master switch does not matter, §12.1) and the reply is enqueued:false;
// otherwise INSERT OR IGNORE, committed (fsynced) before Emit returns.
// A duplicate id is silently ignored, its content not compared (§3.2).
func (b *Bridge) Emit(ctx context.Context, p EmitParams) (EmitResult, error) {
	env, err := BuildEnvelope(p, time.Now())
	if err != nil {
		return EmitResult{}, err
	}
	has, err := b.db.HasEnabledDefinition(ctx, env.EventName)
	if err != nil {
		return EmitResult{}, storeErr(err, "")
	}
	if !has {
		return EmitResult{EventID: env.EventID, Matched: []EmitMatch{}, Unbound: []EmitUnbound{}}, nil
	}
	raw, err := json.Marshal(env)
	if err != nil {
		return EmitResult{}, err
	}
	ev := store.Event{ID: env.EventID, Name: env.EventName, SessionID: env.Session.ID, TurnID: env.Turn.ID,
		Envelope: raw, Status: store.EventPending}
	if b.opts.ResolveAtEmit {
		if dup, m, ok := b.emitResolved(ctx, ev); ok {
			return EmitResult{EventID: env.EventID, Duplicate: dup, Enqueued: true, Matched: m.matched, Unbound: m.unbound}, nil
		}
	}
	b.mu.Lock()
	b.local[ev.ID] = ev // the dispatcher takes it from here instead of reading it back
	b.mu.Unlock()
	dup, err := b.db.Emit(ctx, ev)
	if err != nil || dup {
		b.mu.Lock()
		delete(b.local, ev.ID)
		b.mu.Unlock()
	}
	if err != nil {
		return EmitResult{}, storeErr(err, "")
	}
	matched, unbound, err := b.matchEvent(ctx, env)
	if err != nil {
		// The event is durable: the reply does not fail for the advisory part.
		b.log.Warn("v2 emit: listing the matched definitions", "event", env.EventID, "err", err)
	}
	// enqueued = the outbox holds the event (also for a duplicate).
	return EmitResult{EventID: env.EventID, Duplicate: dup, Enqueued: true, Matched: matched, Unbound: unbound}, nil
}

// emitResolved is Emit's one-transaction path (Options.ResolveAtEmit): the
// dispatcher's decision (resolveRuns, on the envelope as stored, as the
// dispatcher reads it) is made first and committed together with the event
// (store.EmitResolved). ok is false when the event was not stored: the
// master switch is off (§12.1: the event waits pending), the decision or
// the commit failed; Emit then stores it the ordinary way. The reply's
// matches come from the same reads as the decision.
func (b *Bridge) emitResolved(ctx context.Context, ev store.Event) (dup bool, m *matches, ok bool) {
	if set, err := b.db.GetSettings(ctx); err != nil || !set.Enabled {
		return false, nil, false
	}
	var env expr.Envelope
	if err := jsonexact.Unmarshal(ev.Envelope, &env); err != nil {
		return false, nil, false
	}
	var runs []store.NewRun
	var err error
	m = newMatches()
	if b.guard("dispatcher", func() { runs, err = b.resolveRuns(ctx, &env, m) }) || err != nil {
		return false, nil, false
	}
	dup, created, err := b.db.EmitResolved(ctx, ev, runs)
	if err != nil {
		b.log.Warn("v2 emit: storing the event with its runs failed; storing it pending for the dispatcher", "event", ev.ID, "err", err)
		return false, nil, false
	}
	if !dup {
		b.log.Debug("v2 event dispatched", "event", ev.ID, "name", env.EventName, "runs", len(created))
	}
	b.changed.broadcast()
	return dup, m, true
}
