package v2bridge

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/hookside/hookside/internal/jsonexact"
	"github.com/hookside/hookside/internal/jsonint"
	"github.com/hookside/hookside/internal/jsonpos"
	"github.com/hookside/hookside/internal/randid"
	"github.com/hookside/hookside/v2bridge/expr"
	"github.com/hookside/hookside/v2bridge/store"
)

// toStore converts a validated, defaulted definition to its stored form
// with the execution hash filled (§8.1).
func toStore(d *expr.Definition) (store.Definition, error) {
	sd := store.Definition{
		ID: d.ID, Name: d.Name, Description: d.Description, Enabled: d.Enabled == nil || *d.Enabled,
		EventName: d.EventName, ConcurrencyPolicy: d.ConcurrencyPolicy,
		ExecutionHash: expr.ExecutionHash(d),
	}
	if d.TimeoutMs != nil {
		sd.TimeoutMs = *d.TimeoutMs
	}
	var err error
	if d.Condition != nil {
		if sd.Condition, err = json.Marshal(d.Condition); err != nil {
			return sd, err
		}
	}
	if sd.Action, err = json.Marshal(d.Action); err != nil {
		return sd, err
	}
	if sd.InputMapping, err = json.Marshal(nonNilMapping(d.InputMapping)); err != nil {
		return sd, err
	}
	if sd.RetryPolicy, err = json.Marshal(d.RetryPolicy); err != nil {
		return sd, err
	}
	return sd, nil
}

func nonNilMapping(m map[string]expr.Value) map[string]expr.Value {
	if m == nil {
		return map[string]expr.Value{}
	}
	return m
}

// fromStore decodes a stored definition into the expression form (defaults
// are already in it).
func fromStore(sd store.Definition) (*expr.Definition, error) {
	b, err := json.Marshal(sd)
	if err != nil {
		return nil, err
	}
	var d expr.Definition
	if err := jsonexact.Unmarshal(b, &d); err != nil {
		return nil, fmt.Errorf("definition %s: %w", sd.ID, err)
	}
	d.ApplyDefaults()
	return &d, nil
}

// decodeDefinition decodes a wire definition (unknown fields are ignored,
// as the spec's hash ignores extra keys, §8.1; checkDefinition names them).
// A member of the wrong type fails with every such problem, and the
// unknown members as warnings beside them.
func decodeDefinition(raw json.RawMessage, field string) (*expr.Definition, error) {
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		return nil, invalid(field, "required")
	}
	var d expr.Definition
	if err := jsonexact.Unmarshal(raw, &d); err != nil {
		return nil, problemsError(field, append(shapeProblems(raw), expr.UnknownMembers(raw)...))
	}
	return &d, nil
}

// checkDefinition is every problem of d, decoded from raw: the
// validator's (expr.Validate) and, from raw as written (a definition, or
// an update's patch), a warning for each member its shape does not have
// (expr.UnknownMembers).
func checkDefinition(d *expr.Definition, raw json.RawMessage) []expr.Problem {
	return append(expr.Validate(d), expr.UnknownMembers(raw)...)
}

// warningsOf is the problems of severity warning, nil when there are none:
// the warnings member of the create, update and upsert results.
func warningsOf(problems []expr.Problem) []expr.Problem {
	var out []expr.Problem
	for _, p := range problems {
		if p.Severity == expr.SeverityWarning {
			out = append(out, p)
		}
	}
	return out
}

// problemsError is the -32602 of a definition that fails validation: the
// first error names the field, data carries every problem.
func problemsError(field string, problems []expr.Problem) error {
	for _, p := range problems {
		if p.Severity == expr.SeverityError {
			f := field
			if p.Path != "" {
				f = field + "." + p.Path
			}
			return &InvalidError{Field: f, Reason: p.Code + ": " + p.Message, Data: map[string]any{"problems": problems}}
		}
	}
	return nil
}

