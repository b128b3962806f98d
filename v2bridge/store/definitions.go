package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/hookside/hookside/internal/randid"
)

// Concurrency policies (§10.5).
const (
	SerialPerSession = "serial_per_session"
	Parallel         = "parallel"
)

// Definition is a stored hook definition (PROTOCOL.md §5.1). The store does
// not interpret Condition, Action, InputMapping or RetryPolicy; it keeps them
// as JSON text. ExecutionHash is computed by the caller (v2bridge, §8.1).
type Definition struct {
	ID                string          `json:"id"`
	Name              string          `json:"name"`
	Description       string          `json:"description,omitempty"`
	Enabled           bool            `json:"enabled"`
	EventName         string          `json:"eventName"`
	Condition         json.RawMessage `json:"condition,omitempty"` // nil = no condition
	Action            json.RawMessage `json:"action"`
	InputMapping      json.RawMessage `json:"inputMapping,omitempty"`
	TimeoutMs         int             `json:"timeoutMs"`
	RetryPolicy       json.RawMessage `json:"retryPolicy"`
	ConcurrencyPolicy string          `json:"concurrencyPolicy"`
	Revision          int             `json:"revision"`
	ExecutionHash     string          `json:"executionHash"`
	CreatedAt         time.Time       `json:"createdAt"`
	UpdatedAt         time.Time       `json:"updatedAt"`
}

const defCols = `id, name, description, enabled, event_name, condition_json, action_json,
	input_mapping_json, timeout_ms, retry_policy_json, concurrency_policy, revision,
	execution_hash, created_at, updated_at`

func scanDefinition(row interface{ Scan(...any) error }) (Definition, error) {
	var d Definition
	var cond, mapping sql.NullString
	var action, retry, created, updated string
	err := row.Scan(&d.ID, &d.Name, &d.Description, &d.Enabled, &d.EventName, &cond, &action,
		&mapping, &d.TimeoutMs, &retry, &d.ConcurrencyPolicy, &d.Revision, &d.ExecutionHash,
		&created, &updated)
	if err != nil {
		return d, err
	}
	if cond.Valid {
		d.Condition = json.RawMessage(cond.String)
	}
	if mapping.Valid {
		d.InputMapping = json.RawMessage(mapping.String)
	}
	d.Action = json.RawMessage(action)
	d.RetryPolicy = json.RawMessage(retry)
	d.CreatedAt, d.UpdatedAt = parseTS(created), parseTS(updated)
	return d, nil
}

func (d *Definition) check() error {
	switch {
	case d.Name == "":
		return fmt.Errorf("%w: definition name is empty", ErrInvalid)
	case d.EventName == "":
		return fmt.Errorf("%w: definition eventName is empty", ErrInvalid)
	case d.ExecutionHash == "":
		return fmt.Errorf("%w: definition executionHash is empty", ErrInvalid)
	case !validJSON(d.Action, false):
		return fmt.Errorf("%w: definition action is not JSON", ErrInvalid)
	case !validJSON(d.Condition, true), !validJSON(d.InputMapping, true), !validJSON(d.RetryPolicy, true):
		return fmt.Errorf("%w: definition condition/inputMapping/retryPolicy is not JSON", ErrInvalid)
	}
	if d.ConcurrencyPolicy == "" {
		d.ConcurrencyPolicy = SerialPerSession
	}
	if d.ConcurrencyPolicy != SerialPerSession && d.ConcurrencyPolicy != Parallel {
		return fmt.Errorf("%w: concurrencyPolicy %q", ErrInvalid, d.ConcurrencyPolicy)
	}
	if len(d.RetryPolicy) == 0 {
		d.RetryPolicy = json.RawMessage(`{"mode":"unsafe","maxAttempts":3,"backoffMs":1000}`)
	}
	if d.TimeoutMs == 0 {
		d.TimeoutMs = 15000
	}
	return nil
}

func validJSON(b json.RawMessage, optional bool) bool {
	if len(b) == 0 {
		return optional
	}
	return json.Valid(b)
}

// jsonNull maps an absent or literal-null JSON value to SQL NULL.
func jsonNull(b json.RawMessage) any {
	if len(b) == 0 || string(b) == "null" {
		return nil
	}
	return string(b)
}

