package v2bridge

import (
	"context"
	"errors"
	"time"

	"github.com/hookside/hookside/internal/jsonint"
	"github.com/hookside/hookside/v2bridge/expr"
	"github.com/hookside/hookside/v2bridge/store"
)

// RunsListParams are the v2/runs/list params (PROTOCOL §5.2).
type RunsListParams struct {
	Status    string `json:"status,omitempty"`
	HookID    string `json:"hookId,omitempty"`
	EventName string `json:"eventName,omitempty"`
	EventID   string `json:"eventId,omitempty"`
	SessionID string `json:"sessionId,omitempty"`
	Since     string `json:"since,omitempty"`
	Until     string `json:"until,omitempty"`
	Limit     int    `json:"limit,omitempty"`
	Cursor    string `json:"cursor,omitempty"`
}

// limitRange is the range of RunsListParams.Limit: 0 (or absent) is
// store.DefaultListLimit.
var limitRange = jsonint.Range{Min: 0, Max: store.MaxListLimit}

// IntRange is the range of the integer field at path ("limit";
// jsonint.Ranged).
func (RunsListParams) IntRange(path string) (jsonint.Range, bool) {
	return limitRange, path == "limit"
}

// RunsListResult is {runs, nextCursor}.
type RunsListResult struct {
	Runs       []store.Run `json:"runs"`
	NextCursor *string     `json:"nextCursor"`
}

// ListRuns lists runs newest first with paging (§11.2 and the §14.3 gap:
// filters by time, event and session).
func (b *Bridge) ListRuns(ctx context.Context, p RunsListParams) (RunsListResult, error) {
	f := store.RunFilter{Status: p.Status, HookID: p.HookID, EventName: p.EventName, EventID: p.EventID,
		SessionID: p.SessionID, Limit: p.Limit, Cursor: p.Cursor}
	if p.EventName != "" && p.EventName != ShellHookEvent && !expr.KnownEvent(p.EventName) {
		return RunsListResult{}, invalid("eventName", "%s", expr.UnknownEvent(p.EventName, ShellHookEvent))
	}
	if reason := limitRange.Check(int64(p.Limit)); reason != "" {
		return RunsListResult{}, invalid("limit", "%s", reason)
	}
	for _, t := range []struct {
		field, v string
		dst      *time.Time
	}{{"since", p.Since, &f.Since}, {"until", p.Until, &f.Until}} {
		if t.v == "" {
			continue
		}
		tm, err := time.Parse(time.RFC3339Nano, t.v)
		if err != nil {
			return RunsListResult{}, invalid(t.field, "must be an RFC 3339 time")
		}
		*t.dst = tm
	}
	if err := checkSessionID(p.SessionID, false); err != nil {
		return RunsListResult{}, err
	}
	runs, next, err := b.db.ListRuns(ctx, f)
	if errors.Is(err, store.ErrBadCursor) {
		return RunsListResult{}, invalid("cursor", "%s", PlainText(err))
	}
	if err != nil {
		return RunsListResult{}, storeErr(err, "status")
	}
	if runs == nil {
		runs = []store.Run{}
	}
	res := RunsListResult{Runs: runs}
	if next != "" {
		res.NextCursor = &next
	}
	return res, nil
}

// RunResult is {run}.
type RunResult struct {
	Run store.Run `json:"run"`
}

// GetRun returns one run.
func (b *Bridge) GetRun(ctx context.Context, id string) (RunResult, error) {
	if id == "" {
		return RunResult{}, invalid("id", "required")
	}
	r, err := b.db.GetRun(ctx, id)
	return RunResult{Run: r}, storeErr(err, "id")
}

// RetryRun is the manual retry (§11.2): failed, blocked, cancelled or
// outcome_unknown go back to the queue with error code/message cleared
// (§10.5); other states are ErrRunState.
func (b *Bridge) RetryRun(ctx context.Context, id string) (RunResult, error) {
	if id == "" {
		return RunResult{}, invalid("id", "required")
	}
	r, err := b.db.RetryRun(ctx, id)
	return RunResult{Run: r}, storeErr(err, "id")
}

// CancelRun cancels a queued run (§11.2); other states are ErrRunState.
func (b *Bridge) CancelRun(ctx context.Context, id string) (RunResult, error) {
	if id == "" {
		return RunResult{}, invalid("id", "required")
	}
	r, err := b.db.CancelRun(ctx, id)
	return RunResult{Run: r}, storeErr(err, "id")
}

// GetSettings returns {enabled, allowHighWrite, retention}.
func (b *Bridge) GetSettings(ctx context.Context) (store.Settings, error) {
	s, err := b.db.GetSettings(ctx)
	return s, storeErr(err, "")
}

// UpdateSettings applies the patch (§12): turning the master switch off
// stops claiming (store) and cancels the actions in flight in this process,
// which are recorded outcome_unknown (尽力取消, nothing rolled back, §12.2);
// queued runs stay queued. Turning it on dispatches the backlog and resumes
// the workers at once.
func (b *Bridge) UpdateSettings(ctx context.Context, p store.SettingsPatch) (store.Settings, error) {
	if r := p.Retention; r != nil {
		p.RetentionFields = &store.RetentionPatch{ResolvedEventDays: &r.ResolvedEventDays, FailedEventDays: &r.FailedEventDays,
			RunDays: &r.RunDays, BatchLimit: &r.BatchLimit}
		p.Retention = nil
	}
	if r := p.RetentionFields; r != nil {
		if field, reason := r.Check(); reason != "" {
			return store.Settings{}, invalid("retention."+field, "%s", reason)
		}
	}
	before, err := b.db.GetSettings(ctx)
	if err != nil {
		return store.Settings{}, storeErr(err, "")
	}
	s, err := b.db.UpdateSettings(ctx, p)
	if err != nil {
		return store.Settings{}, storeErr(err, "")
	}
	switch {
	case before.Enabled && !s.Enabled:
		b.cancelInflight(errSwitchOff)
	case !before.Enabled && s.Enabled:
		b.wakeBacklog()
		b.workerWake.kick()
	}
	return s, nil
}
