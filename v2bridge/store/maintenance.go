package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hookside/hookside/internal/jsonexact"
	"github.com/hookside/hookside/internal/jsonint"
	"github.com/hookside/hookside/internal/randid"
)

// RetentionPolicy says how long finished rows are kept. A value ≤ 0 keeps
// those rows forever. The spec only reclaims resolved events (7 days, §9.2);
// hookside also reclaims failed events and old runs (spec/README.md, §14.2).
type RetentionPolicy struct {
	ResolvedEventDays int `json:"resolvedEventDays"` // default 7 (§9.2)
	FailedEventDays   int `json:"failedEventDays"`   // default 30
	RunDays           int `json:"runDays"`           // terminal runs; default 90
	BatchLimit        int `json:"batchLimit"`        // rows per category per Sweep; default 500 (§9.2)
}

// DefaultRetention is the policy used while none is stored.
func DefaultRetention() RetentionPolicy {
	return RetentionPolicy{ResolvedEventDays: 7, FailedEventDays: 30, RunDays: 90, BatchLimit: 500}
}

// Settings are the V2 settings (PROTOCOL.md v2/settings/get).
type Settings struct {
	// Enabled is the master switch (§12); absent = on. While off,
	// ClaimEvents and ClaimRun claim nothing; Emit still writes (§12.1).
	Enabled bool `json:"enabled"`
	// AllowHighWrite lets high-write tools be selected (§14.1; off by default).
	AllowHighWrite bool            `json:"allowHighWrite"`
	Retention      RetentionPolicy `json:"retention"`
}

// SettingsPatch is the v2/settings/update input; nil fields are unchanged.
type SettingsPatch struct {
	Enabled        *bool
	AllowHighWrite *bool
	Retention      *RetentionPolicy // replaces the whole policy
	// RetentionFields updates only the fields it sets (v2/settings/update),
	// applied after Retention.
	RetentionFields *RetentionPatch
}

// RetentionPatch is a field-by-field retention update; nil fields are kept.
type RetentionPatch struct {
	ResolvedEventDays *int `json:"resolvedEventDays"`
	FailedEventDays   *int `json:"failedEventDays"`
	RunDays           *int `json:"runDays"`
	BatchLimit        *int `json:"batchLimit"`
}

// RetentionDays is the range of the day counts of a retention policy: 0
// keeps the rows forever, at most 100 years (more would overflow the
// cutoff time Sweep computes). RetentionBatch is the range of BatchLimit
// (0 = the default 500).
var (
	RetentionDays  = jsonint.Range{Min: 0, Max: 36500}
	RetentionBatch = jsonint.Range{Min: 0, Max: 100000}
)

// RetentionRange is the range of the RetentionPatch field named name
// ("runDays", "batchLimit"); ok is false for another name.
func RetentionRange(name string) (r jsonint.Range, ok bool) {
	switch name {
	case "resolvedEventDays", "failedEventDays", "runDays":
		return RetentionDays, true
	case "batchLimit":
		return RetentionBatch, true
	}
	return jsonint.Range{}, false
}

// Check returns the name and the reason of the first field of p outside
// its RetentionRange, or "", "".
func (p *RetentionPatch) Check() (field, reason string) {
	for _, f := range []struct {
		name string
		v    *int
	}{{"resolvedEventDays", p.ResolvedEventDays}, {"failedEventDays", p.FailedEventDays}, {"runDays", p.RunDays}, {"batchLimit", p.BatchLimit}} {
		if f.v == nil {
			continue
		}
		r, _ := RetentionRange(f.name)
		if reason := r.Check(int64(*f.v)); reason != "" {
			return f.name, reason
		}
	}
	return "", ""
}

// Apply returns r with the fields p sets.
func (p *RetentionPatch) Apply(r RetentionPolicy) RetentionPolicy {
	for _, f := range []struct {
		src *int
		dst *int
	}{{p.ResolvedEventDays, &r.ResolvedEventDays}, {p.FailedEventDays, &r.FailedEventDays}, {p.RunDays, &r.RunDays}, {p.BatchLimit, &r.BatchLimit}} {
		if f.src != nil {
			*f.dst = *f.src
		}
	}
	return r
}

func defaultSettings() Settings {
	return Settings{Enabled: true, Retention: DefaultRetention()}
}

// GetSettings returns the settings, defaults filled in.
func (db *DB) GetSettings(ctx context.Context) (Settings, error) {
	return readSettings(ctx, db.r)
}

type querier interface {
	QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row
}

