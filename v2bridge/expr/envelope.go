package expr

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/hookside/hookside/internal/jsonexact"
	"github.com/hookside/hookside/internal/nearmiss"
)

// The seven lifecycle event names of hooks-v2-handbook §3.1.
const (
	EventTurnStarted         = "turn.started"
	EventPermissionRequested = "permission.requested"
	EventQuestionRequested   = "question.requested"
	EventResponseCommitted   = "response.committed"
	EventTurnCompleted       = "turn.completed"
	EventTurnFailed          = "turn.failed"
	EventTurnCancelled       = "turn.cancelled"
)

// Events returns the seven lifecycle events in the order of
// hooks-v2-handbook §3.1 (a fresh slice on every call).
func Events() []string {
	return []string{
		EventTurnStarted, EventPermissionRequested, EventQuestionRequested,
		EventResponseCommitted, EventTurnCompleted, EventTurnFailed, EventTurnCancelled,
	}
}

// UnknownEvent is why name, not a lifecycle event (nor one of extra, other
// names the caller takes), is refused: `unknown lifecycle event
// "turn.complete"; did you mean "turn.completed"? (the events are
// turn.started, …)`, the "did you mean" when one is near (nearmiss.Suggest).
func UnknownEvent(name string, extra ...string) string {
	known := append(Events(), extra...)
	msg := fmt.Sprintf("unknown lifecycle event %q", name)
	if m := nearmiss.Suggest(name, known); m != "" {
		msg += fmt.Sprintf("; did you mean %q?", m)
	}
	return msg + " (the events are " + strings.Join(known, ", ") + ")"
}

// KnownEvent reports whether name is one of the seven lifecycle events (§3.1).
func KnownEvent(name string) bool {
	switch name {
	case EventTurnStarted, EventPermissionRequested, EventQuestionRequested,
		EventResponseCommitted, EventTurnCompleted, EventTurnFailed, EventTurnCancelled:
		return true
	}
	return false
}

// SchemaVersion is the only envelope schema version (§3.4, §14.2).
const SchemaVersion = 1

// Envelope is the fixed event envelope every condition and mapping reads
// (hooks-v2-handbook §3.4, PROTOCOL §5.1). Optional string fields that are
// empty are treated as absent (omitted from the JSON view). Payload holds
// decoded JSON (map[string]any, []any, string, float64 or json.Number, bool,
// nil); its shape per event is listed in §3.4.
type Envelope struct {
	SchemaVersion      int            `json:"schemaVersion"`
	EventID            string         `json:"eventId"`
	EventName          string         `json:"eventName"`
	OccurredAt         string         `json:"occurredAt"`
	Source             string         `json:"source"`
	Session            Session        `json:"session"`
	Turn               Turn           `json:"turn"`
	Agent              *Agent         `json:"agent,omitempty"`
	Workspaces         []Workspace    `json:"workspaces"`
	PrimaryWorkspaceID string         `json:"primaryWorkspaceId,omitempty"`
	Payload            map[string]any `json:"payload"`

	// ordered is Payload in JavaScript property order (set when the
	// envelope is decoded from JSON, or by SetPayloadJSON): templates,
	// mappings and the JSON form use it.
	ordered *Object
}

// SetPayloadJSON sets Payload from raw (a JSON object), keeping the members'
// order for templates, mappings and the stored JSON (§5.2).
func (e *Envelope) SetPayloadJSON(raw []byte) error {
	v, err := DecodeOrdered(raw)
	if err != nil {
		return err
	}
	o, ok := v.(*Object)
	if !ok {
		return errors.New("payload is not a JSON object")
	}
	e.ordered = o
	e.Payload = plain(o).(map[string]any)
	return nil
}

// orderedPayload is the payload in property order (an Object built from a
// Go map keeps sorted order: a map has none).
func (e *Envelope) orderedPayload() any {
	if e.ordered != nil {
		return e.ordered
	}
	return e.payloadView()
}

type envelopeJSON Envelope

// MarshalJSON writes the envelope with the payload in its property order.
func (e Envelope) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		*envelopeJSON
		Payload any `json:"payload"`
	}{(*envelopeJSON)(&e), e.orderedPayload()})
}

// UnmarshalJSON reads the envelope and keeps the payload's property order.
func (e *Envelope) UnmarshalJSON(b []byte) error {
	var aux struct {
		*envelopeJSON
		Payload json.RawMessage `json:"payload"`
	}
	aux.envelopeJSON = (*envelopeJSON)(e)
	if err := jsonexact.Unmarshal(b, &aux); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) { // name the wire field, not the Go alias
			te.Field = strings.TrimPrefix(te.Field, "envelopeJSON.")
		}
		return err
	}
	e.Payload, e.ordered = nil, nil
	if len(aux.Payload) == 0 || string(aux.Payload) == "null" {
		return nil
	}
	if err := e.SetPayloadJSON(aux.Payload); err != nil {
		return &json.UnmarshalTypeError{Value: "payload", Type: reflect.TypeOf(map[string]any{}), Field: "payload"}
	}
	return nil
}

// Session is the envelope's session object {id, title?} (§3.4).
type Session struct {
	ID    string `json:"id"`
	Title string `json:"title,omitempty"`
}

// Turn is the envelope's turn object {id} (§3.4). For permission.requested
// the id may be the literal "unknown" (§3.1).
type Turn struct {
	ID string `json:"id"`
}