// DefinitionResult is {definition, warnings?} (PROTOCOL §5.2): warnings,
// set by create only, are the warning-severity problems of the definition
// as given (what v2/definitions/validate reports; unknown members,
// conditions that never match, …), left out when there are none.
type DefinitionResult struct {
	Definition store.Definition `json:"definition"`
	Warnings   []expr.Problem   `json:"warnings,omitempty"`
}

// CreateDefinition validates, defaults, hashes and stores a definition
// (v2/definitions/create): revision 1, id generated unless given.
func (b *Bridge) CreateDefinition(ctx context.Context, raw json.RawMessage) (DefinitionResult, error) {
	d, err := decodeDefinition(raw, "definition")
	if err != nil {
		return DefinitionResult{}, err
	}
	problems := checkDefinition(d, raw)
	if err := problemsError("definition", problems); err != nil {
		return DefinitionResult{}, err
	}
	d.ApplyDefaults()
	d.Revision, d.ExecutionHash, d.CreatedAt, d.UpdatedAt = 0, "", "", ""
	sd, err := toStore(d)
	if err != nil {
		return DefinitionResult{}, err
	}
	out, err := b.db.CreateDefinition(ctx, sd)
	if errors.Is(err, store.ErrConflict) {
		return DefinitionResult{}, &ConflictError{Kind: "definition", ID: sd.ID}
	}
	if err != nil {
		return DefinitionResult{}, storeErr(err, "definition.id")
	}
	return DefinitionResult{Definition: out, Warnings: warningsOf(problems)}, nil
}

// UpdateDefinitionResult is {definition, outcome, bindingsNeedingReview,
// warnings?}: outcome is updated, or unchanged when the patch changes
// nothing (nothing written; definition is the stored one, updatedAt kept);
// warnings as in DefinitionResult, of the merged definition, unknown
// members from the patch as written.
type UpdateDefinitionResult struct {
	Definition            store.Definition `json:"definition"`
	Outcome               string           `json:"outcome"`
	BindingsNeedingReview int              `json:"bindingsNeedingReview"`
	Warnings              []expr.Problem   `json:"warnings,omitempty"`
}

// readOnlyFields are ignored in a patch: the store owns them.
var readOnlyFields = []string{"revision", "executionHash", "createdAt", "updatedAt"}

// UpdateDefinition merges patch into the stored definition
// (v2/definitions/update): a present key replaces the old value, an explicit
// null removes an optional field — "condition": null removes the condition
// (the gap of §14.4 hookside fixes). The hash decides revision and trust
// (§8.2, done by the store). A patch that changes nothing — {}, or values
// equal to the stored ones (sameContent) — writes nothing: outcome
// unchanged, no revision bump, updatedAt kept. A patch of which every
// member is one a definition does not have (misspelt: {"enabeld": false})
// can only be a mistake and is -32602 on "patch", naming each member and
// the one it most likely means; data.problems holds them (unknown_member,
// severity error).
func (b *Bridge) UpdateDefinition(ctx context.Context, id string, patch json.RawMessage) (UpdateDefinitionResult, error) {
	if id == "" {
		return UpdateDefinitionResult{}, invalid("id", "required")
	}
	var pm map[string]json.RawMessage
	if err := jsonexact.Unmarshal(patch, &pm); err != nil || pm == nil {
		return UpdateDefinitionResult{}, invalid("patch", "must be an object")
	}
	if err := allUnknown(pm); err != nil {
		return UpdateDefinitionResult{}, err
	}
	cur, err := b.db.GetDefinition(ctx, id)
	if err != nil {
		return UpdateDefinitionResult{}, storeErr(err, "id")
	}
	curJSON, _ := json.Marshal(cur)
	var merged map[string]json.RawMessage
	if err := jsonexact.Unmarshal(curJSON, &merged); err != nil {
		return UpdateDefinitionResult{}, err
	}
	for k, v := range pm {
		if k == "id" {
			var pid string
			if jsonexact.Unmarshal(v, &pid) != nil || pid != id {
				return UpdateDefinitionResult{}, invalid("patch.id", "cannot change a definition's id")
			}
			continue
		}
		if contains(readOnlyFields, k) {
			continue
		}
		if string(bytes.TrimSpace(v)) == "null" {
			delete(merged, k)
			continue
		}
		merged[k] = v
	}
	for _, k := range readOnlyFields {
		delete(merged, k)
	}
	mb, _ := json.Marshal(merged)
	d, err := decodeDefinition(mb, "patch")
	if err != nil {
		return UpdateDefinitionResult{}, err
	}
	problems := checkDefinition(d, patch)
	if err := problemsError("patch", problems); err != nil {
		return UpdateDefinitionResult{}, err
	}
	d.ApplyDefaults()
	d.ID = id
	sd, err := toStore(d)
	if err != nil {
		return UpdateDefinitionResult{}, err
	}
	if sameContent(sd, cur) {
		return UpdateDefinitionResult{Definition: cur, Outcome: OutcomeUnchanged, Warnings: warningsOf(problems)}, nil
	}
	out, n, err := b.db.UpdateDefinition(ctx, sd)
	if err != nil {
		return UpdateDefinitionResult{}, storeErr(err, "id")
	}
	return UpdateDefinitionResult{Definition: out, Outcome: OutcomeUpdated, BindingsNeedingReview: n, Warnings: warningsOf(problems)}, nil
}

