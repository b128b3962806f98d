package store

import (
	"context"
	"database/sql"
	"fmt"
)

// migrations are applied in order; migration i+1 is schema version i+1. Each
// runs in one BEGIN IMMEDIATE transaction together with its row in
// schema_migrations, so a crash leaves either the old or the new version and
// two processes opening the same new file cannot both apply it. Never edit a
// released migration: append a new one.
var migrations = []string{
	// 1: the four tables of §9.2 plus settings, kv and meta.
	`
CREATE TABLE hook_definitions (
	id                 TEXT PRIMARY KEY,
	name               TEXT NOT NULL,
	description        TEXT NOT NULL DEFAULT '',
	enabled            INTEGER NOT NULL CHECK (enabled IN (0,1)),
	event_name         TEXT NOT NULL,
	condition_json     TEXT,
	action_json        TEXT NOT NULL,
	input_mapping_json TEXT,
	timeout_ms         INTEGER NOT NULL,
	retry_policy_json  TEXT NOT NULL,
	concurrency_policy TEXT NOT NULL CHECK (concurrency_policy IN ('serial_per_session','parallel')),
	revision           INTEGER NOT NULL,
	execution_hash     TEXT NOT NULL,
	schema_version     INTEGER NOT NULL DEFAULT 1,
	created_at         TEXT NOT NULL,
	updated_at         TEXT NOT NULL
);
CREATE INDEX hook_definitions_event ON hook_definitions(event_name, enabled);

CREATE TABLE hook_bindings (
	id                     TEXT PRIMARY KEY,
	hook_id                TEXT NOT NULL REFERENCES hook_definitions(id) ON DELETE CASCADE,
	scope_kind             TEXT NOT NULL CHECK (scope_kind IN ('application','workspace','agent','session')),
	scope_id               TEXT NOT NULL,
	enabled                INTEGER NOT NULL CHECK (enabled IN (0,1)),
	trusted_execution_hash TEXT,
	trusted_at             TEXT,
	created_at             TEXT NOT NULL,
	updated_at             TEXT NOT NULL,
	UNIQUE (hook_id, scope_kind, scope_id),
	CHECK (scope_kind <> 'application' OR scope_id = ''),
	CHECK (scope_kind = 'application' OR scope_id <> '')
);

CREATE TABLE hook_events (
	event_id    TEXT PRIMARY KEY,
	event_name  TEXT NOT NULL,
	session_id  TEXT NOT NULL DEFAULT '',
	turn_id     TEXT NOT NULL DEFAULT '',
	envelope    TEXT NOT NULL,
	status      TEXT NOT NULL CHECK (status IN ('pending','dispatching','resolved','failed')),
	lease_owner TEXT,
	lease_until TEXT,
	attempts    INTEGER NOT NULL DEFAULT 0,
	last_error  TEXT,
	created_at  TEXT NOT NULL,
	resolved_at TEXT
);
-- One index serves the dispatcher (status = pending / dispatching) and the
-- retention sweep (status, resolved_at): every index is one more page per
-- Emit commit.
CREATE INDEX hook_events_status ON hook_events(status, resolved_at);
CREATE INDEX hook_events_session ON hook_events(session_id);

CREATE TABLE hook_runs (
	seq                INTEGER PRIMARY KEY, -- insertion order = queue order (§10.5)
	id                 TEXT NOT NULL UNIQUE,
	event_id           TEXT NOT NULL,
	event_name         TEXT NOT NULL,
	hook_id            TEXT NOT NULL,       -- no FK: runs outlive their definition (§9.2)
	hook_revision      INTEGER NOT NULL,
	binding_id         TEXT,
	session_id         TEXT NOT NULL DEFAULT '',
	turn_id            TEXT NOT NULL DEFAULT '',
	is_test_run        INTEGER NOT NULL DEFAULT 0 CHECK (is_test_run IN (0,1)),
	status             TEXT NOT NULL CHECK (status IN ('queued','running','succeeded','failed','skipped','blocked','cancelled','outcome_unknown')),
	error_code         TEXT,
	error_message      TEXT,
	attempt_count      INTEGER NOT NULL DEFAULT 0,
	concurrency_policy TEXT NOT NULL DEFAULT 'serial_per_session' CHECK (concurrency_policy IN ('serial_per_session','parallel')),
	execution_json     TEXT,
	input_summary      TEXT,
	output_summary     TEXT,
	next_attempt_at    TEXT,
	lease_owner        TEXT,
	lease_until        TEXT,
	started_at         TEXT,
	finished_at        TEXT,
	duration_ms        INTEGER,
	created_at         TEXT NOT NULL,
	updated_at         TEXT NOT NULL
);
-- §3.2 run-level dedupe; test runs are exempt.
CREATE UNIQUE INDEX hook_runs_event_hook ON hook_runs(event_id, hook_id) WHERE is_test_run = 0;
CREATE INDEX hook_runs_queued  ON hook_runs(seq) WHERE status = 'queued';
CREATE INDEX hook_runs_running ON hook_runs(lease_until) WHERE status = 'running';
CREATE INDEX hook_runs_serial  ON hook_runs(hook_id, session_id, status, seq);
CREATE INDEX hook_runs_created ON hook_runs(created_at, id);
CREATE INDEX hook_runs_hook    ON hook_runs(hook_id, created_at, id);
CREATE INDEX hook_runs_session ON hook_runs(session_id, created_at, id);
CREATE INDEX hook_runs_ename   ON hook_runs(event_name, created_at, id);
CREATE INDEX hook_runs_status  ON hook_runs(status, created_at, id);
CREATE INDEX hook_runs_event   ON hook_runs(event_id);

CREATE TABLE settings (
	key        TEXT PRIMARY KEY,
	value      TEXT NOT NULL,
	updated_at TEXT NOT NULL
);

CREATE TABLE kv (
	key        TEXT PRIMARY KEY,
	value      TEXT NOT NULL,
	updated_at TEXT NOT NULL
);

-- meta.defs_gen counts definition writes by any process; HasEnabledDefinition
-- compares it after PRAGMA data_version says something changed.
CREATE TABLE meta (
	key   TEXT PRIMARY KEY,
	value INTEGER NOT NULL
);
INSERT INTO meta(key, value) VALUES ('defs_gen', 0);
CREATE TRIGGER hook_definitions_ai AFTER INSERT ON hook_definitions
	BEGIN UPDATE meta SET value = value + 1 WHERE key = 'defs_gen'; END;
CREATE TRIGGER hook_definitions_au AFTER UPDATE ON hook_definitions
	BEGIN UPDATE meta SET value = value + 1 WHERE key = 'defs_gen'; END;
CREATE TRIGGER hook_definitions_ad AFTER DELETE ON hook_definitions
	BEGIN UPDATE meta SET value = value + 1 WHERE key = 'defs_gen'; END;
`,
	// 2: the session mailbox (mailbox.go). read_at is NULL while unread.
	`
CREATE TABLE session_mailbox (
	seq        INTEGER PRIMARY KEY, -- delivery order
	id         TEXT NOT NULL UNIQUE,
	session_id TEXT NOT NULL,
	sender     TEXT NOT NULL DEFAULT '',
	body       TEXT NOT NULL,
	created_at TEXT NOT NULL,
	read_at    TEXT
);
CREATE INDEX session_mailbox_session ON session_mailbox(session_id, seq);
CREATE INDEX session_mailbox_unread  ON session_mailbox(session_id, seq) WHERE read_at IS NULL;
`,
	// 3: hook_runs.action_type, the snapshot's $.action.type written by Go at
	// insert, so the claim query never runs SQLite JSON functions over a
	// snapshot (which embeds the host's payload: one snapshot SQLite cannot
	// parse, e.g. nested deeper than its limit of 1000, used to fail every
	// claim). Old rows are backfilled where the snapshot parses; a queued run
	// whose snapshot does not parse is failed here instead of blocking.
	`
ALTER TABLE hook_runs ADD COLUMN action_type TEXT;
UPDATE hook_runs SET action_type = CASE WHEN json_valid(execution_json)
	THEN json_extract(execution_json, '$.action.type') END WHERE execution_json IS NOT NULL;
UPDATE hook_runs SET status = 'failed', error_code = 'action_failed',
	error_message = 'execution snapshot unreadable by the store (e.g. payload nested too deep)',
	finished_at = strftime('%Y-%m-%dT%H:%M:%fZ','now'), next_attempt_at = NULL
	WHERE status = 'queued' AND execution_json IS NOT NULL AND action_type IS NULL;
`,
	// 4: terminal runs no longer keep the unredacted envelope (and an async
	// shell hook's stdin and transcript) in their execution snapshot
	// (PrivateExecutionMembers): drop them from the rows written before.
	`
UPDATE hook_runs SET ` + dropPrivateExecution + `
	WHERE status NOT IN ('queued','running') AND execution_json IS NOT NULL;
`,
}