// Agent is the envelope's optional agent object {id, name} (§3.4); it is
// absent for some maintenance tasks.
type Agent struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// Workspace is one element of the envelope's workspaces array {id, name} (§3.4).
type Workspace struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// EventID returns the deterministic event id of hooks-v2-handbook §3.2:
// "hev_" + lowercase hex SHA-256 of eventName + ":" + sourceID.
func EventID(eventName, sourceID string) string {
	sum := sha256.Sum256([]byte(eventName + ":" + sourceID))
	return "hev_" + hex.EncodeToString(sum[:])
}

// SourceID returns the stable source id of an event (hooks-v2-handbook §3.2,
// PROTOCOL §5.1): turn.* → turnID; response.committed →
// payload.response.messageId; permission.requested → payload.requestId;
// question.requested → payload.questionId, else payload.requestId. Only
// non-empty strings count. ok is false when there is none (or the event is
// unknown): the caller must then generate a random UUID.
func SourceID(eventName, turnID string, payload map[string]any) (id string, ok bool) {
	str := func(v any) (string, bool) {
		s, ok := v.(string)
		return s, ok && s != ""
	}
	switch eventName {
	case EventTurnStarted, EventTurnCompleted, EventTurnFailed, EventTurnCancelled:
		return turnID, turnID != ""
	case EventResponseCommitted:
		if r, isObj := payload["response"].(map[string]any); isObj {
			return str(r["messageId"])
		}
		return "", false
	case EventPermissionRequested:
		return str(payload["requestId"])
	case EventQuestionRequested:
		if s, ok := str(payload["questionId"]); ok {
			return s, true
		}
		return str(payload["requestId"])
	}
	return "", false
}

// View returns the generic JSON view of the envelope (hooks-v2-handbook
// §3.4; what JSON.parse would give): map[string]any with the envelope's keys, absent optional fields
// left out. Payload is shared, not copied.
func (e *Envelope) View() map[string]any {
	m := map[string]any{
		"schemaVersion": float64(e.SchemaVersion),
		"eventId":       e.EventID,
		"eventName":     e.EventName,
		"occurredAt":    e.OccurredAt,
		"source":        e.Source,
		"session":       e.sessionView(),
		"turn":          map[string]any{"id": e.Turn.ID},
		"workspaces":    e.workspacesView(),
		"payload":       e.payloadView(),
	}
	if e.Agent != nil {
		m["agent"] = map[string]any{"id": e.Agent.ID, "name": e.Agent.Name}
	}
	if e.PrimaryWorkspaceID != "" {
		m["primaryWorkspaceId"] = e.PrimaryWorkspaceID
	}
	return m
}

func (e *Envelope) sessionView() map[string]any {
	s := map[string]any{"id": e.Session.ID}
	if e.Session.Title != "" {
		s["title"] = e.Session.Title
	}
	return s
}

func (e *Envelope) workspacesView() []any {
	out := make([]any, len(e.Workspaces))
	for i, w := range e.Workspaces {
		out[i] = map[string]any{"id": w.ID, "name": w.Name}
	}
	return out
}

func (e *Envelope) payloadView() map[string]any {
	if e.Payload == nil {
		return map[string]any{}
	}
	return e.Payload
}

// SampleEnvelope returns a representative envelope for eventName, used by
// preview when the caller gives none (PROTOCOL §5.2 v2/definitions/preview,
// hooks-v2-handbook §2.3 step 7). Every whitelisted path of the event
// resolves to a value. An unknown event gets an empty payload.
func SampleEnvelope(eventName string) Envelope {
	env := Envelope{
		SchemaVersion:      SchemaVersion,
		EventName:          eventName,
		OccurredAt:         "2026-01-01T00:00:00.000Z",
		Source:             "host",
		Session:            Session{ID: "sample-session", Title: "Sample session"},
		Turn:               Turn{ID: "sample-turn"},
		Agent:              &Agent{ID: "sample-agent", Name: "Sample agent"},
		Workspaces:         []Workspace{{ID: "sample-workspace", Name: "sample-project"}},
		PrimaryWorkspaceID: "sample-workspace",
		Payload:            map[string]any{},
	}
	switch eventName {
	case EventPermissionRequested:
		env.Payload = map[string]any{
			"requestId": "sample-request", "toolName": "Bash",
			"action": "Run a shell command", "riskLevel": "low-write",
		}
	case EventQuestionRequested:
		env.Payload = map[string]any{
			"questionId": "sample-question",
			"questions": []any{map[string]any{
				"label": "Choice", "title": "Which option?", "description": "Sample question",
			}},
		}
	case EventResponseCommitted:
		env.Payload = map[string]any{"response": map[string]any{
			"messageId": "sample-message", "finalText": "Sample final answer.",
		}}
	case EventTurnCompleted:
		env.Payload = map[string]any{"message": "Turn completed"}
	case EventTurnFailed:
		env.Payload = map[string]any{"message": "Sample failure message"}
	case EventTurnCancelled:
		env.Payload = map[string]any{"message": "Cancelled by user"}
	}
	src, ok := SourceID(eventName, env.Turn.ID, env.Payload)
	if !ok {
		src = "sample"
	}
	env.EventID = EventID(eventName, src)
	return env
}
