package expr

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/internal/jsonexact"
	"github.com/hookside/hookside/internal/jsonint"
)

// Value is a value expression (hooks-v2-handbook §5.1, PROTOCOL §5.1):
// exactly one of {"const": string|number|boolean|null}, {"path": "..."} or
// {"template": "..."}. HasConst distinguishes {"const": null} from no const.
// A Value with zero or several kinds decodes fine and is reported by
// Validate; evaluating it fails.
type Value struct {
	Const    any // string, float64, bool or nil; valid when HasConst
	HasConst bool
	Path     *string
	Template *string
}

// ConstValue returns {"const": v} (hooks-v2-handbook §5.1); v should be a string, number, bool or nil.
func ConstValue(v any) *Value { return &Value{Const: v, HasConst: true} }

// PathValue returns {"path": p} (hooks-v2-handbook §5.1).
func PathValue(p string) *Value { return &Value{Path: &p} }

// TemplateValue returns {"template": t} (hooks-v2-handbook §5.1, §5.2).
func TemplateValue(t string) *Value { return &Value{Template: &t} }

// kinds counts how many of const/path/template are set.
func (v *Value) kinds() int {
	n := 0
	if v.HasConst {
		n++
	}
	if v.Path != nil {
		n++
	}
	if v.Template != nil {
		n++
	}
	return n
}

// MarshalJSON writes the keys that are set (const even when null), the
// wire form of PROTOCOL §5.1 (hooks-v2-handbook §5.1).
func (v Value) MarshalJSON() ([]byte, error) {
	m := make(map[string]any, 1)
	if v.HasConst {
		m["const"] = v.Const
	}
	if v.Path != nil {
		m["path"] = *v.Path
	}
	if v.Template != nil {
		m["template"] = *v.Template
	}
	return json.Marshal(m)
}

// UnmarshalJSON reads a value expression (hooks-v2-handbook §5.1); unknown
// keys are ignored. A const
// keeps its JSON type (numbers as float64).
func (v *Value) UnmarshalJSON(data []byte) error {
	var raw map[string]json.RawMessage
	if err := jsonexact.Unmarshal(data, &raw); err != nil {
		return fmt.Errorf("value expression: %w", err)
	}
	*v = Value{}
	if c, ok := raw["const"]; ok {
		if err := jsonexact.Unmarshal(c, &v.Const); err != nil {
			return fmt.Errorf("value expression const: %w", err)
		}
		v.HasConst = true
	}
	for key, dst := range map[string]**string{"path": &v.Path, "template": &v.Template} {
		if r, ok := raw[key]; ok {
			if bytes.Equal(bytes.TrimSpace(r), []byte("null")) {
				return fmt.Errorf("value expression %s: null is not a string", key)
			}
			var s string
			if err := jsonexact.Unmarshal(r, &s); err != nil {
				return fmt.Errorf("value expression %s: %w", key, err)
			}
			*dst = &s
		}
	}
	return nil
}

// The eight condition operators of hooks-v2-handbook §4.2: five leaves and
// three composites.
const (
	OpEq         = "eq"
	OpNotEq      = "notEq"
	OpContains   = "contains"
	OpStartsWith = "startsWith"
	OpExists     = "exists"
	OpAnd        = "and"
	OpOr         = "or"
	OpNot        = "not"
)

// Condition is a condition node (hooks-v2-handbook §4, PROTOCOL §5.1): a
// leaf {op, left, right?} (exists has no right and its left must be a
// path), a composite {op: "and"|"or", conditions: [1..16]} or
// {op: "not", condition}.
type Condition struct {
	Op         string       `json:"op"`
	Left       *Value       `json:"left,omitempty"`
	Right      *Value       `json:"right,omitempty"`
	Conditions []*Condition `json:"conditions"`
	Condition  *Condition   `json:"condition,omitempty"`
}

// MarshalJSON writes the fields that are set (PROTOCOL §5.1); "conditions"
// is written when the slice is non-nil, so an explicit empty list stays
// visible to the execution hash (hooks-v2-handbook §8.1).
func (c Condition) MarshalJSON() ([]byte, error) {
	m := map[string]any{"op": c.Op}
	if c.Left != nil {
		m["left"] = c.Left
	}
	if c.Right != nil {
		m["right"] = c.Right
	}
	if c.Conditions != nil {
		m["conditions"] = c.Conditions
	}
	if c.Condition != nil {
		m["condition"] = c.Condition
	}
	return json.Marshal(m)
}

// Action types (hooks-v2-handbook §6, PROTOCOL §5.1; "command" is
// hookside's addition).
const (
	ActionNotification = "notification"
	ActionSound        = "sound"
	ActionTool         = "tool"
	ActionCommand      = "command"
)

