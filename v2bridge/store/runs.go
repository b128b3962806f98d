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
	"github.com/hookside/hookside/internal/randid"
)

// Run statuses (§11.1).
const (
	RunQueued         = "queued"
	RunRunning        = "running"
	RunSucceeded      = "succeeded"
	RunFailed         = "failed"
	RunSkipped        = "skipped"
	RunBlocked        = "blocked"
	RunCancelled      = "cancelled"
	RunOutcomeUnknown = "outcome_unknown"
)

// Manual retry and cancel refusals (§11.2). They are wrapped in a
// *RunStateError; test with errors.Is.
var (
	// §11.2: 该运行不在可重试的终态; 仅排队中的运行可取消.
	ErrNotRetryable   = errors.New("the run is not in a retryable terminal state")
	ErrNotCancellable = errors.New("only queued runs can be cancelled")
)

// RunStateError says that run RunID, in Status, does not allow the operation.
type RunStateError struct {
	RunID  string
	Status string
	Err    error // ErrNotRetryable or ErrNotCancellable
}

func (e *RunStateError) Error() string {
	return fmt.Sprintf("run %s is %s: %v", e.RunID, e.Status, e.Err)
}

func (e *RunStateError) Unwrap() error { return e.Err }

// recoveredMessage is the error message of a run whose lease expired (§9.4).
const recoveredMessage = "lease expired while running; the action may already have taken effect and is not re-sent"

// Run is one hook_runs row (PROTOCOL.md §5.1 Run, plus the scheduling fields
// the worker needs, which are not part of the wire shape).
type Run struct {
	ID            string          `json:"id"`
	EventID       string          `json:"eventId"`
	HookID        string          `json:"hookId"`
	HookRevision  int             `json:"hookRevision"`
	EventName     string          `json:"eventName"`
	SessionID     string          `json:"sessionId"`
	TurnID        string          `json:"turnId"`
	BindingID     string          `json:"bindingId,omitempty"`
	Status        string          `json:"status"`
	ErrorCode     string          `json:"errorCode,omitempty"`
	ErrorMessage  string          `json:"errorMessage,omitempty"`
	AttemptCount  int             `json:"attemptCount"` // claims so far (§10.3)
	IsTestRun     bool            `json:"isTestRun"`
	StartedAt     time.Time       `json:"startedAt,omitzero"` // first claim only (§10.3)
	FinishedAt    time.Time       `json:"finishedAt,omitzero"`
	DurationMs    *int64          `json:"durationMs,omitempty"` // finished − first start
	InputSummary  json.RawMessage `json:"inputSummary,omitempty"`
	OutputSummary json.RawMessage `json:"outputSummary,omitempty"`
	CreatedAt     time.Time       `json:"createdAt"`
	UpdatedAt     time.Time       `json:"-"`

	// Seq is the insertion order, which is the queue order (§10.5).
	Seq               int64           `json:"-"`
	ConcurrencyPolicy string          `json:"-"`
	Execution         json.RawMessage `json:"-"` // snapshot the worker executes
	NextAttemptAt     time.Time       `json:"-"`
	LeaseOwner        string          `json:"-"`
	LeaseUntil        time.Time       `json:"-"`
}

// NewRun is a run to create (ResolveEvent, CreateTestRun).
type NewRun struct {
	ID           string // generated ("run_…") when empty
	EventID      string // set by ResolveEvent
	EventName    string // defaults to the event's
	HookID       string
	HookRevision int
	BindingID    string
	SessionID    string // defaults to the event's
	TurnID       string // defaults to the event's
	// Status is queued (default), or a terminal status decided at dispatch:
	// skipped + condition_not_matched, blocked + ambiguous_binding, failed.
	Status       string
	ErrorCode    string
	ErrorMessage string
	// ConcurrencyPolicy of the definition (default serial_per_session).
	ConcurrencyPolicy string
	// Execution is the snapshot the worker executes: action, mapping
	// template, timeout, retry policy (JSON, stored verbatim).
	Execution     json.RawMessage
	InputSummary  json.RawMessage
	IsTestRun     bool
	NextAttemptAt time.Time
}

