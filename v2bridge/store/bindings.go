package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	sqlite3 "modernc.org/sqlite/lib"

	"github.com/hookside/hookside/internal/randid"
)

// Scope kinds (§7.1), in ascending priority.
const (
	ScopeApplication = "application"
	ScopeWorkspace   = "workspace"
	ScopeAgent       = "agent"
	ScopeSession     = "session"
)

// Binding states (§7.2).
const (
	BindingActive      = "active"
	BindingNeedsReview = "needs_review"
	BindingDisabled    = "disabled"
)

// Binding authorizes a definition in one scope (§7, PROTOCOL.md §5.1). State
// is derived on read from Enabled and whether TrustedExecutionHash equals the
// definition's current execution hash (§7.2): enabled+trusted = active,
// enabled+untrusted = needs_review, not enabled = disabled.
type Binding struct {
	ID                   string    `json:"id"`
	HookID               string    `json:"hookId"`
	ScopeKind            string    `json:"scopeKind"`
	ScopeID              string    `json:"scopeId"`
	Enabled              bool      `json:"enabled"`
	TrustedExecutionHash string    `json:"trustedExecutionHash,omitempty"`
	TrustedAt            time.Time `json:"trustedAt,omitzero"`
	State                string    `json:"state"`
	CreatedAt            time.Time `json:"createdAt"`
	UpdatedAt            time.Time `json:"updatedAt"`
}

// BindingPatch is the v2/bindings/update input. A nil field is left alone.
type BindingPatch struct {
	Enabled *bool
	// Authorize, when set, is an explicit (re)authorization with that hash
	// (§7.3): equal to the definition's current hash = trusted now; any other
	// value = an explicit intent that does not match, so trust is dropped
	// (needs_review) rather than silently kept. When nil, existing trust is
	// kept (it stays valid only while the hash still matches).
	Authorize *string
	// RequireCurrent, with Authorize set, refuses an Authorize other than
	// the definition's current execution hash: UpdateBinding then changes
	// nothing and fails with a *HashMismatchError, instead of dropping the
	// binding's trust. For a hash a person typed, where a typo must not
	// pass for a deliberate downgrade.
	RequireCurrent bool
}

// ErrHashMismatch: an authorization with RequireCurrent named a hash
// other than the definition's current execution hash; the error is a
// *HashMismatchError.
var ErrHashMismatch = errors.New("store: not the current execution hash")

// HashMismatchError is a refused authorization (BindingPatch.RequireCurrent):
// the binding was not changed. errors.Is(err, ErrHashMismatch) holds.
type HashMismatchError struct {
	BindingID string
	HookID    string // the binding's definition
	Current   string // the definition's execution hash
	Given     string // the hash the caller authorized
}

func (e *HashMismatchError) Error() string {
	return fmt.Sprintf("binding %s not changed: authorize hash %q is not the current execution hash of definition %s (%s)",
		e.BindingID, e.Given, e.HookID, e.Current)
}

// Is makes errors.Is(err, ErrHashMismatch) hold.
func (e *HashMismatchError) Is(target error) bool { return target == ErrHashMismatch }

func scopeOrder(kind string) int {
	switch kind {
	case ScopeApplication:
		return 0
	case ScopeWorkspace:
		return 1
	case ScopeAgent:
		return 2
	case ScopeSession:
		return 3
	}
	return -1
}

const bindingSelect = `SELECT b.id, b.hook_id, b.scope_kind, b.scope_id, b.enabled,
	b.trusted_execution_hash, b.trusted_at, b.created_at, b.updated_at, d.execution_hash
	FROM hook_bindings b JOIN hook_definitions d ON d.id = b.hook_id`

func scanBinding(row interface{ Scan(...any) error }) (Binding, error) {
	var b Binding
	var trusted, trustedAt sql.NullString
	var created, updated, current string
	if err := row.Scan(&b.ID, &b.HookID, &b.ScopeKind, &b.ScopeID, &b.Enabled, &trusted, &trustedAt,
		&created, &updated, &current); err != nil {
		return b, err
	}
	b.TrustedExecutionHash = trusted.String
	if trustedAt.Valid {
		b.TrustedAt = parseTS(trustedAt.String)
	}
	b.CreatedAt, b.UpdatedAt = parseTS(created), parseTS(updated)
	switch {
	case !b.Enabled:
		b.State = BindingDisabled
	case trusted.Valid && trusted.String == current:
		b.State = BindingActive
	default:
		b.State = BindingNeedsReview
	}
	return b, nil
}