func readSettings(ctx context.Context, q querier) (Settings, error) {
	s := defaultSettings()
	rows, err := q.QueryContext(ctx, `SELECT key, value FROM settings`)
	if err != nil {
		return s, mapErr(err)
	}
	defer rows.Close()
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return s, mapErr(err)
		}
		var target any
		switch k {
		case "enabled":
			target = &s.Enabled
		case "allowHighWrite":
			target = &s.AllowHighWrite
		case "retention":
			target = &s.Retention
		default:
			continue
		}
		if err := jsonexact.Unmarshal([]byte(v), target); err != nil {
			return s, fmt.Errorf("setting %s: %w", k, err)
		}
	}
	return s, mapErr(rows.Err())
}

// UpdateSettings applies p and returns the new settings.
func (db *DB) UpdateSettings(ctx context.Context, p SettingsPatch) (Settings, error) {
	var out Settings
	now := ts(db.now())
	err := db.writeTx(ctx, func(tx *sql.Tx) error {
		put := func(k string, v any) error {
			b, err := json.Marshal(v)
			if err != nil {
				return err
			}
			_, err = tx.ExecContext(ctx, `INSERT INTO settings(key, value, updated_at) VALUES (?,?,?)
				ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`, k, string(b), now)
			return err
		}
		if p.Enabled != nil {
			if err := put("enabled", *p.Enabled); err != nil {
				return err
			}
		}
		if p.AllowHighWrite != nil {
			if err := put("allowHighWrite", *p.AllowHighWrite); err != nil {
				return err
			}
		}
		if p.Retention != nil || p.RetentionFields != nil {
			cur, err := readSettings(ctx, tx)
			if err != nil {
				return err
			}
			r := cur.Retention
			if p.Retention != nil {
				r = *p.Retention
			}
			if p.RetentionFields != nil {
				r = p.RetentionFields.Apply(r)
			}
			if err := put("retention", r); err != nil {
				return err
			}
		}
		var err error
		out, err = readSettings(ctx, tx)
		return err
	})
	return out, err
}

// masterSwitch reads the master switch inside a transaction (§12.1).
func masterSwitch(ctx context.Context, tx *sql.Tx) (bool, error) {
	var v string
	err := tx.QueryRowContext(ctx, `SELECT value FROM settings WHERE key = 'enabled'`).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return true, nil
	}
	if err != nil {
		return false, err
	}
	return v != "false", nil
}

// GetKV returns the value stored under key (e.g. a compensator cursor); ok is
// false when absent.
func (db *DB) GetKV(ctx context.Context, key string) (value string, ok bool, err error) {
	err = db.r.QueryRowContext(ctx, `SELECT value FROM kv WHERE key = ?`, key).Scan(&value)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	return value, err == nil, mapErr(err)
}

// PutKV stores value under key.
func (db *DB) PutKV(ctx context.Context, key, value string) error {
	now := ts(db.now())
	return db.writeTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO kv(key, value, updated_at) VALUES (?,?,?)
			ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`, key, value, now)
		return err
	})
}

// DeleteKV removes key (no error when absent).
func (db *DB) DeleteKV(ctx context.Context, key string) error {
	return db.writeTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM kv WHERE key = ?`, key)
		return err
	})
}

// PurgeSession deletes every run, event and mailbox message of sessionID
// in one transaction (§9.2: deleting a session is the cleanup path for its
// runs and events) and returns the run and event counts (PurgeSessionData
// also returns the message count). Runs still queued or running are deleted
// too; a worker holding one then gets ErrLeaseLost/ErrNotFound when it
// finishes.
func (db *DB) PurgeSession(ctx context.Context, sessionID string) (runs, events int, err error) {
	p, err := db.PurgeSessionData(ctx, sessionID)
	return p.Runs, p.Events, err
}

// Swept reports what one Sweep deleted. More is true when a category hit the
// batch limit (call Sweep again).
type Swept struct {
	ResolvedEvents int
	FailedEvents   int
	Runs           int
	More           bool
}