func (nr *NewRun) check() error {
	if nr.HookID == "" {
		return fmt.Errorf("%w: run hookId is empty", ErrInvalid)
	}
	if nr.Status == "" {
		nr.Status = RunQueued
	}
	if nr.Status == RunRunning || !validRunStatus(nr.Status) {
		return fmt.Errorf("%w: new run status %q", ErrInvalid, nr.Status)
	}
	if nr.ConcurrencyPolicy == "" {
		nr.ConcurrencyPolicy = SerialPerSession
	}
	if nr.ConcurrencyPolicy != SerialPerSession && nr.ConcurrencyPolicy != Parallel {
		return fmt.Errorf("%w: concurrencyPolicy %q", ErrInvalid, nr.ConcurrencyPolicy)
	}
	if !validJSON(nr.Execution, true) || !validJSON(nr.InputSummary, true) {
		return fmt.Errorf("%w: run execution/inputSummary is not JSON", ErrInvalid)
	}
	return nil
}

// executionActionType is $.action.type of an execution snapshot, read in Go
// (stored in hook_runs.action_type so the claim query needs no JSON function).
func executionActionType(exec json.RawMessage) string {
	if len(exec) == 0 {
		return ""
	}
	var s struct {
		Action struct {
			Type string `json:"type"`
		} `json:"action"`
	}
	_ = jsonexact.Unmarshal(exec, &s)
	return s.Action.Type
}

func validRunStatus(s string) bool {
	switch s {
	case RunQueued, RunRunning, RunSucceeded, RunFailed, RunSkipped, RunBlocked, RunCancelled, RunOutcomeUnknown:
		return true
	}
	return false
}

func terminal(s string) bool { return validRunStatus(s) && s != RunQueued && s != RunRunning }

const runCols = `seq, id, event_id, event_name, hook_id, hook_revision, binding_id, session_id,
	turn_id, is_test_run, status, error_code, error_message, attempt_count, concurrency_policy,
	execution_json, input_summary, output_summary, next_attempt_at, lease_owner, lease_until,
	started_at, finished_at, duration_ms, created_at, updated_at`

