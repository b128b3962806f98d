package store

import (
	"context"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hookside/hookside/internal/jsonexact"
)

// List limits (PROTOCOL.md v2/runs/list).
const (
	DefaultListLimit = 50
	MaxListLimit     = 500
)

// RunFilter is the v2/runs/list input. Zero fields do not filter. Since is
// inclusive and Until exclusive, both on created_at.
type RunFilter struct {
	Status    string
	HookID    string
	EventName string
	EventID   string
	SessionID string
	Since     time.Time
	Until     time.Time
	Limit     int    // default 50, at most 500
	Cursor    string // nextCursor of the previous page
}

// cursor is the position after the last row of a page: (created_at, id).
type cursor struct {
	T string `json:"t"`
	I string `json:"i"`
}

func encodeCursor(r Run) string {
	b, _ := json.Marshal(cursor{T: ts(r.CreatedAt), I: r.ID})
	return base64.RawURLEncoding.EncodeToString(b)
}

// ErrBadCursor is a cursor that is not a nextCursor of ListRuns (wraps ErrInvalid).
var ErrBadCursor = fmt.Errorf("%w: bad cursor (pass a nextCursor from a previous page)", ErrInvalid)

func decodeCursor(s string) (cursor, error) {
	var c cursor
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err == nil {
		err = jsonexact.Unmarshal(b, &c)
	}
	if err != nil || c.T == "" || c.I == "" {
		return c, ErrBadCursor
	}
	return c, nil
}

// ListRuns returns runs newest first (created_at, then id, descending) and
// an opaque nextCursor ("" on the last page). Paging is stable: rows
// inserted after the first page was read sort before the cursor and never
// shift later pages. (A fix of §11.2/§14.3: the host UI had no paging and no
// time, event or session filter.)
func (db *DB) ListRuns(ctx context.Context, f RunFilter) (runs []Run, nextCursor string, err error) {
	limit := f.Limit
	if limit <= 0 {
		limit = DefaultListLimit
	}
	if limit > MaxListLimit {
		limit = MaxListLimit
	}
	var where []string
	var args []any
	add := func(cond string, a ...any) { where = append(where, cond); args = append(args, a...) }
	if f.Status != "" {
		if !validRunStatus(f.Status) {
			return nil, "", fmt.Errorf("%w: unknown status %q (want queued, running, succeeded, failed, skipped, blocked, cancelled or outcome_unknown)", ErrInvalid, f.Status)
		}
		add("status = ?", f.Status)
	}
	if f.HookID != "" {
		add("hook_id = ?", f.HookID)
	}
	if f.EventName != "" {
		add("event_name = ?", f.EventName)
	}
	if f.EventID != "" {
		add("event_id = ?", f.EventID)
	}
	if f.SessionID != "" {
		add("session_id = ?", f.SessionID)
	}
	if !f.Since.IsZero() {
		add("created_at >= ?", ts(f.Since))
	}
	if !f.Until.IsZero() {
		add("created_at < ?", ts(f.Until))
	}
	if f.Cursor != "" {
		c, err := decodeCursor(f.Cursor)
		if err != nil {
			return nil, "", err
		}
		add("(created_at, id) < (?, ?)", c.T, c.I) // row value: an index range, not a filter
	}
	q := `SELECT ` + runCols + ` FROM hook_runs`
	if len(where) > 0 {
		q += ` WHERE ` + strings.Join(where, " AND ")
	}
	q += ` ORDER BY created_at DESC, id DESC LIMIT ?`
	args = append(args, limit+1)
	rows, err := db.r.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, "", mapErr(err)
	}
	if runs, err = scanRuns(rows, make([]Run, 0, min(limit+1, 64))); err != nil {
		return nil, "", mapErr(err)
	}
	if len(runs) > limit {
		runs = runs[:limit]
		nextCursor = encodeCursor(runs[limit-1])
	}
	return runs, nextCursor, nil
}

// GetRun returns one run or ErrNotFound.
func (db *DB) GetRun(ctx context.Context, id string) (Run, error) {
	r, err := scanRun(db.r.QueryRowContext(ctx, `SELECT `+runCols+` FROM hook_runs WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return r, fmt.Errorf("run %s: %w", id, ErrNotFound)
	}
	return r, mapErr(err)
}