// allUnknown is the -32602 of a patch pm none of whose
// members a definition has, besides id and the read-only ones a patch
// cannot change; nil otherwise ({} included: it changes nothing and says
// so). The reason names each member, with the one it most likely
// means, and lists a definition's members when one has no near match.
func allUnknown(pm map[string]json.RawMessage) error {
	names := make([]string, 0, len(pm))
	for k := range pm {
		if k == "id" || contains(readOnlyFields, k) {
			continue // a definition's, but no patch changes it (get's output pasted in)
		}
		if expr.IsDefinitionMember(k) {
			return nil
		}
		names = append(names, k)
	}
	if len(names) == 0 {
		return nil
	}
	sort.Strings(names)
	hinted := true
	problems := make([]expr.Problem, len(names))
	for i, k := range names {
		h := expr.DefinitionMemberHint(k)
		hinted = hinted && h != ""
		names[i] = strconv.Quote(k) + h
		problems[i] = expr.Problem{Path: jsonpos.Key("", k), Code: expr.CodeUnknownMember,
			Message: "unknown member " + names[i], Severity: expr.SeverityError}
	}
	reason := "no member of the patch is one a definition has, so it would change nothing: " + strings.Join(names, ", ")
	if !hinted {
		reason += "; a definition has " + expr.DefinitionMembers()
	}
	return &InvalidError{Field: "patch", Reason: reason, Data: map[string]any{"problems": problems}}
}

// DeleteDefinitionResult is {bindingsDeleted, runsRetained}.
type DeleteDefinitionResult struct {
	BindingsDeleted int `json:"bindingsDeleted"`
	RunsRetained    int `json:"runsRetained"`
}

// DeleteDefinition deletes a definition; bindings cascade, runs stay (§9.2).
func (b *Bridge) DeleteDefinition(ctx context.Context, id string) (DeleteDefinitionResult, error) {
	if id == "" {
		return DeleteDefinitionResult{}, invalid("id", "required")
	}
	bd, rr, err := b.db.DeleteDefinition(ctx, id)
	if err != nil {
		return DeleteDefinitionResult{}, storeErr(err, "id")
	}
	return DeleteDefinitionResult{BindingsDeleted: bd, RunsRetained: rr}, nil
}

// GetDefinition returns {definition}.
func (b *Bridge) GetDefinition(ctx context.Context, id string) (DefinitionResult, error) {
	if id == "" {
		return DefinitionResult{}, invalid("id", "required")
	}
	d, err := b.db.GetDefinition(ctx, id)
	if err != nil {
		return DefinitionResult{}, storeErr(err, "id")
	}
	return DefinitionResult{Definition: d}, nil
}

// ListDefinitionsResult is {definitions}.
type ListDefinitionsResult struct {
	Definitions []store.Definition `json:"definitions"`
}