// scanRuns appends every row of rows (selected or RETURNING runCols) to out
// and closes rows; the error is the first scan error or rows.Err.
func scanRuns(rows *sql.Rows, out []Run) ([]Run, error) {
	defer rows.Close()
	for rows.Next() {
		r, err := scanRun(rows)
		if err != nil {
			return out, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

func scanRun(row interface{ Scan(...any) error }) (Run, error) {
	var r Run
	var binding, ecode, emsg, exec, in, out, next, owner, until, started, finished sql.NullString
	var dur sql.NullInt64
	var created, updated string
	err := row.Scan(&r.Seq, &r.ID, &r.EventID, &r.EventName, &r.HookID, &r.HookRevision, &binding,
		&r.SessionID, &r.TurnID, &r.IsTestRun, &r.Status, &ecode, &emsg, &r.AttemptCount,
		&r.ConcurrencyPolicy, &exec, &in, &out, &next, &owner, &until, &started, &finished, &dur,
		&created, &updated)
	if err != nil {
		return r, err
	}
	r.BindingID, r.ErrorCode, r.ErrorMessage, r.LeaseOwner = binding.String, ecode.String, emsg.String, owner.String
	if exec.Valid {
		r.Execution = json.RawMessage(exec.String)
	}
	if in.Valid {
		r.InputSummary = json.RawMessage(in.String)
	}
	if out.Valid {
		r.OutputSummary = json.RawMessage(out.String)
	}
	for _, p := range []struct {
		s sql.NullString
		t *time.Time
	}{{next, &r.NextAttemptAt}, {until, &r.LeaseUntil}, {started, &r.StartedAt}, {finished, &r.FinishedAt}} {
		if p.s.Valid {
			*p.t = parseTS(p.s.String)
		}
	}
	if dur.Valid {
		d := dur.Int64
		r.DurationMs = &d
	}
	r.CreatedAt, r.UpdatedAt = parseTS(created), parseTS(updated)
	return r, nil
}

// insertRunSQL inserts one run (INSERT OR IGNORE: an existing (event_id,
// hook_id) of a non-test run is kept). It is prepared once on the writer.
const insertRunSQL = `INSERT OR IGNORE INTO hook_runs(id, event_id, event_name, hook_id,
	hook_revision, binding_id, session_id, turn_id, is_test_run, status, error_code, error_message,
	attempt_count, concurrency_policy, execution_json, input_summary, next_attempt_at, finished_at,
	created_at, updated_at, action_type) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,0,?,?,?,?,?,?,?,?)
	RETURNING ` + runCols

// insertRun inserts nr; ok reports whether a row was inserted.
func (db *DB) insertRun(ctx context.Context, tx *sql.Tx, nr NewRun, now time.Time) (Run, bool, error) {
	if nr.ID == "" {
		nr.ID = randid.New("run_")
	}
	var finished any
	if terminal(nr.Status) {
		finished = ts(now)
		nr.Execution = withoutPrivate(nr.Execution)
	}
	stmt := tx.StmtContext(ctx, db.insertRunStmt)
	defer stmt.Close()
	rows, err := stmt.QueryContext(ctx,
		nr.ID, nr.EventID, nr.EventName, nr.HookID, nr.HookRevision, nullStr(nr.BindingID), nr.SessionID,
		nr.TurnID, boolInt(nr.IsTestRun), nr.Status, nullStr(nr.ErrorCode), nullStr(nr.ErrorMessage),
		nr.ConcurrencyPolicy, nullJSON(nr.Execution), nullJSON(nr.InputSummary), nullTS(nr.NextAttemptAt),
		finished, ts(now), ts(now), nullStr(executionActionType(nr.Execution)))
	if err != nil {
		return Run{}, false, err
	}
	defer rows.Close()
	if !rows.Next() {
		return Run{}, false, rows.Err()
	}
	r, err := scanRun(rows)
	return r, err == nil, err
}

// EnqueueRun inserts one queued run outside any event resolution (an async
// shell hook handed to the queue). nr.EventID must be unique for nr.HookID.
func (db *DB) EnqueueRun(ctx context.Context, nr NewRun) (Run, error) {
	if err := nr.check(); err != nil {
		return Run{}, err
	}
	var r Run
	err := db.writeTx(ctx, func(tx *sql.Tx) error {
		var err error
		r, _, err = db.insertRun(ctx, tx, nr, db.now())
		return err
	})
	if err != nil {
		return Run{}, err
	}
	db.subs.runsChanged([]Run{r})
	return r, nil
}

// CreateTestRun inserts a test run (PROTOCOL.md v2/definitions/testRun):
// IsTestRun is forced and the (event_id, hook_id) uniqueness does not apply.
func (db *DB) CreateTestRun(ctx context.Context, nr NewRun) (Run, error) {
	nr.IsTestRun = true
	return db.EnqueueRun(ctx, nr)
}

// ClaimFilter narrows ClaimRun.
type ClaimFilter struct {
	HookID    string // only runs of this hook
	SessionID string // only runs of this session
	// EventID: only the runs of this event, and the queued runs that hold
	// one of them back by serial order (serial_per_session: same hook and
	// session, inserted before it), which must run first. A claimer that
	// works for one event (the CLI's emit) then never takes, and abandons
	// on exit, another event's run it does not wait for.
	EventID      string
	OnlyTestRuns bool
	// ActionTypes, when not nil, only claims runs whose execution snapshot
	// has $.action.type in the list (v2bridge's ownership rule: a process
	// claims only the runs it can execute, e.g. host actions only while a
	// host that declared them is connected). An empty non-nil list claims
	// nothing.
	ActionTypes []string
	// IgnoreMasterSwitch claims even while the master switch is off (§12.1
	// stops claiming; test runs may want to bypass it).
	IgnoreMasterSwitch bool
	// ReadFirst makes a plain read decide first whether any queued run
	// matches the filter (backoff and serial order aside); the write
	// transaction is taken only then. For a claimer that usually finds
	// nothing (the CLI's own session) it saves the write lock and the
	// claim statement; one that usually finds work pays a read more.
	ReadFirst bool
}

// ClaimRun leases the first claimable run to owner for lease (the spec uses
// 5 min, §9.4): it becomes running, attempt_count+1 ("attemptCount is the
// claim count", §10.3) and started_at is set on the first claim only.
//
// Claimable, in insertion order (§10.5): status queued, next_attempt_at null
// or ≤ now, and — when its concurrency policy is serial_per_session — no
// other run of the same hook and the same session (session_id compared as
// stored, "" included) that is either running, or queued and inserted before
// it. A queued run waiting for its backoff therefore blocks the later runs of
// its hook+session (the side effect §10.5 describes); a running run blocks
// regardless of order (so a manually retried older run waits for a newer one
// that is running). parallel runs skip the check.
//
// ok is false when nothing is claimable or the master switch is off.
func (db *DB) ClaimRun(ctx context.Context, owner string, lease time.Duration, now time.Time, f ClaimFilter) (run Run, ok bool, err error) {
	if owner == "" || lease <= 0 {
		return Run{}, false, fmt.Errorf("%w: ClaimRun needs an owner and a lease", ErrInvalid)
	}
	if f.ActionTypes != nil && len(f.ActionTypes) == 0 {
		return Run{}, false, nil
	}
	nowS := ts(now)
	match, margs := f.where()
	if f.ReadFirst {
		var found bool
		if err := db.r.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM hook_runs r INDEXED BY hook_runs_queued
			WHERE r.status = 'queued'`+match+`)`, margs...).Scan(&found); err != nil {
			return Run{}, false, mapErr(err)
		}
		if !found {
			return Run{}, false, nil
		}
	}
	q := `UPDATE hook_runs SET status = 'running', lease_owner = ?, lease_until = ?,
		attempt_count = attempt_count + 1, started_at = COALESCE(started_at, ?),
		next_attempt_at = NULL, updated_at = ?
	WHERE seq = (
		SELECT r.seq FROM hook_runs r INDEXED BY hook_runs_queued
		WHERE r.status = 'queued' AND (r.next_attempt_at IS NULL OR r.next_attempt_at <= ?)` + match
	args := append([]any{owner, ts(now.Add(lease)), nowS, nowS, nowS}, margs...)
	q += ` AND (r.concurrency_policy = 'parallel' OR NOT EXISTS (
			SELECT 1 FROM hook_runs b WHERE b.hook_id = r.hook_id AND b.session_id = r.session_id
			AND (b.status = 'running' OR (b.status = 'queued' AND b.seq < r.seq))))
		ORDER BY r.seq LIMIT 1)
	RETURNING ` + runCols
	stmt, err := db.writerStmt(ctx, q)
	if err != nil {
		return Run{}, false, err
	}
	err = db.writeTx(ctx, func(tx *sql.Tx) error {
		ok = false
		if !f.IgnoreMasterSwitch {
			if on, err := masterSwitch(ctx, tx); err != nil || !on {
				return err
			}
		}
		rows, err := tx.StmtContext(ctx, stmt).QueryContext(ctx, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		if rows.Next() {
			run, err = scanRun(rows)
			if err != nil {
				return err
			}
			ok = true
		}
		return rows.Err()
	})
	if err != nil || !ok {
		return Run{}, false, err
	}
	db.subs.runsChanged([]Run{run})
	return run, true, nil
}

// where is the filter's part of the claim's WHERE clause (on hook_runs r)
// and its arguments.
func (f ClaimFilter) where() (string, []any) {
	var q string
	var args []any
	if f.HookID != "" {
		q += ` AND r.hook_id = ?`
		args = append(args, f.HookID)
	}
	if f.SessionID != "" {
		q += ` AND r.session_id = ?`
		args = append(args, f.SessionID)
	}
	if f.EventID != "" {
		q += ` AND (r.event_id = ? OR EXISTS (SELECT 1 FROM hook_runs o WHERE o.event_id = ?
			AND o.status = 'queued' AND o.concurrency_policy <> 'parallel'
			AND o.hook_id = r.hook_id AND o.session_id = r.session_id AND o.seq > r.seq))`
		args = append(args, f.EventID, f.EventID)
	}
	if f.OnlyTestRuns {
		q += ` AND r.is_test_run = 1`
	}
	if len(f.ActionTypes) > 0 {
		q += ` AND r.action_type IN (?` + strings.Repeat(`,?`, len(f.ActionTypes)-1) + `)`
		for _, t := range f.ActionTypes {
			args = append(args, t)
		}
	}
	return q, args
}

// RenewRunLease extends the lease of a running run the caller owns to
// now+lease (§9.4 "运行在工作过程中会定期续租"). ErrLeaseLost if the caller no
// longer owns it.
func (db *DB) RenewRunLease(ctx context.Context, id, owner string, lease time.Duration) error {
	now := db.now()
	return db.writeTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE hook_runs SET lease_until = ?, updated_at = ?
			WHERE id = ? AND status = 'running' AND lease_owner = ?`, ts(now.Add(lease)), ts(now), id, owner)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 1 {
			return nil
		}
		return leaseLost(ctx, tx, id)
	})
}

