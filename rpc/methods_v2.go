package rpc

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/hookside/hookside/internal/home"
	"github.com/hookside/hookside/internal/jsonexact"
	"github.com/hookside/hookside/internal/jsonint"
	"github.com/hookside/hookside/v2bridge"
	"github.com/hookside/hookside/v2bridge/store"
	"github.com/sourcegraph/jsonrpc2"
)

// V2 error codes (docs/protocol.md §5): hookside additions to PROTOCOL §1.
const (
	// CodeV2Unavailable: the V2 database cannot be used (corrupt, locked
	// beyond the busy timeout, unwritable home). Shell hooks keep working.
	CodeV2Unavailable = -32014
	// CodeRunState: v2/runs/retry or cancel refused in the run's state
	// (§11.2). data = {runId, status}.
	CodeRunState = -32015
	// CodeConflict: a binding for that hook and scope, or a definition with
	// that id, already exists; or an authorization named a hash that is not
	// the definition's current one where that is refused
	// (v2bridge.UpdateBindingChecked: data = {bindingId, hookId,
	// executionHash, given}).
	CodeConflict = -32016
)

// v2state is the connection's V2 bridge, opened lazily: at initialize in the
// background when <home>/hookside.db already exists (so queued runs and
// start-up recovery happen without a v2 call), else at the first v2/*
// request. A failed open is retried by the next v2/* request (at most once
// a second) and never affects initialize or hooks/run.
type v2state struct {
	mu       sync.Mutex
	bridge   *v2bridge.Bridge
	lastErr  error
	lastTry  time.Time
	closed   bool
	openOnce sync.Mutex // serializes opens
}

// v2Bridge returns the open bridge, opening it if needed.
func (s *Server) v2Bridge() (*v2bridge.Bridge, error) {
	st := &s.v2
	st.openOnce.Lock()
	defer st.openOnce.Unlock()
	st.mu.Lock()
	if st.bridge != nil || st.closed {
		b, closed := st.bridge, st.closed
		st.mu.Unlock()
		if closed {
			return nil, &Error{Code: CodeInvalidRequest, Message: "invalid request: the server is shutting down"}
		}
		return b, nil
	}
	if st.lastErr != nil && time.Since(st.lastTry) < time.Second {
		err := st.lastErr
		st.mu.Unlock()
		return nil, unavailable(err)
	}
	st.mu.Unlock()

	s.mu.Lock()
	home := s.home
	var actions, optOut []string
	var locale string
	if s.init != nil {
		actions = s.init.Capabilities.HostActions
		optOut = s.init.Capabilities.OptOutNotifications
		locale = s.init.Locale
	}
	s.mu.Unlock()
	notifyRuns, notifyBindings := true, true
	for _, m := range optOut {
		switch m {
		case "v2/run/updated":
			notifyRuns = false
		case "v2/binding/updated":
			notifyBindings = false
		}
	}
	opts := v2bridge.Options{Home: home, Logger: s.log, Locale: locale}
	if notifyRuns {
		opts.OnRunUpdated = func(r store.Run) { s.notify("v2/run/updated", map[string]any{"run": r}) }
	}
	if notifyBindings {
		opts.OnBindingUpdated = func(bd v2bridge.BindingView, reason string) {
			s.notify("v2/binding/updated", map[string]any{"binding": bd, "reason": reason})
		}
	}
	b, err := v2bridge.Open(opts)
	st.mu.Lock()
	defer st.mu.Unlock()
	st.lastTry = time.Now()
	if err != nil {
		st.lastErr = err
		s.log.Warn("v2 store unavailable", "home", home, "err", err)
		LogV2Detail(s.log, err)
		return nil, unavailable(err)
	}
	if st.closed { // shut down meanwhile
		go b.Close(0)
		return nil, &Error{Code: CodeInvalidRequest, Message: "invalid request: the server is shutting down"}
	}
	st.bridge, st.lastErr = b, nil
	// The connected host, with the actions it declared (maybe none: then
	// host action runs it dispatches are blocked, see v2bridge's rule).
	b.AttachHost(connHost{s}, actions)
	return b, nil
}

