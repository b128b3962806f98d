package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"
)

// Event statuses of the outbox (§9.2; the spec's "resolving" is called
// dispatching here).
const (
	EventPending     = "pending"
	EventDispatching = "dispatching"
	EventResolved    = "resolved"
	EventFailed      = "failed"
)

// Event is one outbox row.
type Event struct {
	ID         string          // "hev_" + sha256(eventName:sourceId), §3.2
	Name       string          // eventName
	SessionID  string          // envelope session.id; PurgeSession deletes by it
	TurnID     string          // envelope turn.id
	Envelope   json.RawMessage // the full envelope, stored verbatim
	Status     string
	Attempts   int // times claimed by a dispatcher
	LeaseOwner string
	LeaseUntil time.Time
	LastError  string
	CreatedAt  time.Time
	ResolvedAt time.Time // resolved or failed
}

func (e *Event) check() error {
	switch {
	case e.ID == "":
		return fmt.Errorf("%w: event id is empty", ErrInvalid)
	case e.Name == "":
		return fmt.Errorf("%w: event name is empty", ErrInvalid)
	case len(e.Envelope) == 0 || !json.Valid(e.Envelope):
		return fmt.Errorf("%w: event %s envelope is not JSON", ErrInvalid, e.ID)
	}
	return nil
}

const insertEventSQL = `INSERT OR IGNORE INTO hook_events(event_id, event_name, session_id, turn_id,
	envelope, status, attempts, created_at) VALUES (?,?,?,?,?,'pending',0,?)`

// Emit durably enqueues ev in the outbox: INSERT OR IGNORE on the event_id
// primary key (§3.2). duplicate is true when a row with that id already
// existed; its content is neither compared nor replaced, as the spec
// requires. Emit returns only after the transaction holding the row has
// committed (and, with synchronous=FULL, been fsynced): acknowledged means
// durable.
//
// Concurrent Emit calls are group-committed: one goroutine takes every
// request waiting at that moment (up to Options.MaxEmitBatch) and commits them
// in one transaction. A failed commit fails every call of that group; none of
// them is acknowledged. A context cancelled while waiting returns ctx.Err();
// the event may or may not have been written (emit again: it is idempotent).
//
// Emit does not apply the §3.3 short-circuit itself; callers check
// HasEnabledDefinition first.
func (db *DB) Emit(ctx context.Context, ev Event) (duplicate bool, err error) {
	if err := ev.check(); err != nil {
		return false, err
	}
	return db.emitter.emit(ctx, ev)
}

