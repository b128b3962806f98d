// Package store is the SQLite persistence of the V2 lifecycle bridge: hook
// definitions, bindings, the event outbox (hook_events) and the run queue
// (hook_runs), plus settings and a small key/value table.
//
// It implements the storage half of hooks-v2-handbook.zh.txt §3.2–§3.3, §7,
// §9, §10.3, §10.5, §11, §12, §13 and the gaps hookside fixes
// (spec/README.md): retention for failed events and old runs, runs listable by
// time, event and session with paging. It never evaluates conditions or
// executes actions; JSON columns are stored and returned verbatim as
// json.RawMessage.
//
// # Connections
//
// One DB owns two database/sql pools on the same file: a writer pool with
// exactly one connection opened with _txlock=immediate (every write
// transaction takes the write lock at BEGIN, so two processes never deadlock on
// a lock upgrade), and a reader pool (query_only) for lists and gets. WAL
// journal, busy_timeout and foreign keys are set on every connection. A
// short-lived process opens with Options.OneConnection: reads then share the
// writer connection (each connection costs an open and a parse of the
// schema).
//
// Several hookside processes may share one file. Every write goes through
// writeTx, which retries SQLITE_BUSY a bounded number of times (each attempt
// already waits busy_timeout inside SQLite) and then returns ErrBusy.
//
// # Durability
//
// The default is journal_mode=WAL with synchronous=FULL: every commit fsyncs
// the WAL before it returns, so an acknowledged write survives kill -9 and
// power loss. (synchronous=NORMAL in WAL survives kill -9 — the WAL is in the
// OS page cache — but may lose the last commits on power loss; it is available
// as Options.Synchronous="NORMAL".) Emit throughput comes from group commit:
// concurrent Emit calls are coalesced by one committer goroutine into one
// transaction and one fsync; EmitBatch does the same for a caller-made batch.
// EmitResolved stores one event together with its runs and the resolved mark
// (the CLI's one event: one fsync instead of two).
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// MemoryPath opens an empty database held in memory, gone at Close. Each
// connection to it is a database of its own, so it needs OneConnection.
const MemoryPath = ":memory:"

// Sentinel errors. Callers branch on them with errors.Is.
var (
	// ErrCorrupt: the file is not an SQLite database or is damaged
	// (SQLITE_NOTADB, SQLITE_CORRUPT).
	ErrCorrupt = errors.New("store: database file is corrupt or not an SQLite database")
	// ErrBusy: the database stayed locked by another connection or process
	// beyond busy_timeout and the bounded retries.
	ErrBusy = errors.New("store: database is locked (busy timeout exceeded)")
	// ErrFull: the disk (or quota) holding the database has no room for a
	// write (SQLITE_FULL); nothing of the failed transaction was written.
	ErrFull = errors.New("store: the disk holding the database is full")
	// ErrNotFound: no definition, binding, run or event with that id
	// (PROTOCOL.md -32013).
	ErrNotFound = errors.New("store: not found")
	// ErrConflict: a unique constraint would be violated (e.g. a second binding
	// for the same hook and scope, §7.1).
	ErrConflict = errors.New("store: already exists")
	// ErrInvalid: an argument is malformed (missing id, unknown status, bad
	// cursor, …).
	ErrInvalid = errors.New("store: invalid argument")
	// ErrLeaseLost: the caller no longer owns the lease of the event or run
	// (it expired and was recovered or claimed by someone else, §9.4).
	ErrLeaseLost = errors.New("store: lease not held by caller")
	// ErrSchemaTooNew: the file was migrated by a newer hookside.
	ErrSchemaTooNew = errors.New("store: database schema is newer than this binary")
	// ErrClosed: the DB was closed.
	ErrClosed = errors.New("store: closed")
)

// Options tunes Open. The zero value is the production configuration.
type Options struct {
	// BusyTimeout is SQLite's busy_timeout for every connection (default 5 s).
	BusyTimeout time.Duration
	// BusyRetries is how many more times a write transaction is retried after
	// SQLITE_BUSY (default 2). Each attempt already waited BusyTimeout.
	BusyRetries int
	// Synchronous is "FULL" (default; durable across power loss) or "NORMAL"
	// (durable across process crashes only). See the package comment.
	Synchronous string
	// Readers is the reader pool size (default 4).
	Readers int
	// OneConnection makes every read use the writer connection and
	// HasEnabledDefinition read the table instead of its cache: a
	// short-lived process (the CLI's one-event pipeline) then opens one
	// connection, each further one costing an open and a parse of the
	// schema. Reads wait while a write transaction holds the connection.
	OneConnection bool
	// MaxEmitBatch caps how many Emit calls one group commit coalesces
	// (default 512).
	MaxEmitBatch int
	// Now is the clock (default time.Now). Tests inject their own.
	Now func() time.Time
}