// CreateBinding binds hookID to a scope, enabled and authorized with the
// definition's current execution hash (§7.3 "新增绑定即自动授权并启用").
// application forces scopeID to ""; other scopes need a non-empty scopeID
// (ErrInvalid). A second binding for the same (hook, scope kind, scope id) is
// ErrConflict; an unknown hook is ErrNotFound.
func (db *DB) CreateBinding(ctx context.Context, hookID, scopeKind, scopeID string) (Binding, error) {
	return db.createBinding(ctx, Binding{HookID: hookID, ScopeKind: scopeKind, ScopeID: scopeID, Enabled: true}, true)
}

func (db *DB) createBinding(ctx context.Context, b Binding, authorize bool) (Binding, error) {
	if scopeOrder(b.ScopeKind) < 0 {
		return b, fmt.Errorf("%w: scopeKind %q", ErrInvalid, b.ScopeKind)
	}
	if b.ScopeKind == ScopeApplication {
		b.ScopeID = ""
	} else if b.ScopeID == "" {
		return b, fmt.Errorf("%w: scopeId is required for scope %s", ErrInvalid, b.ScopeKind)
	}
	if b.ID == "" {
		b.ID = randid.New("bind_")
	}
	var out Binding
	err := db.writeTx(ctx, func(tx *sql.Tx) error {
		var err error
		out, err = insertBinding(ctx, tx, b, authorize, db.now())
		return err
	})
	return out, err
}

// insertBinding inserts b; with authorize the trust is the definition's
// current hash.
func insertBinding(ctx context.Context, tx *sql.Tx, b Binding, authorize bool, now time.Time) (Binding, error) {
	var hash string
	err := tx.QueryRowContext(ctx, `SELECT execution_hash FROM hook_definitions WHERE id = ?`, b.HookID).Scan(&hash)
	if errors.Is(err, sql.ErrNoRows) {
		return b, fmt.Errorf("definition %s: %w", b.HookID, ErrNotFound)
	} else if err != nil {
		return b, err
	}
	var trusted, trustedAt any
	if authorize {
		trusted, trustedAt = hash, ts(now)
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO hook_bindings(id, hook_id, scope_kind, scope_id, enabled,
		trusted_execution_hash, trusted_at, created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?)`,
		b.ID, b.HookID, b.ScopeKind, b.ScopeID, boolInt(b.Enabled), trusted, trustedAt, ts(now), ts(now))
	if sqliteCode(err) == sqlite3.SQLITE_CONSTRAINT {
		return b, fmt.Errorf("binding %s/%s/%q: %w", b.HookID, b.ScopeKind, b.ScopeID, ErrConflict)
	} else if err != nil {
		return b, err
	}
	return scanBinding(tx.QueryRowContext(ctx, bindingSelect+` WHERE b.hook_id = ? AND b.scope_kind = ? AND b.scope_id = ?`,
		b.HookID, b.ScopeKind, b.ScopeID))
}

// UpdateBinding applies patch (PROTOCOL.md v2/bindings/update, §7.3).
func (db *DB) UpdateBinding(ctx context.Context, id string, patch BindingPatch) (Binding, error) {
	var out Binding
	now := db.now()
	err := db.writeTx(ctx, func(tx *sql.Tx) error {
		cur, err := scanBinding(tx.QueryRowContext(ctx, bindingSelect+` WHERE b.id = ?`, id))
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("binding %s: %w", id, ErrNotFound)
		} else if err != nil {
			return err
		}
		enabled := cur.Enabled
		if patch.Enabled != nil {
			enabled = *patch.Enabled
		}
		if patch.Authorize != nil {
			var hash string
			if err := tx.QueryRowContext(ctx, `SELECT execution_hash FROM hook_definitions WHERE id = ?`, cur.HookID).Scan(&hash); err != nil {
				return err
			}
			if patch.RequireCurrent && *patch.Authorize != hash {
				return &HashMismatchError{BindingID: id, HookID: cur.HookID, Current: hash, Given: *patch.Authorize}
			}
			var trusted, trustedAt any
			if *patch.Authorize == hash {
				trusted, trustedAt = hash, ts(now)
			}
			if _, err := tx.ExecContext(ctx, `UPDATE hook_bindings SET trusted_execution_hash = ?, trusted_at = ? WHERE id = ?`,
				trusted, trustedAt, id); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, `UPDATE hook_bindings SET enabled = ?, updated_at = ? WHERE id = ?`,
			boolInt(enabled), ts(now), id); err != nil {
			return err
		}
		out, err = scanBinding(tx.QueryRowContext(ctx, bindingSelect+` WHERE b.id = ?`, id))
		return err
	})
	return out, err
}

// DeleteBinding deletes one binding (ErrNotFound if absent).
func (db *DB) DeleteBinding(ctx context.Context, id string) error {
	return db.writeTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM hook_bindings WHERE id = ?`, id)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("binding %s: %w", id, ErrNotFound)
		}
		return nil
	})
}

