package v2bridge

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"strconv"
	"time"

	"github.com/hookside/hookside/internal/jsonexact"
	"github.com/hookside/hookside/v2bridge/expr"
)

// The compensator (hooks-v2-handbook §9.3, "Compensator 补偿扫描 60 秒"):
// a host that declared capabilities.lifecycleReplay is asked for its stable
// lifecycle facts every DefaultReplayInterval with the server→client request
// host/lifecycle/facts {cursor} → {events, cursor}. What it returns is
// emitted through the normal emit path (Bridge.Emit), whose event-id dedupe
// makes a replay idempotent; the cursor is kept in the store's kv table so
// it survives restarts. Two limits of the spec are kept: the first round only
// initialises the cursor (no backfill of history), and permission.requested
// and question.requested are never replayed (their facts live in memory, the
// spec does not promise them across crashes).

// MethodLifecycleFacts is the host request of the compensator.
const MethodLifecycleFacts = "host/lifecycle/facts"

// DefaultReplayInterval is the compensator period (§9.3: 60 s).
const DefaultReplayInterval = 60 * time.Second

// EnvReplayIntervalMs overrides the period (tests).
const EnvReplayIntervalMs = "HOOKSIDE_REPLAY_INTERVAL_MS"

// ReplayCursorKey is the kv key prefix of the compensator cursor; the host's
// clientInfo.name follows, so two kinds of hosts sharing a home keep
// separate cursors.
const ReplayCursorKey = "hooks-v2/replay-cursor/"

// ReplayInterval returns the compensator period: $HOOKSIDE_REPLAY_INTERVAL_MS
// when it is a positive integer, else DefaultReplayInterval.
func ReplayInterval() time.Duration {
	if v, err := strconv.Atoi(os.Getenv(EnvReplayIntervalMs)); err == nil && v > 0 {
		return time.Duration(v) * time.Millisecond
	}
	return DefaultReplayInterval
}

// FactsParams are the host/lifecycle/facts params: the cursor the host gave
// last time, verbatim (any JSON value), or null on the first round.
type FactsParams struct {
	Cursor json.RawMessage `json:"cursor"`
}

// FactsResult is the host's answer: lifecycle events after cursor, each in
// the v2/events/emit params shape, and the new cursor.
type FactsResult struct {
	Events []json.RawMessage `json:"events"`
	Cursor json.RawMessage   `json:"cursor"`
}

// ReplayReport says what one round did.
type ReplayReport struct {
	// Initialised: this was the first round; the cursor was stored and the
	// events (if any) ignored.
	Initialised bool
	Emitted     int // events written to the outbox now
	Duplicates  int // already there (or nobody listens: nothing to write)
	Skipped     int // permission.requested / question.requested
	Invalid     int // not valid emit params: dropped
	Cursor      json.RawMessage
}

// notReplayed are the events the compensator never replays (§9.3).
var notReplayed = map[string]bool{expr.EventPermissionRequested: true, expr.EventQuestionRequested: true}

func isNull(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) == 0 || string(t) == "null"
}

// ReplayOnce runs one compensator round against h, with the cursor stored
// under key (ReplayCursorKey + the host's name). A host error or timeout
// (ctx) returns the error and changes nothing: the next round asks again
// with the same cursor. The cursor advances only when every event of the
// answer was handled (emitted, duplicate, skipped or invalid); a database
// failure while emitting keeps the old cursor, and the next round's emits
// are deduplicated by event id.
func (b *Bridge) ReplayOnce(ctx context.Context, h Host, key string) (ReplayReport, error) {
	var rep ReplayReport
	stored, ok, err := b.db.GetKV(ctx, key)
	if err != nil {
		return rep, storeErr(err, "")
	}
	params := FactsParams{Cursor: json.RawMessage("null")}
	if ok {
		params.Cursor = json.RawMessage(stored)
	}
	var res FactsResult
	if err := h.Call(ctx, MethodLifecycleFacts, params, &res); err != nil {
		return rep, err
	}
	if !ok {
		// First round: initialise the cursor, no backfill (§9.3).
		rep.Initialised = true
		if isNull(res.Cursor) {
			return rep, nil // the host has no cursor yet: ask again next round
		}
		rep.Cursor = res.Cursor
		return rep, storeErr(b.db.PutKV(ctx, key, string(bytes.TrimSpace(res.Cursor))), "")
	}
	for _, raw := range res.Events {
		var p EmitParams
		if err := jsonexact.Unmarshal(raw, &p); err != nil {
			rep.Invalid++
			b.log.Warn("compensator: host/lifecycle/facts event is not emit params", "err", err)
			continue
		}
		if notReplayed[p.EventName] {
			rep.Skipped++
			continue
		}
		r, err := b.Emit(ctx, p)
		var ie *InvalidError
		switch {
		case errors.As(err, &ie):
			rep.Invalid++
			b.log.Warn("compensator: dropping an invalid replayed event", "event", p.EventName, "err", err)
		case err != nil:
			return rep, err // keep the cursor: the next round replays (deduplicated)
		case r.Enqueued && !r.Duplicate:
			rep.Emitted++
		default:
			rep.Duplicates++
		}
	}
	if !isNull(res.Cursor) && !bytes.Equal(bytes.TrimSpace(res.Cursor), []byte(stored)) {
		rep.Cursor = res.Cursor
		if err := b.db.PutKV(ctx, key, string(bytes.TrimSpace(res.Cursor))); err != nil {
			return rep, storeErr(err, "")
		}
	}
	return rep, nil
}