// Sweep applies the retention policy at now, deleting at most
// policy.BatchLimit rows per category, oldest first, in one transaction:
// resolved events older than ResolvedEventDays (by resolved_at), failed
// events older than FailedEventDays (by resolved_at, the failure time), and
// terminal runs (not queued or running) created more than RunDays ago. Events
// still pending or dispatching are never swept. The caller throttles (the
// spec sweeps at most every 10 minutes, §14.2).
func (db *DB) Sweep(ctx context.Context, now time.Time, policy RetentionPolicy) (Swept, error) {
	limit := policy.BatchLimit
	if limit <= 0 {
		limit = 500
	}
	cutoff := func(days int) string { return ts(now.Add(-time.Duration(days) * 24 * time.Hour)) }
	var out Swept
	err := db.writeTx(ctx, func(tx *sql.Tx) error {
		out = Swept{}
		del := func(days int, q string) (int, error) {
			if days <= 0 {
				return 0, nil
			}
			res, err := tx.ExecContext(ctx, q, cutoff(days), limit)
			if err != nil {
				return 0, err
			}
			n, _ := res.RowsAffected()
			if int(n) == limit {
				out.More = true
			}
			return int(n), nil
		}
		var err error
		if out.ResolvedEvents, err = del(policy.ResolvedEventDays, `DELETE FROM hook_events WHERE rowid IN (
			SELECT rowid FROM hook_events WHERE status = 'resolved' AND resolved_at < ?
			ORDER BY resolved_at LIMIT ?)`); err != nil {
			return err
		}
		if out.FailedEvents, err = del(policy.FailedEventDays, `DELETE FROM hook_events WHERE rowid IN (
			SELECT rowid FROM hook_events WHERE status = 'failed' AND resolved_at < ?
			ORDER BY resolved_at LIMIT ?)`); err != nil {
			return err
		}
		out.Runs, err = del(policy.RunDays, `DELETE FROM hook_runs WHERE seq IN (
			SELECT seq FROM hook_runs WHERE created_at < ? AND status NOT IN ('queued','running')
			ORDER BY created_at LIMIT ?)`)
		return err
	})
	return out, err
}

// OwnershipKey is the kv key of the legacy-migration ownership marker (§13,
// "hooks-v2/ownership").
const OwnershipKey = "hooks-v2/ownership"

// LegacyBinding is a binding written by the legacy migration: authorized with
// its definition's own hash (active), or disabled when Enabled is false (§13).
type LegacyBinding struct {
	HookID    string
	ScopeKind string
	ScopeID   string
	Enabled   bool
}

// LegacyImport is the storage side of the §13 migration, prepared by the
// caller from the legacy configuration.
type LegacyImport struct {
	// Definitions have deterministic ids (builtin-legacy-<node>-<action>);
	// an id that already exists is left as it is.
	Definitions []Definition
	// Bindings for those (or already existing) definitions; an existing
	// (hook, scope) binding is left as it is.
	Bindings []LegacyBinding
	// Ownership, when not empty, is written to kv[OwnershipKey]. A fresh
	// install without legacy configuration writes no marker (§13).
	Ownership string
}

// LegacyResult counts what ApplyLegacyImport created.
type LegacyResult struct {
	DefinitionsCreated int
	BindingsCreated    int
}

// ApplyLegacyImport writes im in one transaction: all or nothing (§13 "整个过
// 程在一个数据库事务里，任一步失败就整体回滚"). It is idempotent: re-running it
// creates nothing new.
func (db *DB) ApplyLegacyImport(ctx context.Context, im LegacyImport) (LegacyResult, error) {
	for i := range im.Definitions {
		if im.Definitions[i].ID == "" {
			return LegacyResult{}, fmt.Errorf("%w: legacy definition without id", ErrInvalid)
		}
		if err := im.Definitions[i].check(); err != nil {
			return LegacyResult{}, err
		}
	}
	now := db.now().UTC().Truncate(time.Microsecond)
	var out LegacyResult
	err := db.writeTx(ctx, func(tx *sql.Tx) error {
		out = LegacyResult{}
		for _, d := range im.Definitions {
			d.Revision, d.CreatedAt, d.UpdatedAt = 1, now, now
			res, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO hook_definitions(`+defCols+`)
				VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
				d.ID, d.Name, d.Description, boolInt(d.Enabled), d.EventName, jsonNull(d.Condition),
				string(d.Action), jsonNull(d.InputMapping), d.TimeoutMs, string(d.RetryPolicy),
				d.ConcurrencyPolicy, d.Revision, d.ExecutionHash, ts(d.CreatedAt), ts(d.UpdatedAt))
			if err != nil {
				return err
			}
			n, _ := res.RowsAffected()
			out.DefinitionsCreated += int(n)
		}
		for _, lb := range im.Bindings {
			if scopeOrder(lb.ScopeKind) < 0 || (lb.ScopeKind != ScopeApplication && lb.ScopeID == "") {
				return fmt.Errorf("%w: legacy binding scope %s/%q", ErrInvalid, lb.ScopeKind, lb.ScopeID)
			}
			if lb.ScopeKind == ScopeApplication {
				lb.ScopeID = ""
			}
			var hash string
			if err := tx.QueryRowContext(ctx, `SELECT execution_hash FROM hook_definitions WHERE id = ?`,
				lb.HookID).Scan(&hash); errors.Is(err, sql.ErrNoRows) {
				return fmt.Errorf("legacy binding: definition %s: %w", lb.HookID, ErrNotFound)
			} else if err != nil {
				return err
			}
			res, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO hook_bindings(id, hook_id, scope_kind, scope_id,
				enabled, trusted_execution_hash, trusted_at, created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?)`,
				randid.New("bind_"), lb.HookID, lb.ScopeKind, lb.ScopeID, boolInt(lb.Enabled), hash, ts(now), ts(now), ts(now))
			if err != nil {
				return err
			}
			n, _ := res.RowsAffected()
			out.BindingsCreated += int(n)
		}
		if im.Ownership != "" {
			if _, err := tx.ExecContext(ctx, `INSERT INTO kv(key, value, updated_at) VALUES (?,?,?)
				ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
				OwnershipKey, im.Ownership, ts(now)); err != nil {
				return err
			}
		}
		return nil
	})
	db.defs.invalidate()
	return out, err
}