// EmitBatch enqueues evs in one transaction (one fsync) and reports, per
// event, whether it was a duplicate (also within evs itself: the second of two
// equal ids is a duplicate). Nothing is written if any event is invalid.
func (db *DB) EmitBatch(ctx context.Context, evs []Event) (duplicates []bool, err error) {
	for i := range evs {
		if err := evs[i].check(); err != nil {
			return nil, err
		}
	}
	duplicates = make([]bool, len(evs))
	var inserted []string
	err = db.writeTx(ctx, func(tx *sql.Tx) error {
		inserted = inserted[:0]
		stmt, err := tx.PrepareContext(ctx, insertEventSQL)
		if err != nil {
			return err
		}
		defer stmt.Close()
		now := ts(db.now())
		for i := range evs {
			e := &evs[i]
			res, err := stmt.ExecContext(ctx, e.ID, e.Name, e.SessionID, e.TurnID, string(e.Envelope), now)
			if err != nil {
				return err
			}
			n, _ := res.RowsAffected()
			duplicates[i] = n == 0
			if n > 0 {
				inserted = append(inserted, e.ID)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	db.subs.eventsEnqueued(inserted)
	return duplicates, nil
}

// emitter is the group committer behind Emit.
type emitter struct {
	db     *DB
	insert *sql.Stmt
	reqs   chan *emitReq
	quit   chan struct{}
	done   chan struct{}
	pool   sync.Pool
}

type emitReq struct {
	ev   Event
	dup  bool
	err  error
	done chan struct{}
}

func newEmitter(db *DB) (*emitter, error) {
	insert, err := db.w.Prepare(insertEventSQL)
	if err != nil {
		return nil, mapErr(err)
	}
	e := &emitter{
		db:     db,
		insert: insert,
		reqs:   make(chan *emitReq, db.opts.MaxEmitBatch),
		quit:   make(chan struct{}),
		done:   make(chan struct{}),
	}
	e.pool.New = func() any { return &emitReq{done: make(chan struct{}, 1)} }
	go e.loop()
	return e, nil
}

func (e *emitter) emit(ctx context.Context, ev Event) (bool, error) {
	r := e.pool.Get().(*emitReq)
	r.ev, r.dup, r.err = ev, false, nil
	select {
	case e.reqs <- r:
	case <-ctx.Done():
		e.pool.Put(r)
		return false, ctx.Err()
	case <-e.quit:
		e.pool.Put(r)
		return false, ErrClosed
	}
	select {
	case <-r.done:
		dup, err := r.dup, r.err
		r.ev = Event{}
		e.pool.Put(r)
		return dup, err
	case <-e.done:
		// The committer exited; r was either answered just before or never
		// taken.
		select {
		case <-r.done:
			return r.dup, r.err
		default:
			return false, ErrClosed
		}
	case <-ctx.Done():
		// The committer still owns r and will signal r.done (buffered); r is
		// not returned to the pool.
		return false, ctx.Err()
	}
}

func (e *emitter) stop() {
	close(e.quit)
	<-e.done
	e.insert.Close()
}

func (e *emitter) loop() {
	defer close(e.done)
	batch := make([]*emitReq, 0, e.db.opts.MaxEmitBatch)
	for {
		var first *emitReq
		select {
		case first = <-e.reqs:
		case <-e.quit:
			// Commit whatever was handed over before quit.
			for {
				select {
				case r := <-e.reqs:
					e.commit(append(batch[:0], r))
				default:
					return
				}
			}
		}
		batch = append(batch[:0], first)
	fill:
		for len(batch) < cap(batch) {
			select {
			case r := <-e.reqs:
				batch = append(batch, r)
			default:
				break fill
			}
		}
		e.commit(batch)
		clear(batch)
	}
}

func (e *emitter) commit(batch []*emitReq) {
	db := e.db
	inserted := make([]string, 0, len(batch))
	err := db.writeTx(context.Background(), func(tx *sql.Tx) error {
		inserted = inserted[:0]
		stmt := tx.Stmt(e.insert) // prepared once on the single writer connection
		defer stmt.Close()
		now := ts(db.now())
		for _, r := range batch {
			ev := &r.ev
			res, err := stmt.Exec(ev.ID, ev.Name, ev.SessionID, ev.TurnID, string(ev.Envelope), now)
			if err != nil {
				return err
			}
			n, _ := res.RowsAffected()
			r.dup = n == 0
			if n > 0 {
				inserted = append(inserted, ev.ID)
			}
		}
		return nil
	})
	if err != nil {
		inserted = nil
	}
	// Subscribers first: when Emit returns, the wake-up has happened (and
	// a subscriber has seen every id its Emit acknowledged).
	db.subs.eventsEnqueued(inserted)
	for _, r := range batch {
		r.err = err
		r.done <- struct{}{}
	}
}

const eventCols = `event_id, event_name, session_id, turn_id, envelope, status, attempts,
	lease_owner, lease_until, last_error, created_at, resolved_at`

func scanEvent(row interface{ Scan(...any) error }) (Event, error) {
	var e Event
	var env, created string
	var owner, until, lastErr, resolved sql.NullString
	if err := row.Scan(&e.ID, &e.Name, &e.SessionID, &e.TurnID, &env, &e.Status, &e.Attempts,
		&owner, &until, &lastErr, &created, &resolved); err != nil {
		return e, err
	}
	e.Envelope = json.RawMessage(env)
	e.LeaseOwner, e.LastError = owner.String, lastErr.String
	if until.Valid {
		e.LeaseUntil = parseTS(until.String)
	}
	if resolved.Valid {
		e.ResolvedAt = parseTS(resolved.String)
	}
	e.CreatedAt = parseTS(created)
	return e, nil
}

// GetEvent returns one outbox row or ErrNotFound.
func (db *DB) GetEvent(ctx context.Context, eventID string) (Event, error) {
	e, err := scanEvent(db.r.QueryRowContext(ctx, `SELECT `+eventCols+` FROM hook_events WHERE event_id = ?`, eventID))
	if errors.Is(err, sql.ErrNoRows) {
		return e, fmt.Errorf("event %s: %w", eventID, ErrNotFound)
	}
	return e, mapErr(err)
}

// ClaimEvents leases up to n events to owner for lease (the spec uses 60 s,
// §9.4): pending ones, and dispatching ones whose lease expired, oldest
// first. They become dispatching with attempts+1. While the master switch is
// off nothing is claimed (§12.1).
func (db *DB) ClaimEvents(ctx context.Context, owner string, lease time.Duration, n int) ([]Event, error) {
	if owner == "" || n <= 0 || lease <= 0 {
		return nil, fmt.Errorf("%w: ClaimEvents needs an owner, a lease and n > 0", ErrInvalid)
	}
	var out []Event
	err := db.writeTx(ctx, func(tx *sql.Tx) error {
		out = out[:0]
		if on, err := masterSwitch(ctx, tx); err != nil || !on {
			return err
		}
		now := db.now()
		rows, err := tx.QueryContext(ctx, `UPDATE hook_events
			SET status = 'dispatching', lease_owner = ?, lease_until = ?, attempts = attempts + 1
			WHERE rowid IN (
				SELECT rowid FROM hook_events
				WHERE status = 'pending' OR (status = 'dispatching' AND lease_until < ?)
				ORDER BY rowid LIMIT ?)
			RETURNING `+eventCols+`, rowid`, owner, ts(now.Add(lease)), ts(now), n)
		if err != nil {
			return err
		}
		defer rows.Close()
		var order []int64
		for rows.Next() {
			var e Event
			var env, created string
			var lowner, until, lastErr, resolved sql.NullString
			var rowid int64
			if err := rows.Scan(&e.ID, &e.Name, &e.SessionID, &e.TurnID, &env, &e.Status, &e.Attempts,
				&lowner, &until, &lastErr, &created, &resolved, &rowid); err != nil {
				return err
			}
			e.Envelope = json.RawMessage(env)
			e.LeaseOwner, e.LastError = lowner.String, lastErr.String
			e.LeaseUntil, e.CreatedAt = parseTS(until.String), parseTS(created)
			out = append(out, e)
			order = append(order, rowid)
		}
		if err := rows.Err(); err != nil {
			return err
		}
		// RETURNING order is unspecified: restore queue order.
		idx := make([]int, len(out))
		for i := range idx {
			idx[i] = i
		}
		sort.Slice(idx, func(a, b int) bool { return order[idx[a]] < order[idx[b]] })
		sorted := make([]Event, len(out))
		for i, j := range idx {
			sorted[i] = out[j]
		}
		out = sorted
		return nil
	})
	return out, err
}

// ResolveEvent records the dispatcher's decision for eventID in ONE
// transaction (§9.1): it inserts the runs (INSERT OR IGNORE on
// UNIQUE(event_id, hook_id): a run that already exists is not created again,
// "跨 revision 也不自动重跑", §3.2) and marks the event resolved. Calling it
// again is harmless. EventName, SessionID and TurnID of a NewRun default to
// the event's. created lists the runs actually inserted; subscribers are told
// about them after the commit. Unknown event: ErrNotFound.
func (db *DB) ResolveEvent(ctx context.Context, eventID string, runs []NewRun) (created []Run, err error) {
	for i := range runs {
		if err := runs[i].check(); err != nil {
			return nil, err
		}
	}
	now := db.now()
	err = db.writeTx(ctx, func(tx *sql.Tx) error {
		var ev Event
		err := tx.QueryRowContext(ctx, `SELECT event_name, session_id, turn_id FROM hook_events WHERE event_id = ?`,
			eventID).Scan(&ev.Name, &ev.SessionID, &ev.TurnID)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("event %s: %w", eventID, ErrNotFound)
		} else if err != nil {
			return err
		}
		ev.ID = eventID
		created, err = db.resolveInTx(ctx, tx, ev, runs, now)
		return err
	})
	if err != nil {
		return nil, err
	}
	db.subs.runsChanged(created)
	return created, nil
}

// EmitResolved stores ev in the outbox and, when it is new, its runs and
// the resolved mark, all in ONE transaction (one commit, one fsync): the
// event and what its dispatch decided become durable together, so no run
// ever exists without its event (§9.1 事件先落库再派发) and no event is left
// half dispatched (§9.1 同一个事务). runs must have been decided by the
// dispatcher's rules for ev; a caller whose decision failed stores ev with
// Emit instead, pending for the dispatcher (§9.1: a failed dispatch leaves
// the event pending, not lost). A duplicate id writes nothing (§3.2):
// duplicate is true and the existing event keeps its own dispatch. Like
// Emit, it returns only after the commit (synchronous=FULL: fsynced).
func (db *DB) EmitResolved(ctx context.Context, ev Event, runs []NewRun) (duplicate bool, created []Run, err error) {
	if err := ev.check(); err != nil {
		return false, nil, err
	}
	for i := range runs {
		if err := runs[i].check(); err != nil {
			return false, nil, err
		}
	}
	now := db.now()
	err = db.writeTx(ctx, func(tx *sql.Tx) error {
		created, duplicate = nil, false
		stmt := tx.StmtContext(ctx, db.emitter.insert)
		defer stmt.Close()
		res, err := stmt.ExecContext(ctx, ev.ID, ev.Name, ev.SessionID, ev.TurnID, string(ev.Envelope), ts(now))
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			duplicate = true
			return nil
		}
		created, err = db.resolveInTx(ctx, tx, ev, runs, now)
		return err
	})
	if err != nil {
		return false, nil, err
	}
	db.subs.runsChanged(created)
	return duplicate, created, nil
}

// resolveInTx inserts the runs of ev (ID, Name, SessionID and TurnID are
// used) and marks it resolved, inside tx; it returns the runs inserted.
func (db *DB) resolveInTx(ctx context.Context, tx *sql.Tx, ev Event, runs []NewRun, now time.Time) ([]Run, error) {
	var created []Run
	for _, nr := range runs {
		nr.EventID = ev.ID
		nr.IsTestRun = false
		if nr.EventName == "" {
			nr.EventName = ev.Name
		}
		if nr.SessionID == "" {
			nr.SessionID = ev.SessionID
		}
		if nr.TurnID == "" {
			nr.TurnID = ev.TurnID
		}
		r, ok, err := db.insertRun(ctx, tx, nr, now)
		if err != nil {
			return nil, err
		}
		if ok {
			created = append(created, r)
		}
	}
	_, err := tx.ExecContext(ctx, `UPDATE hook_events SET status = 'resolved', lease_owner = NULL,
		lease_until = NULL, last_error = NULL, resolved_at = ? WHERE event_id = ?`, ts(now), ev.ID)
	return created, err
}

// FailEvent marks an event failed for good (it cannot be dispatched, e.g. an
// unreadable envelope), with reason kept in last_error. Failed events are
// removed by the retention sweep (a hookside fix, spec/README.md). When owner
// is not empty the caller must still hold the lease (ErrLeaseLost otherwise).
func (db *DB) FailEvent(ctx context.Context, eventID, owner, reason string) error {
	return db.finishEventLease(ctx, eventID, owner, `status = 'failed', last_error = ?, resolved_at = ?`,
		reason, ts(db.now()))
}

// ReleaseEvent gives a claimed event back (dispatch failed for a reason that
// may pass): it becomes pending again with reason in last_error, "派发失败会把事件
// 释放回待处理状态而不是丢掉" (§9.1). The caller must hold the lease.
func (db *DB) ReleaseEvent(ctx context.Context, eventID, owner, reason string) error {
	return db.finishEventLease(ctx, eventID, owner, `status = 'pending', last_error = ?`, nullStr(reason))
}

func (db *DB) finishEventLease(ctx context.Context, eventID, owner, set string, args ...any) error {
	return db.writeTx(ctx, func(tx *sql.Tx) error {
		q := `UPDATE hook_events SET ` + set + `, lease_owner = NULL, lease_until = NULL WHERE event_id = ?`
		a := append(append([]any{}, args...), eventID)
		if owner != "" {
			q += ` AND status = 'dispatching' AND lease_owner = ?`
			a = append(a, owner)
		}
		res, err := tx.ExecContext(ctx, q, a...)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 1 {
			return nil
		}
		var st string
		if err := tx.QueryRowContext(ctx, `SELECT status FROM hook_events WHERE event_id = ?`, eventID).Scan(&st); errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("event %s: %w", eventID, ErrNotFound)
		} else if err != nil {
			return err
		}
		return fmt.Errorf("event %s (%s): %w", eventID, st, ErrLeaseLost)
	})
}