// v2OpenIfPresent opens the bridge in the background after initialize when
// the database already exists; failures are logged, never fatal.
func (s *Server) v2OpenIfPresent() {
	s.mu.Lock()
	dir := s.home
	s.mu.Unlock()
	if _, err := os.Stat(home.DBPath(dir)); err != nil {
		return
	}
	go func() {
		if _, err := s.v2Bridge(); err != nil {
			s.log.Debug("v2 background open failed", "err", err)
		}
	}()
}

// v2Close closes the bridge at shutdown: in-flight actions get grace to
// finish, the rest are recorded outcome_unknown.
func (s *Server) v2Close(grace time.Duration) {
	st := &s.v2
	st.openOnce.Lock()
	st.mu.Lock()
	b := st.bridge
	st.bridge, st.closed = nil, true
	st.mu.Unlock()
	st.openOnce.Unlock()
	if b != nil {
		b.DetachHost()
		if err := b.Close(grace); err != nil {
			s.log.Warn("closing the v2 store", "err", err)
		}
	}
}

func unavailable(err error) *Error {
	// The bridge's errors already start with "v2 store unavailable: ": say it
	// once. A database error says its plain reason, not the driver's text.
	reason := err.Error()
	var de *v2bridge.DatabaseError
	if errors.As(err, &de) {
		reason = de.Error()
	}
	for {
		r := strings.TrimPrefix(reason, v2bridge.ErrUnavailable.Error()+": ")
		if r == reason {
			break
		}
		reason = r
	}
	return &Error{Code: CodeV2Unavailable, Message: "V2 store unavailable: " + reason,
		Data: map[string]string{"reason": reason}}
}

// v2Error maps bridge errors to wire errors.
func v2Error(err error) error {
	var ie *v2bridge.InvalidError
	var rse *store.RunStateError
	var ce *v2bridge.ConflictError
	var hm *v2bridge.HashMismatchError
	var re *Error
	switch {
	case errors.As(err, &re):
		return re
	case errors.As(err, &ie):
		e := InvalidParams(ie.Field, ie.Reason)
		if ie.Data != nil {
			e.Data = map[string]any{"field": ie.Field, "reason": ie.Reason, "details": ie.Data}
		}
		return e
	case errors.Is(err, v2bridge.ErrNotFound):
		return &Error{Code: CodeNotFound, Message: "not found: " + v2bridge.PlainText(err)}
	case errors.As(err, &rse):
		return &Error{Code: CodeRunState, Message: rse.Error(), Data: map[string]string{"runId": rse.RunID, "status": rse.Status}}
	case errors.As(err, &ce):
		return &Error{Code: CodeConflict, Message: ce.Error()}
	case errors.As(err, &hm):
		return &Error{Code: CodeConflict, Message: hm.Error(),
			Data: map[string]string{"bindingId": hm.BindingID, "hookId": hm.HookID, "executionHash": hm.Current, "given": hm.Given}}
	case errors.Is(err, v2bridge.ErrConflict):
		return &Error{Code: CodeConflict, Message: "conflict: the record already exists; use update or upsert"}
	case errors.Is(err, v2bridge.ErrUnavailable):
		return unavailable(err)
	case errors.Is(err, context.Canceled):
		return err
	}
	return internalV2Error()
}

// connHost executes host actions over this connection (server→client
// requests, PROTOCOL §5.2). It is called from v2bridge workers, never from
// the read goroutine.
type connHost struct{ s *Server }