// SchemaVersion is the schema version this binary migrates to.
func SchemaVersion() int { return len(migrations) }

// migrate applies every migration newer than the file's version. It is
// idempotent and safe against a concurrent migrate in another process.
func (db *DB) migrate(ctx context.Context) error {
	// The first statement on a garbage file fails here with SQLITE_NOTADB.
	if err := db.w.PingContext(ctx); err != nil {
		return mapErr(err)
	}
	// A file already at this binary's version (every open but the first)
	// needs no write transaction: one read decides. Any error here (a new
	// file without schema_migrations) takes the migrating path below, which
	// reports real failures.
	var cur sql.NullInt64
	if err := db.w.QueryRowContext(ctx, `SELECT max(version) FROM schema_migrations`).Scan(&cur); err == nil && cur.Valid {
		switch v := int(cur.Int64); {
		case v == len(migrations):
			return nil
		case v > len(migrations):
			return fmt.Errorf("%w: file has version %d, binary knows %d", ErrSchemaTooNew, v, len(migrations))
		}
	}
	err := db.writeTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
			version    INTEGER PRIMARY KEY,
			applied_at TEXT NOT NULL)`)
		return err
	})
	if err != nil {
		return fmt.Errorf("schema_migrations: %w", err)
	}
	for i, m := range migrations {
		version := i + 1
		err := db.writeTx(ctx, func(tx *sql.Tx) error {
			var n int
			if err := tx.QueryRowContext(ctx,
				`SELECT count(*) FROM schema_migrations WHERE version = ?`, version).Scan(&n); err != nil {
				return err
			}
			if n > 0 {
				return nil
			}
			if _, err := tx.ExecContext(ctx, m); err != nil {
				return err
			}
			_, err := tx.ExecContext(ctx,
				`INSERT INTO schema_migrations(version, applied_at) VALUES (?, ?)`, version, ts(db.now()))
			return err
		})
		if err != nil {
			return fmt.Errorf("migration %d: %w", version, err)
		}
	}
	var max sql.NullInt64
	if err := db.w.QueryRowContext(ctx, `SELECT max(version) FROM schema_migrations`).Scan(&max); err != nil {
		return mapErr(err)
	}
	if int(max.Int64) > len(migrations) {
		return fmt.Errorf("%w: file has version %d, binary knows %d", ErrSchemaTooNew, max.Int64, len(migrations))
	}
	return nil
}