// CreateDefinition stores d with revision 1 (PROTOCOL.md v2/definitions/create).
// An empty d.ID gets a generated "hook_…" id; timestamps are set by the store.
// A duplicate id is ErrConflict.
func (db *DB) CreateDefinition(ctx context.Context, d Definition) (Definition, error) {
	if err := d.check(); err != nil {
		return d, err
	}
	if d.ID == "" {
		d.ID = randid.New("hook_")
	}
	now := db.now()
	d.Revision = 1
	d.CreatedAt, d.UpdatedAt = now.UTC().Truncate(time.Microsecond), now.UTC().Truncate(time.Microsecond)
	err := db.writeTx(ctx, func(tx *sql.Tx) error { return insertDefinition(ctx, tx, d) })
	db.defs.invalidate()
	return d, err
}

func insertDefinition(ctx context.Context, tx *sql.Tx, d Definition) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO hook_definitions(`+defCols+`)
		VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
		d.ID, d.Name, d.Description, boolInt(d.Enabled), d.EventName, jsonNull(d.Condition),
		string(d.Action), jsonNull(d.InputMapping), d.TimeoutMs, string(d.RetryPolicy),
		d.ConcurrencyPolicy, d.Revision, d.ExecutionHash, ts(d.CreatedAt), ts(d.UpdatedAt))
	return err
}

// UpdateDefinition replaces the stored definition d.ID with d (the caller has
// merged the patch and recomputed ExecutionHash). Per §8.2, only when the
// execution hash changes is the revision incremented and every binding of the
// hook loses its trust (state needs_review, or stays disabled);
// bindingsNeedingReview counts the enabled bindings that now need review
// (disabled ones are not counted, as in the spec). Name, description and
// enabled changes keep revision and trust. Unknown id: ErrNotFound.
func (db *DB) UpdateDefinition(ctx context.Context, d Definition) (out Definition, bindingsNeedingReview int, err error) {
	if err := d.check(); err != nil {
		return d, 0, err
	}
	now := db.now()
	err = db.writeTx(ctx, func(tx *sql.Tx) error {
		bindingsNeedingReview = 0
		old, err := scanDefinition(tx.QueryRowContext(ctx,
			`SELECT `+defCols+` FROM hook_definitions WHERE id = ?`, d.ID))
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("definition %s: %w", d.ID, ErrNotFound)
		} else if err != nil {
			return err
		}
		out = d
		out.CreatedAt = old.CreatedAt
		out.UpdatedAt = now.UTC().Truncate(time.Microsecond)
		out.Revision = old.Revision
		if old.ExecutionHash != d.ExecutionHash {
			out.Revision++
			res, err := tx.ExecContext(ctx, `UPDATE hook_bindings
				SET trusted_execution_hash = NULL, trusted_at = NULL, updated_at = ?
				WHERE hook_id = ? AND enabled = 1`, ts(now), d.ID)
			if err != nil {
				return err
			}
			n, _ := res.RowsAffected()
			bindingsNeedingReview = int(n)
			if _, err := tx.ExecContext(ctx, `UPDATE hook_bindings
				SET trusted_execution_hash = NULL, trusted_at = NULL
				WHERE hook_id = ? AND enabled = 0`, d.ID); err != nil {
				return err
			}
		}
		_, err = tx.ExecContext(ctx, `UPDATE hook_definitions SET name=?, description=?, enabled=?,
			event_name=?, condition_json=?, action_json=?, input_mapping_json=?, timeout_ms=?,
			retry_policy_json=?, concurrency_policy=?, revision=?, execution_hash=?, updated_at=?
			WHERE id=?`,
			out.Name, out.Description, boolInt(out.Enabled), out.EventName, jsonNull(out.Condition),
			string(out.Action), jsonNull(out.InputMapping), out.TimeoutMs, string(out.RetryPolicy),
			out.ConcurrencyPolicy, out.Revision, out.ExecutionHash, ts(out.UpdatedAt), out.ID)
		return err
	})
	db.defs.invalidate()
	return out, bindingsNeedingReview, err
}

// DeleteDefinition deletes the definition; its bindings are deleted by the
// foreign-key cascade and its runs are kept (they hold the execution snapshot,
// §9.2). It returns both counts (PROTOCOL.md v2/definitions/delete).
func (db *DB) DeleteDefinition(ctx context.Context, id string) (bindingsDeleted, runsRetained int, err error) {
	err = db.writeTx(ctx, func(tx *sql.Tx) error {
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM hook_bindings WHERE hook_id = ?`, id).Scan(&bindingsDeleted); err != nil {
			return err
		}
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM hook_runs WHERE hook_id = ?`, id).Scan(&runsRetained); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `DELETE FROM hook_definitions WHERE id = ?`, id)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("definition %s: %w", id, ErrNotFound)
		}
		return nil
	})
	db.defs.invalidate()
	if err != nil {
		return 0, 0, err
	}
	return bindingsDeleted, runsRetained, nil
}