// Call sends one host request and decodes the host's result into result
// with exact member names (docs/protocol.md §1: {"Shown":true} is not
// {"shown":true}); the library's own decoding would match names ignoring
// case, so it only hands over the raw result.
func (h connHost) Call(ctx context.Context, method string, params, result any) error {
	var raw json.RawMessage
	err := h.s.conn.Call(ctx, method, params, &raw)
	var je *jsonrpc2.Error
	switch {
	case err == nil:
		if result == nil || raw == nil {
			return nil
		}
		return jsonexact.Unmarshal(raw, result)
	case errors.As(err, &je):
		return &v2bridge.HostError{Code: je.Code, Message: je.Message}
	case ctx.Err() != nil:
		return ctx.Err()
	case errors.Is(err, jsonrpc2.ErrClosed):
		return errors.Join(v2bridge.ErrHostGone, err)
	}
	return err
}

// --- handlers: decode params, call the bridge, return the result ---

func (s *Server) v2Emit(ctx context.Context, b *v2bridge.Bridge, p v2bridge.EmitParams) (v2bridge.EmitResult, error) {
	return b.Emit(ctx, p)
}

type defParams struct {
	ID         string          `json:"id"`
	Definition json.RawMessage `json:"definition"`
	Patch      json.RawMessage `json:"patch"`
	Envelope   json.RawMessage `json:"envelope"`
	EventName  string          `json:"eventName"`
}

func (s *Server) v2DefCreate(ctx context.Context, b *v2bridge.Bridge, p defParams) (v2bridge.DefinitionResult, error) {
	return b.CreateDefinition(ctx, p.Definition)
}

func (s *Server) v2DefUpdate(ctx context.Context, b *v2bridge.Bridge, p defParams) (v2bridge.UpdateDefinitionResult, error) {
	return b.UpdateDefinition(ctx, p.ID, p.Patch)
}

func (s *Server) v2DefUpsert(ctx context.Context, b *v2bridge.Bridge, p defParams) (v2bridge.UpsertDefinitionResult, error) {
	return b.UpsertDefinition(ctx, p.Definition)
}

func (s *Server) v2DefDelete(ctx context.Context, b *v2bridge.Bridge, p defParams) (v2bridge.DeleteDefinitionResult, error) {
	return b.DeleteDefinition(ctx, p.ID)
}

func (s *Server) v2DefGet(ctx context.Context, b *v2bridge.Bridge, p defParams) (v2bridge.DefinitionResult, error) {
	return b.GetDefinition(ctx, p.ID)
}

func (s *Server) v2DefList(ctx context.Context, b *v2bridge.Bridge, p defParams) (v2bridge.ListDefinitionsResult, error) {
	return b.ListDefinitions(ctx, p.EventName)
}

// v2DefValidate needs no database.
func (s *Server) v2DefValidate(_ context.Context, p defParams) (v2bridge.ValidateResult, error) {
	res, err := v2bridge.ValidateDefinition(p.Definition)
	if err != nil {
		return res, v2Error(err)
	}
	return res, nil
}

func (s *Server) v2DefPreview(ctx context.Context, b *v2bridge.Bridge, p defParams) (v2bridge.PreviewResult, error) {
	return b.Preview(ctx, p.Definition, p.ID, p.Envelope)
}

func (s *Server) v2DefTestRun(ctx context.Context, b *v2bridge.Bridge, p defParams) (v2bridge.TestRunResult, error) {
	return b.TestRun(ctx, p.ID, p.Envelope)
}

type bindParams struct {
	ID        string `json:"id"`
	HookID    string `json:"hookId"`
	ScopeKind string `json:"scopeKind"`
	ScopeID   string `json:"scopeId"`
	Enabled   *bool  `json:"enabled"`
	Authorize *struct {
		ExecutionHash *string `json:"executionHash"`
	} `json:"authorize"`
}

func (s *Server) v2BindCreate(ctx context.Context, b *v2bridge.Bridge, p bindParams) (v2bridge.BindingView, error) {
	return b.CreateBinding(ctx, p.HookID, p.ScopeKind, p.ScopeID)
}