// DB is an open store. It is safe for concurrent use.
type DB struct {
	path    string
	w       *sql.DB // writer: one connection, BEGIN IMMEDIATE
	r       *sql.DB // readers
	opts    Options
	now     func() time.Time
	emitter *emitter
	// insertRunStmt is prepared once on the single writer connection
	// (modernc does not cache prepared statements).
	insertRunStmt *sql.Stmt
	// stmts caches prepared writer statements by SQL text (hot-path queries
	// are large; re-parsing them dominated ClaimRun's cost).
	stmts struct {
		sync.Mutex
		m map[string]*sql.Stmt
	}
	defs defCache
	subs subscribers

	closeOnce sync.Once
	closed    chan struct{}
}

// Open opens (creating if needed) the database at path, applies pending schema
// migrations and starts the Emit group committer. It returns ErrCorrupt for a
// file that is not a usable SQLite database and ErrBusy when the file stays
// locked beyond the busy timeout.
func Open(path string, opts Options) (*DB, error) {
	if opts.BusyTimeout <= 0 {
		opts.BusyTimeout = 5 * time.Second
	}
	if opts.BusyRetries < 0 {
		opts.BusyRetries = 0
	} else if opts.BusyRetries == 0 {
		opts.BusyRetries = 2
	}
	switch opts.Synchronous {
	case "":
		opts.Synchronous = "FULL"
	case "FULL", "NORMAL":
	default:
		return nil, fmt.Errorf("%w: synchronous %q (want FULL or NORMAL)", ErrInvalid, opts.Synchronous)
	}
	if opts.Readers <= 0 {
		opts.Readers = 4
	}
	if opts.MaxEmitBatch <= 0 {
		opts.MaxEmitBatch = 512
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	// The path is given to the driver as a plain file name (not a "file:"
	// URI, which would percent-decode it); the driver splits the DSN at '?'.
	if path == "" || strings.ContainsRune(path, '?') {
		return nil, fmt.Errorf("%w: database path %q (empty or containing '?')", ErrInvalid, path)
	}

	busy := strconv.FormatInt(opts.BusyTimeout.Milliseconds(), 10)
	common := url.Values{}
	common.Set("_busy_timeout", busy)
	common.Set("_journal_mode", "WAL")
	common.Set("_foreign_keys", "1")
	wq := url.Values{}
	for k, v := range common {
		wq[k] = v
	}
	wq.Set("_synchronous", opts.Synchronous)
	wq.Set("_txlock", "immediate")
	rq := url.Values{}
	for k, v := range common {
		rq[k] = v
	}
	rq.Set("_query_only", "1")

	// Refuse a directory or an unreadable path early with a clear error.
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return nil, fmt.Errorf("open %s: is a directory", path)
	}

	// The database holds payloads and mailbox text: owner-only (0600),
	// tightened before any data is written (after the schema migration, which
	// creates the file; SQLite gives a later -wal/-shm the database's mode).
	// (Pre-creating an empty 0600 file instead makes concurrent first opens
	// fail with SQLITE_BUSY while switching to WAL.)
	restrictFiles(path)

	w, err := sql.Open("sqlite", path+"?"+wq.Encode())
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxLifetime(0)
	w.SetConnMaxIdleTime(0)

	db := &DB{path: path, w: w, opts: opts, now: opts.Now, closed: make(chan struct{})}
	if err := retryOpenBusy(opts.BusyTimeout, func() error { return db.migrate(context.Background()) }); err != nil {
		w.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	restrictFiles(path)

	if db.insertRunStmt, err = w.Prepare(insertRunSQL); err != nil {
		w.Close()
		return nil, fmt.Errorf("open %s: %w", path, mapErr(err))
	}

	if opts.OneConnection {
		db.r = w
	} else if err := retryOpenBusy(opts.BusyTimeout, func() error { return db.openReaders(rq) }); err != nil {
		w.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	if db.emitter, err = newEmitter(db); err != nil {
		db.defs.close()
		db.closePools()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	return db, nil
}

// retryOpenBusy runs fn (a step of Open) again while it fails with
// SQLITE_BUSY, for up to timeout (ms resolution; backoff 5 ms doubling to
// 100 ms). A connection switching a new file to WAL while another
// process or handle does the same gets SQLITE_BUSY at once, without
// SQLite's busy handler (two app-servers creating hookside.db in a fresh
// home); waiting a little lets the other finish. Any other error, or
// SQLITE_BUSY past timeout, is returned as it is.
func retryOpenBusy(timeout time.Duration, fn func() error) error {
	deadline := time.Now().Add(timeout)
	for delay := 5 * time.Millisecond; ; delay = min(2*delay, 100*time.Millisecond) {
		err := fn()
		if err == nil || !(errors.Is(err, ErrBusy) || isBusy(err)) || time.Now().After(deadline) {
			return err
		}
		time.Sleep(delay)
	}
}

// openReaders opens the reader pool (DSN query rq) and pins the
// definitions cache's connection.
func (db *DB) openReaders(rq url.Values) error {
	r, err := sql.Open("sqlite", db.path+"?"+rq.Encode())
	if err != nil {
		return err
	}
	// One extra connection is pinned by the definitions cache.
	r.SetMaxOpenConns(db.opts.Readers + 1)
	r.SetMaxIdleConns(db.opts.Readers + 1)
	db.r = r
	if err := db.defs.init(db); err != nil {
		r.Close()
		return err
	}
	return nil
}

// closePools closes the reader pool (unless it is the writer's) and the
// writer.
func (db *DB) closePools() error {
	var err error
	if db.r != db.w {
		err = db.r.Close()
	}
	return errors.Join(err, db.w.Close())
}

// restrictFiles makes the database and its -wal/-shm files owner-only
// (best effort: missing files and foreign owners are ignored).
func restrictFiles(path string) {
	if path == MemoryPath {
		return
	}
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode().Perm()&0o077 != 0 {
			_ = os.Chmod(p, st.Mode().Perm()&0o700)
		}
	}
}

// writerStmt returns q prepared once on the writer connection (cached by its
// text). It must be called outside a write transaction: the writer pool has
// exactly one connection, which the transaction would hold.
func (db *DB) writerStmt(ctx context.Context, q string) (*sql.Stmt, error) {
	db.stmts.Lock()
	defer db.stmts.Unlock()
	if st := db.stmts.m[q]; st != nil {
		return st, nil
	}
	st, err := db.w.PrepareContext(ctx, q)
	if err != nil {
		return nil, mapErr(err)
	}
	if db.stmts.m == nil {
		db.stmts.m = map[string]*sql.Stmt{}
	}
	db.stmts.m[q] = st
	return st, nil
}

// Path returns the database file path.
func (db *DB) Path() string { return db.path }

// Close stops the group committer (pending Emit calls are committed first) and
// closes all connections.
func (db *DB) Close() error {
	var err error
	db.closeOnce.Do(func() {
		db.emitter.stop() // commits what was handed over
		close(db.closed)
		db.defs.close()
		db.insertRunStmt.Close()
		db.stmts.Lock()
		for _, st := range db.stmts.m {
			st.Close()
		}
		db.stmts.m = nil
		db.stmts.Unlock()
		err = db.closePools()
	})
	return err
}

// sqliteCode returns the primary SQLite result code of err, or 0.
func sqliteCode(err error) int {
	var se *sqlite.Error
	if errors.As(err, &se) {
		return se.Code() & 0xff
	}
	return 0
}

func isBusy(err error) bool {
	c := sqliteCode(err)
	return c == sqlite3.SQLITE_BUSY || c == sqlite3.SQLITE_LOCKED
}

// mapErr turns driver errors callers branch on into the package sentinels,
// keeping the original error in the chain for the message.
func mapErr(err error) error {
	if err == nil {
		return nil
	}
	switch sqliteCode(err) {
	case sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB:
		return fmt.Errorf("%w: %w", ErrCorrupt, err)
	case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
		return fmt.Errorf("%w: %w", ErrBusy, err)
	case sqlite3.SQLITE_FULL:
		return fmt.Errorf("%w: %w", ErrFull, err)
	case sqlite3.SQLITE_CONSTRAINT:
		return fmt.Errorf("%w: %w", ErrConflict, err)
	}
	return err
}

// writeTx runs fn in one BEGIN IMMEDIATE transaction on the writer
// connection, retrying the whole transaction on SQLITE_BUSY up to
// Options.BusyRetries more times. fn must be safe to run again (reset any
// state it accumulates at its start). Errors are mapped with mapErr.
func (db *DB) writeTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	var err error
	for attempt := 0; attempt <= db.opts.BusyRetries; attempt++ {
		if attempt > 0 {
			// Short jittered pause: the other writer is usually about to commit.
			d := time.Duration(5+rand.IntN(20)) * time.Millisecond
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(d):
			}
		}
		err = db.tryTx(ctx, fn)
		if err == nil || !isBusy(err) {
			return mapErr(err)
		}
	}
	return mapErr(err)
}

func (db *DB) tryTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	select {
	case <-db.closed:
		return ErrClosed
	default:
	}
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	return tx.Commit()
}

// Time is stored as fixed-width RFC 3339 UTC text with microseconds, so that
// string order equals time order (§9.2: "时间列全部是 ISO 字符串").
const tsLayout = "2006-01-02T15:04:05.000000Z"

func ts(t time.Time) string { return t.UTC().Format(tsLayout) }

func parseTS(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}
	}
	return t
}

func nullTS(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return ts(t)
}

func nullStr(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func nullJSON(b []byte) any {
	if len(b) == 0 {
		return nil
	}
	return string(b)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