// GetDefinition returns one definition or ErrNotFound.
func (db *DB) GetDefinition(ctx context.Context, id string) (Definition, error) {
	d, err := scanDefinition(db.r.QueryRowContext(ctx, `SELECT `+defCols+` FROM hook_definitions WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return d, fmt.Errorf("definition %s: %w", id, ErrNotFound)
	}
	return d, mapErr(err)
}

// ListDefinitions returns the definitions, all or those of one eventName
// (empty = all), ordered by creation time.
func (db *DB) ListDefinitions(ctx context.Context, eventName string) ([]Definition, error) {
	q := `SELECT ` + defCols + ` FROM hook_definitions`
	var args []any
	if eventName != "" {
		q += ` WHERE event_name = ?`
		args = append(args, eventName)
	}
	rows, err := db.r.QueryContext(ctx, q+` ORDER BY created_at, id`, args...)
	if err != nil {
		return nil, mapErr(err)
	}
	defer rows.Close()
	var out []Definition
	for rows.Next() {
		d, err := scanDefinition(rows)
		if err != nil {
			return nil, mapErr(err)
		}
		out = append(out, d)
	}
	return out, mapErr(rows.Err())
}

// CountRunsOfHook returns how many runs reference hookID (the "M" of the
// delete confirmation, §9.2).
func (db *DB) CountRunsOfHook(ctx context.Context, hookID string) (int, error) {
	var n int
	err := db.r.QueryRowContext(ctx, `SELECT count(*) FROM hook_runs WHERE hook_id = ?`, hookID).Scan(&n)
	return n, mapErr(err)
}

// HasEnabledDefinition reports whether at least one enabled definition listens
// to eventName: the emit short-circuit of §3.3 (no enabled definition = no
// outbox write). It does not look at the master switch (§12.1).
//
// It is answered from memory. The cache is dropped on every definition write
// by this process; writes by other processes are noticed with PRAGMA
// data_version on a pinned reader connection (changes when any other
// connection commits) followed, only then, by a read of meta.defs_gen (bumped
// by triggers on hook_definitions), so the usual cost is one tiny pragma.
// With Options.OneConnection it reads the table every time.
func (db *DB) HasEnabledDefinition(ctx context.Context, eventName string) (bool, error) {
	if db.opts.OneConnection {
		var has bool
		err := db.w.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM hook_definitions
			WHERE event_name = ? AND enabled = 1)`, eventName).Scan(&has)
		return has, mapErr(err)
	}
	return db.defs.has(ctx, eventName)
}

// defCache is the in-memory set of event names with an enabled definition.
type defCache struct {
	mu     sync.Mutex
	db     *DB
	conn   *sql.Conn // pinned reader: data_version is per connection
	valid  bool
	dv     int64
	gen    int64
	events map[string]bool
}

func (c *defCache) init(db *DB) error {
	c.db = db
	conn, err := db.r.Conn(context.Background())
	if err != nil {
		return mapErr(err)
	}
	c.conn = conn
	return nil
}

func (c *defCache) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.conn != nil {
		c.conn.Close()
		c.conn = nil
	}
}

func (c *defCache) invalidate() {
	c.mu.Lock()
	c.valid = false
	c.mu.Unlock()
}

func (c *defCache) has(ctx context.Context, eventName string) (bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.conn == nil {
		return false, ErrClosed
	}
	var dv int64
	if err := c.conn.QueryRowContext(ctx, `PRAGMA data_version`).Scan(&dv); err != nil {
		return false, mapErr(err)
	}
	if c.valid && dv == c.dv {
		return c.events[eventName], nil
	}
	var gen int64
	if err := c.conn.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = 'defs_gen'`).Scan(&gen); err != nil {
		return false, mapErr(err)
	}
	if c.valid && gen == c.gen {
		c.dv = dv
		return c.events[eventName], nil
	}
	// Reload. dv was read before gen and the set: a concurrent change makes
	// the next call see a newer data_version and check again.
	rows, err := c.conn.QueryContext(ctx, `SELECT DISTINCT event_name FROM hook_definitions WHERE enabled = 1`)
	if err != nil {
		return false, mapErr(err)
	}
	events := map[string]bool{}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			rows.Close()
			return false, mapErr(err)
		}
		events[name] = true
	}
	if err := rows.Close(); err != nil {
		return false, mapErr(err)
	}
	if err := rows.Err(); err != nil {
		return false, mapErr(err)
	}
	c.events, c.gen, c.dv, c.valid = events, gen, dv, true
	return events[eventName], nil
}