func leaseLost(ctx context.Context, tx *sql.Tx, id string) error {
	var st string
	err := tx.QueryRowContext(ctx, `SELECT status FROM hook_runs WHERE id = ?`, id).Scan(&st)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("run %s: %w", id, ErrNotFound)
	} else if err != nil {
		return err
	}
	return fmt.Errorf("run %s (%s): %w", id, st, ErrLeaseLost)
}

// PrivateExecutionMembers are the members of an execution snapshot that hold
// the host's data unredacted: the envelope (e.g. payload.response.finalText)
// and an async shell hook's stdin and transcript. The worker needs them while
// the run is queued or running; every transition to a terminal state drops
// them, so the unredacted event is not kept for the runs' retention with no
// read path (the same fix as for the mapped input, spec README). A manual
// retry reads the envelope back from the event (hook_events) while the
// outbox still keeps it.
var PrivateExecutionMembers = []string{"envelope", "shellHook.stdin", "shellHook.transcript"}

// withoutPrivate is exec without PrivateExecutionMembers (a run created
// terminal, e.g. skipped at dispatch). Unparsable input is returned as is
// (NewRun.check rejected it already).
func withoutPrivate(exec json.RawMessage) json.RawMessage {
	var m map[string]json.RawMessage
	if len(exec) == 0 || jsonexact.Unmarshal(exec, &m) != nil {
		return exec
	}
	_, hasEnv := m["envelope"]
	sh, hasShell := m["shellHook"]
	if !hasEnv && !hasShell {
		return exec
	}
	delete(m, "envelope")
	if hasShell {
		var h map[string]json.RawMessage
		if jsonexact.Unmarshal(sh, &h) == nil {
			delete(h, "stdin")
			delete(h, "transcript")
			m["shellHook"], _ = json.Marshal(h)
		}
	}
	out, err := json.Marshal(m)
	if err != nil {
		return exec
	}
	return out
}