// Action is what a definition does (hooks-v2-handbook §6, PROTOCOL §5.1):
// notification {title?, body?} (value expressions), sound {}, tool {target}
// or command {hook}. Only the fields of its type may be set (Validate).
type Action struct {
	Type   string       `json:"type"`
	Title  *Value       `json:"title,omitempty"`
	Body   *Value       `json:"body,omitempty"`
	Target *ToolTarget  `json:"target,omitempty"`
	Hook   *CommandHook `json:"hook,omitempty"`
}

// Tool source kinds (hooks-v2-handbook §6.3).
const (
	SourceConnector   = "connector"
	SourceCustomTool  = "custom-tool"
	SourceToolPackage = "tool-package"
)

// ToolTarget is the stable tool reference of hooks-v2-handbook §6.3. A tool
// is matched by SourceKind + SourceID + (ToolName or QualifiedName); Version
// only feeds the drift check but is part of the execution hash (§8.1). Empty
// optional strings are treated as absent.
type ToolTarget struct {
	SourceKind    string `json:"sourceKind"`
	SourceID      string `json:"sourceId"`
	Version       string `json:"version,omitempty"`
	ToolName      string `json:"toolName,omitempty"`
	QualifiedName string `json:"qualifiedName,omitempty"`
}

// CommandHook is the hook of a command action (PROTOCOL §5.1): type
// "process" (Command is an executable, Args its arguments, no shell) or
// "command" (the string goes to a shell; Shell is unset, true or a shell
// command string, the hook.Shell of shell hooks). JSON:
// {"type", "command", "args"?, "shell"?}.
type CommandHook struct {
	Type    string
	Command string
	Args    []string
	Shell   hook.Shell
	// shellRaw is a `shell` written as false or as a value that is neither
	// true nor a string, kept as written: the definition reads back and
	// hashes as it was given, and Validate refuses the other types.
	shellRaw json.RawMessage
}

// commandHookJSON is CommandHook's wire and hash shape.
type commandHookJSON struct {
	Type    string          `json:"type"`
	Command string          `json:"command"`
	Args    []string        `json:"args,omitempty"`
	Shell   json.RawMessage `json:"shell,omitempty"`
}

// MarshalJSON writes the hook with `shell` as given (absent when unset).
func (h CommandHook) MarshalJSON() ([]byte, error) {
	return json.Marshal(commandHookJSON{Type: h.Type, Command: h.Command, Args: h.Args, Shell: h.shellJSON()})
}

// UnmarshalJSON reads the hook; a `shell` of any JSON type is accepted here
// (null is unset) and judged by Validate.
func (h *CommandHook) UnmarshalJSON(b []byte) error {
	var j commandHookJSON
	if err := jsonexact.Unmarshal(b, &j); err != nil {
		return err
	}
	*h = CommandHook{Type: j.Type, Command: j.Command, Args: j.Args}
	switch raw := bytes.TrimSpace(j.Shell); {
	case len(raw) == 0 || string(raw) == "null":
	case string(raw) == "false" || h.Shell.UnmarshalJSON(raw) != nil:
		h.shellRaw = append(json.RawMessage(nil), raw...)
	}
	return nil
}

// shellJSON is the `shell` value as written, nil when unset.
func (h *CommandHook) shellJSON() json.RawMessage {
	if h.shellRaw != nil {
		return h.shellRaw
	}
	if h.Shell.IsZero() {
		return nil
	}
	b, _ := h.Shell.MarshalJSON()
	return b
}

// shellGiven reports whether the hook has a `shell` key with a non-null value.
func (h *CommandHook) shellGiven() bool { return h.shellRaw != nil || !h.Shell.IsZero() }

// Retry modes (hooks-v2-handbook §10.2).
const (
	RetrySafe   = "safe"
	RetryKeyed  = "keyed"
	RetryUnsafe = "unsafe"
)

// Concurrency policies (hooks-v2-handbook §10.5).
const (
	ConcurrencySerialPerSession = "serial_per_session"
	ConcurrencyParallel         = "parallel"
)