func (s *Server) v2BindUpsert(ctx context.Context, b *v2bridge.Bridge, p bindParams) (v2bridge.UpsertBindingResult, error) {
	return b.UpsertBinding(ctx, p.HookID, p.ScopeKind, p.ScopeID)
}

func (s *Server) v2BindUpdate(ctx context.Context, b *v2bridge.Bridge, p bindParams) (v2bridge.BindingView, error) {
	var hash *string
	if p.Authorize != nil {
		if p.Authorize.ExecutionHash == nil {
			return v2bridge.BindingView{}, InvalidParams("authorize.executionHash", "required")
		}
		hash = p.Authorize.ExecutionHash
	}
	return b.UpdateBinding(ctx, p.ID, p.Enabled, hash)
}

type deletedResult struct {
	Deleted bool `json:"deleted"`
}

func (s *Server) v2BindDelete(ctx context.Context, b *v2bridge.Bridge, p bindParams) (*deletedResult, error) {
	if err := b.DeleteBinding(ctx, p.ID); err != nil {
		return nil, err
	}
	return &deletedResult{Deleted: true}, nil
}

type bindingsResult struct {
	Bindings []v2bridge.BindingView `json:"bindings"`
}

func (s *Server) v2BindList(ctx context.Context, b *v2bridge.Bridge, p bindParams) (*bindingsResult, error) {
	bs, err := b.ListBindings(ctx, p.HookID)
	if err != nil {
		return nil, err
	}
	return &bindingsResult{Bindings: bs}, nil
}

func (s *Server) v2BindEffective(ctx context.Context, b *v2bridge.Bridge, p v2bridge.EffectiveParams) (v2bridge.EffectiveResult, error) {
	return b.EffectiveBindings(ctx, p)
}

func (s *Server) v2RunsList(ctx context.Context, b *v2bridge.Bridge, p v2bridge.RunsListParams) (v2bridge.RunsListResult, error) {
	return b.ListRuns(ctx, p)
}

type idParams struct {
	ID string `json:"id"`
}

func (s *Server) v2RunsGet(ctx context.Context, b *v2bridge.Bridge, p idParams) (v2bridge.RunResult, error) {
	return b.GetRun(ctx, p.ID)
}

func (s *Server) v2RunsRetry(ctx context.Context, b *v2bridge.Bridge, p idParams) (v2bridge.RunResult, error) {
	return b.RetryRun(ctx, p.ID)
}

func (s *Server) v2RunsCancel(ctx context.Context, b *v2bridge.Bridge, p idParams) (v2bridge.RunResult, error) {
	return b.CancelRun(ctx, p.ID)
}

func (s *Server) v2SettingsGet(ctx context.Context, b *v2bridge.Bridge, _ noParams) (store.Settings, error) {
	return b.GetSettings(ctx)
}

type settingsUpdateParams struct {
	Enabled        *bool                 `json:"enabled"`
	AllowHighWrite *bool                 `json:"allowHighWrite"`
	Retention      *store.RetentionPatch `json:"retention"` // merged field by field
}

// IntRange is the range of retention.<name> (jsonint.Ranged).
func (settingsUpdateParams) IntRange(path string) (jsonint.Range, bool) {
	name, ok := strings.CutPrefix(path, "retention.")
	if !ok {
		return jsonint.Range{}, false
	}
	return store.RetentionRange(name)
}

func (s *Server) v2SettingsUpdate(ctx context.Context, b *v2bridge.Bridge, p settingsUpdateParams) (store.Settings, error) {
	return b.UpdateSettings(ctx, store.SettingsPatch{Enabled: p.Enabled, AllowHighWrite: p.AllowHighWrite, RetentionFields: p.Retention})
}

func (s *Server) v2Migrate(ctx context.Context, b *v2bridge.Bridge, p v2bridge.MigrateParams) (v2bridge.MigrateResult, error) {
	return b.Migrate(ctx, p)
}