// dropPrivateExecution is the SET clause removing PrivateExecutionMembers
// (a snapshot SQLite cannot parse, e.g. nested beyond its limit, is dropped
// whole). A test run keeps its snapshot: its envelope is the sample (or the
// one the host gave v2/definitions/testRun), it has no outbox event to read
// it back from, and a retry needs it.
const dropPrivateExecution = `execution_json = CASE WHEN execution_json IS NULL THEN NULL
	WHEN is_test_run = 1 THEN execution_json
	WHEN json_valid(execution_json) THEN json_remove(execution_json, '$.envelope', '$.shellHook.stdin',
	'$.shellHook.transcript') END`

// Finish is the terminal outcome of one attempt.
type Finish struct {
	Status        string // succeeded, failed, blocked, skipped, cancelled or outcome_unknown
	ErrorCode     string
	ErrorMessage  string
	InputSummary  json.RawMessage // redacted; nil keeps the stored one
	OutputSummary json.RawMessage // redacted; nil keeps the stored one
}

// durationExpr is finished_at − started_at in ms (NULL when never started).
const durationExpr = `CASE WHEN started_at IS NULL THEN NULL
	ELSE CAST(round((julianday(?) - julianday(started_at)) * 86400000.0) AS INTEGER) END`

// FinishRun writes the terminal state of a run the caller still leases
// (status running, lease_owner = owner); otherwise ErrLeaseLost (e.g. the lease
// expired and RecoverExpired already made it outcome_unknown). durationMs is
// measured from the first start (§10.3).
func (db *DB) FinishRun(ctx context.Context, id, owner string, f Finish) (Run, error) {
	if !terminal(f.Status) {
		return Run{}, fmt.Errorf("%w: %q is not a terminal run status", ErrInvalid, f.Status)
	}
	if !validJSON(f.InputSummary, true) || !validJSON(f.OutputSummary, true) {
		return Run{}, fmt.Errorf("%w: summary is not JSON", ErrInvalid)
	}
	now := ts(db.now())
	return db.updateRun(ctx, id, `UPDATE hook_runs SET status = ?, error_code = ?, error_message = ?,
		input_summary = COALESCE(?, input_summary), output_summary = COALESCE(?, output_summary),
		finished_at = ?, duration_ms = `+durationExpr+`, lease_owner = NULL, lease_until = NULL, updated_at = ?,
		`+dropPrivateExecution+`
		WHERE id = ? AND status = 'running' AND lease_owner = ? RETURNING `+runCols,
		func(ctx context.Context, tx *sql.Tx) error { return leaseLost(ctx, tx, id) },
		f.Status, nullStr(f.ErrorCode), nullStr(f.ErrorMessage), nullJSON(f.InputSummary),
		nullJSON(f.OutputSummary), now, now, now, id, owner)
}