// ListDefinitions lists all definitions or those of one event.
func (b *Bridge) ListDefinitions(ctx context.Context, eventName string) (ListDefinitionsResult, error) {
	if eventName != "" && !expr.KnownEvent(eventName) {
		return ListDefinitionsResult{}, invalid("eventName", "%s", expr.UnknownEvent(eventName))
	}
	ds, err := b.db.ListDefinitions(ctx, eventName)
	if err != nil {
		return ListDefinitionsResult{}, storeErr(err, "")
	}
	if ds == nil {
		ds = []store.Definition{}
	}
	return ListDefinitionsResult{Definitions: ds}, nil
}

// ValidateResult is {valid, problems}.
type ValidateResult struct {
	Valid    bool           `json:"valid"`
	Problems []expr.Problem `json:"problems"`
}

// ValidateDefinition checks a definition without storing it.
func ValidateDefinition(raw json.RawMessage) (ValidateResult, error) {
	d, err := decodeDefinition(raw, "definition")
	var ie *InvalidError
	if errors.As(err, &ie) {
		// A member of the wrong type: reported as problems, like every
		// other finding (validate answers {valid, problems}).
		if data, ok := ie.Data.(map[string]any); ok {
			if ps, ok := data["problems"].([]expr.Problem); ok {
				return ValidateResult{Valid: false, Problems: ps}, nil
			}
		}
	}
	if err != nil {
		return ValidateResult{}, err
	}
	ps := checkDefinition(d, raw)
	if ps == nil {
		ps = []expr.Problem{}
	}
	return ValidateResult{Valid: !expr.HasErrors(ps), Problems: ps}, nil
}

// PreviewResult is {valid, problems, conditionMatched, fields, mappingError?}.
type PreviewResult struct {
	Valid            bool           `json:"valid"`
	Problems         []expr.Problem `json:"problems"`
	ConditionMatched bool           `json:"conditionMatched"`
	Fields           map[string]any `json:"fields"`
	MappingError     string         `json:"mappingError,omitempty"`
	// MappingErrorCode is the stable code beside MappingError
	// (expr.MappingReason*).
	MappingErrorCode string         `json:"mappingErrorCode,omitempty"`
	Envelope         *expr.Envelope `json:"envelope,omitempty"`
}

// Preview evaluates a definition (given, or stored by id) against an
// envelope (given, or expr.SampleEnvelope) without executing anything
// (v2/definitions/preview, §2.3 step 7): condition result and the fields the
// action would send.
func (b *Bridge) Preview(ctx context.Context, raw json.RawMessage, id string, envRaw json.RawMessage) (PreviewResult, error) {
	var d *expr.Definition
	var err error
	given := len(raw) > 0 && string(raw) != "null"
	switch {
	case given:
		if d, err = decodeDefinition(raw, "definition"); err != nil {
			return PreviewResult{}, err
		}
	case id != "":
		sd, err := b.db.GetDefinition(ctx, id)
		if err != nil {
			return PreviewResult{}, storeErr(err, "id")
		}
		if d, err = fromStore(sd); err != nil {
			return PreviewResult{}, err
		}
	default:
		return PreviewResult{}, invalid("definition", "definition or id is required")
	}
	if !given {
		raw = nil // a stored definition holds no unknown members
	}
	return previewDefinition(d, raw, envRaw, b.opts.Locale)
}

// previewDefinition previews d, decoded from raw (nil: from the store).
func previewDefinition(d *expr.Definition, raw, envRaw json.RawMessage, locale string) (PreviewResult, error) {
	ps := checkDefinition(d, raw)
	if ps == nil {
		ps = []expr.Problem{}
	}
	res := PreviewResult{Valid: !expr.HasErrors(ps), Problems: ps, Fields: map[string]any{}}
	env, err := envelopeFor(d.EventName, envRaw)
	if err != nil {
		return res, err
	}
	res.Envelope = env
	if !res.Valid {
		return res, nil
	}
	dd := *d
	dd.ApplyDefaults()
	res.ConditionMatched, err = expr.Evaluate(dd.Condition, env)
	if err != nil {
		res.ConditionMatched = false
	}
	fields, err := actionFields(&dd, env, locale)
	if err != nil {
		res.MappingError = err.Error()
		var me *expr.MappingError
		if errors.As(err, &me) {
			res.MappingErrorCode = me.Reason
		}
	} else {
		res.Fields = fields
	}
	return res, nil
}