// Defaults and limits of hooks-v2-handbook §4.4, §10.1 and PROTOCOL §5.1.
const (
	DefaultTimeoutMs   = 15000
	DefaultRetryMode   = RetryUnsafe
	DefaultMaxAttempts = 3
	DefaultBackoffMs   = 1000
	DefaultConcurrency = ConcurrencySerialPerSession

	MinTimeoutMs, MaxTimeoutMs     = 1000, 120000
	MinMaxAttempts, MaxMaxAttempts = 1, 10
	MinBackoffMs, MaxBackoffMs     = 0, 600000
	MaxNameLen                     = 120  // UTF-16 code units, at least 1
	MaxDescriptionLen              = 2000 // UTF-16 code units
	MaxParamNameLen                = 120  // UTF-16 code units, at least 1
	MinChildren, MaxChildren       = 1, 16
	// MaxConditionDepth is hookside's nesting limit, a deliberate
	// difference: the handbook has none (§4.4, recursion bounded only by
	// the call stack). 256 levels is far beyond what a person writes and
	// keeps evaluation, hashing and validation bounded. A top-level leaf
	// has depth 1.
	MaxConditionDepth = 256
)

// IntRange is the range of the integer member of a definition at path
// ("timeoutMs", "retryPolicy.maxAttempts", "retryPolicy.backoffMs",
// "revision"): the protocol limits of hooks-v2-handbook §4.4 (timeoutMs
// 1000 ~ 120000, maxAttempts/backoffMs 1 ~ 10 / 0 ~ 600000) and, for the
// read-only revision, a count (0 = unset). ok is false for another path.
func IntRange(path string) (r jsonint.Range, ok bool) {
	switch path {
	case "timeoutMs":
		return jsonint.Range{Min: MinTimeoutMs, Max: MaxTimeoutMs}, true
	case "retryPolicy.maxAttempts":
		return jsonint.Range{Min: MinMaxAttempts, Max: MaxMaxAttempts}, true
	case "retryPolicy.backoffMs":
		return jsonint.Range{Min: MinBackoffMs, Max: MaxBackoffMs}, true
	case "revision":
		return jsonint.Count, true
	}
	return jsonint.Range{}, false
}

// RetryPolicy is {mode, maxAttempts, backoffMs} (hooks-v2-handbook §10.2–
// §10.3). Nil pointers are unset and filled by ApplyDefaults.
type RetryPolicy struct {
	Mode        string `json:"mode,omitempty"`
	MaxAttempts *int   `json:"maxAttempts,omitempty"`
	BackoffMs   *int   `json:"backoffMs,omitempty"`
}

// Definition is a V2 hook definition (PROTOCOL §5.1, hooks-v2-handbook §2.3,
// §8). Pointer and empty fields are unset; ApplyDefaults fills them.
type Definition struct {
	ID                string           `json:"id,omitempty"`
	Name              string           `json:"name"`
	Description       string           `json:"description,omitempty"`
	Enabled           *bool            `json:"enabled,omitempty"`
	EventName         string           `json:"eventName"`
	Condition         *Condition       `json:"condition,omitempty"`
	Action            Action           `json:"action"`
	InputMapping      map[string]Value `json:"inputMapping,omitempty"`
	TimeoutMs         *int             `json:"timeoutMs,omitempty"`
	RetryPolicy       *RetryPolicy     `json:"retryPolicy,omitempty"`
	ConcurrencyPolicy string           `json:"concurrencyPolicy,omitempty"`
	Revision          int              `json:"revision,omitempty"`
	ExecutionHash     string           `json:"executionHash,omitempty"`
	CreatedAt         string           `json:"createdAt,omitempty"`
	UpdatedAt         string           `json:"updatedAt,omitempty"`
}

// ApplyDefaults fills unset fields with the defaults of PROTOCOL §5.1 and
// hooks-v2-handbook §10.1: enabled true, timeoutMs 15000, retryPolicy
// {unsafe, 3, 1000} field by field, concurrencyPolicy serial_per_session,
// inputMapping {}. It never writes through pointers it did not allocate, so a
// shallow copy of a definition can be defaulted without touching the
// original. Validate before defaulting: defaults hide nothing invalid, but an
// explicit out-of-range value is kept as is.
func (d *Definition) ApplyDefaults() {
	if d.Enabled == nil {
		t := true
		d.Enabled = &t
	}
	if d.TimeoutMs == nil {
		t := DefaultTimeoutMs
		d.TimeoutMs = &t
	}
	var rp RetryPolicy
	if d.RetryPolicy != nil {
		rp = *d.RetryPolicy
	}
	if rp.Mode == "" {
		rp.Mode = DefaultRetryMode
	}
	if rp.MaxAttempts == nil {
		n := DefaultMaxAttempts
		rp.MaxAttempts = &n
	}
	if rp.BackoffMs == nil {
		n := DefaultBackoffMs
		rp.BackoffMs = &n
	}
	d.RetryPolicy = &rp
	if d.ConcurrencyPolicy == "" {
		d.ConcurrencyPolicy = DefaultConcurrency
	}
	if d.InputMapping == nil {
		d.InputMapping = map[string]Value{}
	}
}
