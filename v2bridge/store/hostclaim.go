package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// hostActionTypes are the actions only a connected host executes (§6):
// their runs wait in the queue for a host that declared them.
const hostActionTypes = `('notification', 'sound', 'tool')`

// SkipUnclaimedHostRuns ends the queued host-action runs (notification,
// sound, tool) that became claimable before cutoff — queued, or due after a
// backoff, no later than cutoff — and no capable host has claimed since: they
// become skipped with code and message (the message says how long they
// waited), finished now, so a notification queued long ago never appears
// later in an unrelated session. While the master switch is off nothing is
// skipped: queued runs are kept for when it is turned back on (§12 "已入队任务
// 保留待恢复"). A cheap read finds out first whether there is anything to do;
// the write happens only then. It returns the runs it changed.
func (db *DB) SkipUnclaimedHostRuns(ctx context.Context, now, cutoff time.Time, code, message string) ([]Run, error) {
	const due = ` FROM hook_runs WHERE status = 'queued' AND action_type IN ` + hostActionTypes + `
		AND max(updated_at, COALESCE(next_attempt_at, '')) < ?`
	var n int
	if err := db.r.QueryRowContext(ctx, `SELECT count(*)`+due, ts(cutoff)).Scan(&n); err != nil {
		return nil, mapErr(err)
	}
	if n == 0 {
		return nil, nil
	}
	var out []Run
	nowS := ts(now)
	err := db.writeTx(ctx, func(tx *sql.Tx) error {
		out = nil
		if on, err := masterSwitch(ctx, tx); err != nil || !on {
			return err
		}
		rows, err := tx.QueryContext(ctx, `UPDATE hook_runs SET status = 'skipped', error_code = ?,
			error_message = ?, finished_at = ?, duration_ms = `+durationExpr+`, next_attempt_at = NULL,
			updated_at = ?, `+dropPrivateExecution+`
			WHERE id IN (SELECT id`+due+`) RETURNING `+runCols,
			code, message, nowS, nowS, nowS, ts(cutoff))
		if err != nil {
			return err
		}
		out, err = scanRuns(rows, nil)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("skipping unclaimed host-action runs: %w", mapErr(err))
	}
	db.subs.runsChanged(out)
	return out, nil
}