// RequeueRun puts a run the caller leases back into the queue for an
// automatic retry at nextAttemptAt (backoff is the caller's, §10.3). The error
// code and message of this attempt are kept ("自动重试会保留上次的错误码与消息",
// §10.5); started_at and attempt_count are kept.
func (db *DB) RequeueRun(ctx context.Context, id, owner string, nextAttemptAt time.Time, errorCode, errorMessage string) (Run, error) {
	now := ts(db.now())
	return db.updateRun(ctx, id, `UPDATE hook_runs SET status = 'queued', error_code = ?, error_message = ?,
		next_attempt_at = ?, lease_owner = NULL, lease_until = NULL, updated_at = ?
		WHERE id = ? AND status = 'running' AND lease_owner = ? RETURNING `+runCols,
		func(ctx context.Context, tx *sql.Tx) error { return leaseLost(ctx, tx, id) },
		nullStr(errorCode), nullStr(errorMessage), nullTS(nextAttemptAt), now, id, owner)
}

// RetryRun is the manual retry of §11.2: allowed from failed, blocked,
// cancelled and outcome_unknown; the run goes back to queued with error code,
// error message, finished time and duration cleared (§10.5), attempt_count and
// started_at kept. Other statuses: *RunStateError wrapping ErrNotRetryable.
func (db *DB) RetryRun(ctx context.Context, id string) (Run, error) {
	now := ts(db.now())
	return db.updateRun(ctx, id, `UPDATE hook_runs SET status = 'queued', error_code = NULL,
		error_message = NULL, finished_at = NULL, duration_ms = NULL, next_attempt_at = NULL,
		lease_owner = NULL, lease_until = NULL, updated_at = ?
		WHERE id = ? AND status IN ('failed','blocked','cancelled','outcome_unknown') RETURNING `+runCols,
		stateErr(id, ErrNotRetryable), now, id)
}

// CancelRun cancels a queued run (§11.2: only queued runs can be cancelled;
// running actions are not interrupted). Other statuses: *RunStateError
// wrapping ErrNotCancellable.
func (db *DB) CancelRun(ctx context.Context, id string) (Run, error) {
	now := ts(db.now())
	return db.updateRun(ctx, id, `UPDATE hook_runs SET status = 'cancelled', finished_at = ?,
		duration_ms = `+durationExpr+`, next_attempt_at = NULL, updated_at = ?, `+dropPrivateExecution+`
		WHERE id = ? AND status = 'queued' RETURNING `+runCols,
		stateErr(id, ErrNotCancellable), now, now, now, id)
}

func stateErr(id string, sentinel error) func(context.Context, *sql.Tx) error {
	return func(ctx context.Context, tx *sql.Tx) error {
		var st string
		err := tx.QueryRowContext(ctx, `SELECT status FROM hook_runs WHERE id = ?`, id).Scan(&st)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("run %s: %w", id, ErrNotFound)
		} else if err != nil {
			return err
		}
		return &RunStateError{RunID: id, Status: st, Err: sentinel}
	}
}

// updateRun runs one UPDATE … RETURNING on a single run; when it matches no
// row, miss explains why (inside the same transaction).
func (db *DB) updateRun(ctx context.Context, id, q string, miss func(context.Context, *sql.Tx) error, args ...any) (Run, error) {
	var r Run
	stmt, err := db.writerStmt(ctx, q)
	if err != nil {
		return Run{}, err
	}
	err = db.writeTx(ctx, func(tx *sql.Tx) error {
		rows, err := tx.StmtContext(ctx, stmt).QueryContext(ctx, args...)
		if err != nil {
			return err
		}
		if rows.Next() {
			r, err = scanRun(rows)
			rows.Close()
			return err
		}
		if err := rows.Close(); err != nil {
			return err
		}
		return miss(ctx, tx)
	})
	if err != nil {
		return Run{}, err
	}
	db.subs.runsChanged([]Run{r})
	return r, nil
}