// GetBinding returns one binding or ErrNotFound.
func (db *DB) GetBinding(ctx context.Context, id string) (Binding, error) {
	b, err := scanBinding(db.r.QueryRowContext(ctx, bindingSelect+` WHERE b.id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return b, fmt.Errorf("binding %s: %w", id, ErrNotFound)
	}
	return b, mapErr(err)
}

// ListBindings lists the bindings of hookID (empty = all), ordered
// application → workspace → agent → session (§7.3), then by scope id.
func (db *DB) ListBindings(ctx context.Context, hookID string) ([]Binding, error) {
	q := bindingSelect
	var args []any
	if hookID != "" {
		q += ` WHERE b.hook_id = ?`
		args = append(args, hookID)
	}
	q += ` ORDER BY b.hook_id, CASE b.scope_kind WHEN 'application' THEN 0 WHEN 'workspace' THEN 1
		WHEN 'agent' THEN 2 ELSE 3 END, b.scope_id`
	rows, err := db.r.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, mapErr(err)
	}
	defer rows.Close()
	var out []Binding
	for rows.Next() {
		b, err := scanBinding(rows)
		if err != nil {
			return nil, mapErr(err)
		}
		out = append(out, b)
	}
	return out, mapErr(rows.Err())
}

// PauseAfterPolicyBlocks is the auto-pause of hooks-v2-handbook §14.1
// ("失败 5 次自动把绑定置为待重新授权"只对 blocked 成立): when the last n runs of
// the binding that reached a worker (not test runs; started, finished) are
// all blocked + policyBlockedCode, its trust is dropped so it is
// needs_review. Consecutive failed runs never pause it. paused is true only
// when this call changed an active binding; then b is the paused binding.
func (db *DB) PauseAfterPolicyBlocks(ctx context.Context, bindingID, policyBlockedCode string, n int) (b Binding, paused bool, err error) {
	if bindingID == "" || n <= 0 {
		return Binding{}, false, nil
	}
	now := db.now()
	err = db.writeTx(ctx, func(tx *sql.Tx) error {
		paused = false
		cur, err := scanBinding(tx.QueryRowContext(ctx, bindingSelect+` WHERE b.id = ?`, bindingID))
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		} else if err != nil {
			return err
		}
		if cur.State != BindingActive {
			return nil
		}
		var blocked, total int
		if err := tx.QueryRowContext(ctx, `SELECT count(*), coalesce(sum(status = 'blocked' AND error_code = ?), 0) FROM (
			SELECT status, error_code FROM hook_runs INDEXED BY hook_runs_hook
			WHERE hook_id = ? AND binding_id = ? AND is_test_run = 0 AND started_at IS NOT NULL
			AND status NOT IN ('queued','running') ORDER BY created_at DESC, seq DESC LIMIT ?)`,
			policyBlockedCode, cur.HookID, bindingID, n).Scan(&total, &blocked); err != nil {
			return err
		}
		if total < n || blocked < n {
			return nil
		}
		if _, err := tx.ExecContext(ctx, `UPDATE hook_bindings SET trusted_execution_hash = NULL, trusted_at = NULL,
			updated_at = ? WHERE id = ?`, ts(now), bindingID); err != nil {
			return err
		}
		b, err = scanBinding(tx.QueryRowContext(ctx, bindingSelect+` WHERE b.id = ?`, bindingID))
		paused = err == nil
		return err
	})
	return b, paused, err
}