// Recovered reports what RecoverExpired did.
type Recovered struct {
	EventsReleased int   // dispatching → pending
	RunsUnknown    []Run // running → outcome_unknown
}

// RecoverExpired applies §9.4 crash recovery at now: events whose dispatch
// lease expired go back to pending (dispatching again is safe); runs whose
// lease expired become outcome_unknown and are never re-sent (the action may
// have happened). Call it at start-up; the maintenance timer of a process
// with runs in flight calls RenewAndRecover. A read finds out first whether a
// lease expired; the write transaction is taken only then (a lease expiring
// between the two is the next maintenance tick's).
func (db *DB) RecoverExpired(ctx context.Context, now time.Time) (Recovered, error) {
	nowS := ts(now)
	var expired bool
	if err := db.r.QueryRowContext(ctx, `SELECT
		EXISTS (SELECT 1 FROM hook_events WHERE status = 'dispatching' AND lease_until < ?) OR
		EXISTS (SELECT 1 FROM hook_runs WHERE status = 'running' AND lease_until < ?)`, nowS, nowS).Scan(&expired); err != nil {
		return Recovered{}, mapErr(err)
	}
	if !expired {
		return Recovered{}, nil
	}
	return db.RenewAndRecover(ctx, now, Renewal{})
}

// Renewal names the runs a process is executing right now: RenewAndRecover
// extends their leases to now+Lease before it sweeps.
type Renewal struct {
	Owner  string
	RunIDs []string
	Lease  time.Duration
}

// RenewAndRecover is RecoverExpired preceded, in the same transaction, by a
// renewal of own's in-flight runs (§9.4 "续租前会先给自己的在途运行续期，避免把
// 正在跑的自己误判成僵尸"): after a stall longer than the lease (SIGSTOP, a
// suspended laptop, a paused VM) or a wall-clock jump, the caller's own live
// runs are not turned into outcome_unknown. Only runs still running under
// own.Owner are renewed.
func (db *DB) RenewAndRecover(ctx context.Context, now time.Time, own Renewal) (Recovered, error) {
	var rec Recovered
	nowS := ts(now)
	err := db.writeTx(ctx, func(tx *sql.Tx) error {
		rec = Recovered{}
		if own.Owner != "" && own.Lease > 0 && len(own.RunIDs) > 0 {
			args := []any{ts(now.Add(own.Lease)), nowS, own.Owner}
			for _, id := range own.RunIDs {
				args = append(args, id)
			}
			if _, err := tx.ExecContext(ctx, `UPDATE hook_runs SET lease_until = ?, updated_at = ?
				WHERE status = 'running' AND lease_owner = ? AND id IN (?`+strings.Repeat(`,?`, len(own.RunIDs)-1)+`)`,
				args...); err != nil {
				return err
			}
		}
		res, err := tx.ExecContext(ctx, `UPDATE hook_events SET status = 'pending', lease_owner = NULL,
			lease_until = NULL WHERE status = 'dispatching' AND lease_until < ?`, nowS)
		if err != nil {
			return err
		}
		n, _ := res.RowsAffected()
		rec.EventsReleased = int(n)
		rows, err := tx.QueryContext(ctx, `UPDATE hook_runs SET status = 'outcome_unknown',
			error_message = ?, finished_at = ?, duration_ms = `+durationExpr+`,
			lease_owner = NULL, lease_until = NULL, updated_at = ?, `+dropPrivateExecution+`
			WHERE status = 'running' AND lease_until < ? RETURNING `+runCols,
			recoveredMessage, nowS, nowS, nowS, nowS)
		if err != nil {
			return err
		}
		rec.RunsUnknown, err = scanRuns(rows, nil)
		return err
	})
	if err != nil {
		return Recovered{}, err
	}
	db.subs.runsChanged(rec.RunsUnknown)
	return rec, nil
}