// schemaVersionRange is the range of a caller's envelope schemaVersion
// (0 or absent = expr.SchemaVersion, §3.4).
var schemaVersionRange = jsonint.Count

// envelopeFor decodes a caller's envelope for eventName, or gives the sample.
func envelopeFor(eventName string, envRaw json.RawMessage) (*expr.Envelope, error) {
	if len(bytes.TrimSpace(envRaw)) == 0 || string(bytes.TrimSpace(envRaw)) == "null" {
		e := expr.SampleEnvelope(eventName)
		return &e, nil
	}
	var e expr.Envelope
	if err := jsonexact.Unmarshal(envRaw, &e); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field == "schemaVersion" {
			reason, _ := jsonint.TypeErrorReason(te, schemaVersionRange)
			return nil, invalid("envelope.schemaVersion", "%s", reason)
		}
		return nil, invalid("envelope", "%v", err)
	}
	if reason := schemaVersionRange.Check(int64(e.SchemaVersion)); reason != "" {
		return nil, invalid("envelope.schemaVersion", "%s", reason)
	}
	if e.EventName == "" {
		e.EventName = eventName
	}
	if e.SchemaVersion == 0 {
		e.SchemaVersion = expr.SchemaVersion
	}
	if e.Source == "" {
		e.Source = "host"
	}
	if e.Payload == nil {
		e.Payload = map[string]any{}
	}
	if e.Workspaces == nil {
		e.Workspaces = []expr.Workspace{}
	}
	return &e, nil
}

// actionFields evaluates what the action would send (§6, §5): the notification
// title/body (title falls back to the event's default, §6.1), the tool's
// mapped input, the command's mapped input. Sound sends nothing. locale
// chooses the fallback title's language (DefaultNotificationTitle).
func actionFields(d *expr.Definition, env *expr.Envelope, locale string) (map[string]any, error) {
	switch d.Action.Type {
	case expr.ActionNotification:
		title, body, err := notificationText(d, env, locale)
		if err != nil {
			return nil, err
		}
		f := map[string]any{"title": title}
		if body != nil {
			f["body"] = *body
		}
		return f, nil
	case expr.ActionSound:
		return map[string]any{}, nil
	default:
		return expr.Map(d.InputMapping, env)
	}
}

// TestRunResult is {runId}.
type TestRunResult struct {
	RunID string `json:"runId"`
}

// TestRun creates a real run of the stored definition against envelope (or
// the sample), not gated by bindings, isTestRun true (v2/definitions/testRun).
func (b *Bridge) TestRun(ctx context.Context, id string, envRaw json.RawMessage) (TestRunResult, error) {
	if id == "" {
		return TestRunResult{}, invalid("id", "required")
	}
	sd, err := b.db.GetDefinition(ctx, id)
	if err != nil {
		return TestRunResult{}, storeErr(err, "id")
	}
	d, err := fromStore(sd)
	if err != nil {
		return TestRunResult{}, err
	}
	env, err := envelopeFor(d.EventName, envRaw)
	if err != nil {
		return TestRunResult{}, err
	}
	if env.EventID == "" || env.EventID == expr.SampleEnvelope(d.EventName).EventID {
		env.EventID = randid.New("hev_test_")
	}
	nr, err := newRunFor(sd, d, env, nil)
	if err != nil {
		return TestRunResult{}, err
	}
	nr.EventID = env.EventID
	nr.EventName = env.EventName
	nr.SessionID = env.Session.ID
	nr.TurnID = env.Turn.ID
	b.blockUndeclared(&nr, d.Action.Type)
	r, err := b.db.CreateTestRun(ctx, nr)
	if err != nil {
		return TestRunResult{}, storeErr(err, "")
	}
	return TestRunResult{RunID: r.ID}, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
