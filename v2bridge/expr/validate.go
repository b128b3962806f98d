package expr

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/internal/jsonpos"
)

// Problem severities (PROTOCOL §5.2 v2/definitions/validate; warnings are
// hookside's never-matching-condition notices, spec README and
// hooks-v2-handbook §4.2).
const (
	SeverityError   = "error"
	SeverityWarning = "warning"
)

// Problem codes reported by Validate (limits of hooks-v2-handbook §4.4 and
// PROTOCOL §5.1, paths of §4.1, warnings from the §4.2 truth table).
const (
	CodeRequired          = "required"         // a required field is missing or empty
	CodeOutOfRange        = "out_of_range"     // a number or length outside its limits
	CodeInvalidEnum       = "invalid_enum"     // not one of the allowed words
	CodeUnknownEvent      = "unknown_event"    // eventName is not a lifecycle event
	CodeUnexpectedField   = "unexpected_field" // a field that does not belong to this kind
	CodeValueNotOne       = "value_not_exactly_one"
	CodeInvalidConst      = "invalid_const"      // const is not string/number/boolean/null
	CodeEmptyTemplate     = "empty_template"     // templates need at least 1 character
	CodeInvalidPath       = "invalid_path"       // path syntax (§4.1 regex)
	CodePathNotAllowed    = "path_not_allowed"   // outside the event's whitelist
	CodeUnknownOp         = "unknown_op"         // not one of the eight operators
	CodeChildCount        = "child_count"        // and/or need 1–16 children
	CodeTooDeep           = "too_deep"           // nesting over MaxConditionDepth
	CodeExistsNeedsPath   = "exists_needs_path"  // exists' left must be a path
	CodeAlwaysFalse       = "always_false"       // warning: the leaf can never be true
	CodeAlwaysTrue        = "always_true"        // warning: the leaf is always true
	CodeNeverMatches      = "never_matches"      // warning: the whole condition can never match
	CodeMappingIgnored    = "mapping_ignored"    // warning: inputMapping on a notification/sound action
	CodeStaticallyMissing = "statically_missing" // warning: allowed path that this event never has
	CodeInvalidType       = "invalid_type"       // a member of the wrong JSON type (e.g. a string where a value expression goes)
	CodeDoubleBraces      = "double_braces"      // warning: {{…}} in a template is sent literally; placeholders are ${…}
	CodeUnknownMember     = "unknown_member"     // warning: a member the definition's shape does not have, ignored (UnknownMembers)
)

// Problem is one validation finding (PROTOCOL §5.2 v2/definitions/validate).
// Path is the field in dotted/indexed form ("condition.conditions[1].left.path",
// "inputMapping.channel"); Severity is SeverityError (the definition is
// rejected) or SeverityWarning (accepted, but probably not what was meant).
type Problem struct {
	Path     string `json:"path"`
	Code     string `json:"code"`
	Message  string `json:"message"`
	Severity string `json:"severity"`
}

// Validate checks a definition as given (before ApplyDefaults) against every
// protocol limit of PROTOCOL §5.1 and hooks-v2-handbook §4.4: name 1–120 and
// description ≤ 2000 characters (UTF-16 code units, as JavaScript counts),
// a known eventName, timeoutMs 1000–120000, retry mode/maxAttempts
// 1–10/backoffMs 0–600000, concurrency policy, the action's shape (tool
// target's sourceKind, sourceId and toolName or qualifiedName; command hook),
// value expressions (exactly one kind, const types, templates ≥ 1 character,
// every path and template placeholder on the event's whitelist, §4.1),
// parameter names 1–120 characters, condition operators, and/or with 1–16
// children, MaxConditionDepth, exists with a path on the left.
//
// It also warns (severity "warning") about conditions that can never match
// or always match by the §4.2 truth table — eq/contains/startsWith against a
// null const or an object, mismatched scalar types, exists on a path the
// event never has — and when the whole condition can never match (the
// validator warning hookside adds, spec README). Problems come in a
// deterministic order; nil means valid with no warnings. Members the
// decoder dropped are not seen here: UnknownMembers reports them from the
// definition as written.
func Validate(def *Definition) []Problem {
	v := &validator{event: def.EventName}
	v.definition(def)
	return v.problems
}

// HasErrors reports whether any problem has severity "error", i.e. whether
// the protocol rejects the definition (hooks-v2-handbook §4.4).
func HasErrors(problems []Problem) bool {
	for _, p := range problems {
		if p.Severity == SeverityError {
			return true
		}
	}
	return false
}

type validator struct {
	event    string
	problems []Problem
}

func (v *validator) errorf(path, code, format string, args ...any) {
	v.problems = append(v.problems, Problem{path, code, fmt.Sprintf(format, args...), SeverityError})
}

func (v *validator) warnf(path, code, format string, args ...any) {
	v.problems = append(v.problems, Problem{path, code, fmt.Sprintf(format, args...), SeverityWarning})
}

// jsLen is JavaScript's String length: UTF-16 code units.
func jsLen(s string) int {
	n := 0
	for _, r := range s {
		n += utf16Width(r)
	}
	return n
}

// utf16Width is the number of UTF-16 code units of r (invalid bytes, decoded
// as U+FFFD, count 1).
func utf16Width(r rune) int {
	if r >= 0x10000 {
		return 2
	}
	return 1
}

// rangeInt checks *p (when set) against IntRange(path): "timeoutMs must
// be an integer from 1000 to 120000, got 5" (internal/jsonint's wording).
func (v *validator) rangeInt(path string, p *int) {
	r, _ := IntRange(path)
	if p != nil {
		if reason := r.Check(int64(*p)); reason != "" {
			v.errorf(path, CodeOutOfRange, "%s %s, got %d", path, reason, *p)
		}
	}
}

func (v *validator) definition(d *Definition) {
	if n := jsLen(d.Name); n == 0 {
		v.errorf("name", CodeRequired, "name is required (1 to %d characters)", MaxNameLen)
	} else if n > MaxNameLen {
		v.errorf("name", CodeOutOfRange, "name must be 1 to %d characters, got %d", MaxNameLen, n)
	}
	if n := jsLen(d.Description); n > MaxDescriptionLen {
		v.errorf("description", CodeOutOfRange, "description must be at most %d characters, got %d", MaxDescriptionLen, n)
	}
	if !KnownEvent(d.EventName) {
		v.errorf("eventName", CodeUnknownEvent, "%s", UnknownEvent(d.EventName))
	}
	v.rangeInt("timeoutMs", d.TimeoutMs)
	v.rangeInt("revision", &d.Revision)
	if rp := d.RetryPolicy; rp != nil {
		switch rp.Mode {
		case "", RetrySafe, RetryKeyed, RetryUnsafe:
		default:
			v.errorf("retryPolicy.mode", CodeInvalidEnum, "retry mode must be safe, keyed or unsafe, got %q", rp.Mode)
		}
		v.rangeInt("retryPolicy.maxAttempts", rp.MaxAttempts)
		v.rangeInt("retryPolicy.backoffMs", rp.BackoffMs)
	}
	switch d.ConcurrencyPolicy {
	case "", ConcurrencySerialPerSession, ConcurrencyParallel:
	default:
		v.errorf("concurrencyPolicy", CodeInvalidEnum, "concurrency policy must be serial_per_session or parallel, got %q", d.ConcurrencyPolicy)
	}
	v.action(&d.Action)
	v.mapping(d)
	if d.Condition != nil {
		if v.condition(d.Condition, "condition", 1) == truthFalse {
			v.warnf("condition", CodeNeverMatches, "the condition can never match: every event would be recorded skipped (condition_not_matched)")
		}
	}
}

func (v *validator) action(a *Action) {
	unexpected := func(set bool, field string) {
		if set {
			v.errorf("action."+field, CodeUnexpectedField, "a %s action has no %s", a.Type, field)
		}
	}
	switch a.Type {
	case ActionNotification:
		if a.Title != nil {
			v.value(a.Title, "action.title")
		}
		if a.Body != nil {
			v.value(a.Body, "action.body")
		}
		unexpected(a.Target != nil, "target")
		unexpected(a.Hook != nil, "hook")
	case ActionSound:
		unexpected(a.Title != nil, "title")
		unexpected(a.Body != nil, "body")
		unexpected(a.Target != nil, "target")
		unexpected(a.Hook != nil, "hook")
	case ActionTool:
		unexpected(a.Title != nil, "title")
		unexpected(a.Body != nil, "body")
		unexpected(a.Hook != nil, "hook")
		t := a.Target
		if t == nil {
			v.errorf("action.target", CodeRequired, "a tool action needs a target")
			return
		}
		switch t.SourceKind {
		case SourceConnector, SourceCustomTool, SourceToolPackage:
		case "":
			v.errorf("action.target.sourceKind", CodeRequired, "target.sourceKind is required")
		default:
			v.errorf("action.target.sourceKind", CodeInvalidEnum, "target.sourceKind must be connector, custom-tool or tool-package, got %q", t.SourceKind)
		}
		if t.SourceID == "" {
			v.errorf("action.target.sourceId", CodeRequired, "target.sourceId is required")
		}
		if t.ToolName == "" && t.QualifiedName == "" {
			v.errorf("action.target.toolName", CodeRequired, "target needs toolName or qualifiedName")
		}
	case ActionCommand:
		unexpected(a.Title != nil, "title")
		unexpected(a.Body != nil, "body")
		unexpected(a.Target != nil, "target")
		h := a.Hook
		if h == nil {
			v.errorf("action.hook", CodeRequired, "a command action needs a hook")
			return
		}
		switch h.Type {
		case "process":
			if h.shellGiven() {
				v.errorf("action.hook.shell", CodeUnexpectedField, "a process hook runs without a shell; shell is only for type command")
			}
		case "command":
			if h.Args != nil {
				v.errorf("action.hook.args", CodeUnexpectedField, "args are only for type process")
			}
			switch {
			case h.shellRaw != nil && string(h.shellRaw) != "false":
				v.errorf("action.hook.shell", CodeInvalidEnum, "shell must be true or a shell path")
			case h.Shell.Kind() == hook.ShellString && h.Shell.Program() == "":
				v.errorf("action.hook.shell", CodeRequired, "shell must be true or a non-empty shell path")
			}
		case "":
			v.errorf("action.hook.type", CodeRequired, "hook.type is required (process or command)")
		default:
			v.errorf("action.hook.type", CodeInvalidEnum, "hook.type must be process or command, got %q", h.Type)
		}
		if h.Command == "" {
			v.errorf("action.hook.command", CodeRequired, "hook.command is required")
		}
	case "":
		v.errorf("action.type", CodeRequired, "action.type is required")
	default:
		v.errorf("action.type", CodeInvalidEnum, "action.type must be notification, sound, tool or command, got %q", a.Type)
	}
}

func (v *validator) mapping(d *Definition) {
	names := make([]string, 0, len(d.InputMapping))
	for k := range d.InputMapping {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, name := range names {
		// Bracketed as jsonpos.Key writes a name with a dot (the
		// unknown-member warnings name the same member the same way).
		p := jsonpos.Key("inputMapping", name)
		if n := jsLen(name); n < 1 || n > MaxParamNameLen {
			v.errorf(p, CodeOutOfRange, "parameter names must be 1 to %d characters, got %d", MaxParamNameLen, n)
		}
		val := d.InputMapping[name]
		v.value(&val, p)
	}
	if len(names) > 0 && (d.Action.Type == ActionNotification || d.Action.Type == ActionSound) {
		v.warnf("inputMapping", CodeMappingIgnored, "a %s action does not use inputMapping", d.Action.Type)
	}
}

// value checks one value expression (§4.4, §5.1–§5.2).
// MaxTemplateBytes is the longest template a definition may hold.
const MaxTemplateBytes = 16 << 10

func (v *validator) value(val *Value, path string) {
	if val.kinds() != 1 {
		v.errorf(path, CodeValueNotOne, "a value expression needs exactly one of const, path, template")
		return
	}
	switch {
	case val.HasConst:
		switch val.Const.(type) {
		case nil, string, bool:
		default:
			if _, ok := toNumber(val.Const); !ok {
				v.errorf(path+".const", CodeInvalidConst, "const must be a string, number, boolean or null")
			}
		}
	case val.Path != nil:
		v.path(*val.Path, path+".path")
	default:
		t := *val.Template
		if t == "" {
			v.errorf(path+".template", CodeEmptyTemplate, "a template needs at least 1 character")
		}
		if len(t) > MaxTemplateBytes {
			v.errorf(path+".template", CodeOutOfRange, "a template is limited to %d bytes", MaxTemplateBytes)
			return
		}
		for _, p := range Placeholders(t) {
			v.path(p, path+".template")
		}
		if i := strings.Index(t, "{{"); i >= 0 && strings.Contains(t[i:], "}}") {
			v.warnf(path+".template", CodeDoubleBraces, "{{…}} is sent literally: template placeholders are written ${path}, e.g. ${session.title}")
		}
	}
}

func (v *validator) path(p, at string) {
	switch {
	case !ValidPathSyntax(p):
		v.errorf(at, CodeInvalidPath, "invalid path %q: must match %s", p, PathPattern)
	case !PathAllowed(v.event, p):
		v.errorf(at, CodePathNotAllowed, "path %q is not readable on %s", p, v.event)
	case staticallyAbsent(v.event, p):
		v.warnf(at, CodeStaticallyMissing, "path %q is allowed but %s has no payload.questions: it is always undefined", p, v.event)
	}
}

// truth is the static value of a condition: unknown, always true, always false.
type truth uint8

const (
	truthUnknown truth = iota
	truthTrue
	truthFalse
)

func (t truth) not() truth {
	switch t {
	case truthTrue:
		return truthFalse
	case truthFalse:
		return truthTrue
	}
	return truthUnknown
}

func (v *validator) condition(c *Condition, at string, depth int) truth {
	if depth > MaxConditionDepth {
		v.errorf(at, CodeTooDeep, "conditions may nest at most %d levels (hookside's limit; this one is deeper)", MaxConditionDepth)
		return truthUnknown
	}
	leaf := c.Left != nil || c.Right != nil
	switch c.Op {
	case OpAnd, OpOr:
		if leaf {
			v.errorf(at, CodeUnexpectedField, "%s takes conditions, not left/right", c.Op)
		}
		if c.Condition != nil {
			v.errorf(at+".condition", CodeUnexpectedField, "%s takes conditions, not condition", c.Op)
		}
		if n := len(c.Conditions); n < MinChildren || n > MaxChildren {
			v.errorf(at+".conditions", CodeChildCount, "%s needs %d to %d conditions, got %d", c.Op, MinChildren, MaxChildren, n)
		}
		all := truthTrue // and: all true → true; or: all false → false
		short := truthFalse
		if c.Op == OpOr {
			all, short = truthFalse, truthTrue
		}
		result := all
		for i, child := range c.Conditions {
			p := at + ".conditions[" + strconv.Itoa(i) + "]"
			if child == nil {
				v.errorf(p, CodeRequired, "a condition is required")
				result = truthUnknown
				continue
			}
			switch t := v.condition(child, p, depth+1); {
			case t == short:
				result = short
			case t == truthUnknown && result != short:
				result = truthUnknown
			}
		}
		return result
	case OpNot:
		if leaf || c.Conditions != nil {
			v.errorf(at, CodeUnexpectedField, "not takes one condition")
		}
		if c.Condition == nil {
			v.errorf(at+".condition", CodeRequired, "not needs a condition")
			return truthUnknown
		}
		return v.condition(c.Condition, at+".condition", depth+1).not()
	case OpExists, OpEq, OpNotEq, OpContains, OpStartsWith:
		if c.Conditions != nil || c.Condition != nil {
			v.errorf(at, CodeUnexpectedField, "%s is a leaf: it takes left/right, not conditions", c.Op)
		}
		return v.leaf(c, at)
	case "":
		v.errorf(at+".op", CodeRequired, "op is required")
	default:
		v.errorf(at+".op", CodeUnknownOp, "unknown operator %q: it always evaluates to false", c.Op)
	}
	return truthFalse
}

func (v *validator) leaf(c *Condition, at string) truth {
	if c.Left == nil {
		v.errorf(at+".left", CodeRequired, "%s needs left", c.Op)
		return truthUnknown
	}
	v.value(c.Left, at+".left")
	if c.Op == OpExists {
		if c.Right != nil {
			v.warnf(at+".right", CodeUnexpectedField, "exists has no right; it is ignored")
		}
		if c.Left.kinds() != 1 || c.Left.Path == nil {
			v.errorf(at+".left", CodeExistsNeedsPath, "exists needs a path on the left; anything else is always false")
			return truthFalse
		}
		info := v.operandInfo(c.Left)
		switch {
		case info.types == tNull:
			v.warnf(at, CodeAlwaysFalse, "exists(%s) is always false on %s", *c.Left.Path, v.event)
			return truthFalse
		case info.types&tNull == 0:
			v.warnf(at, CodeAlwaysTrue, "exists(%s) is always true", *c.Left.Path)
			return truthTrue
		}
		return truthUnknown
	}
	if c.Right == nil {
		v.errorf(at+".right", CodeRequired, "%s needs right", c.Op)
		return truthUnknown
	}
	v.value(c.Right, at+".right")
	if c.Left.kinds() != 1 || c.Right.kinds() != 1 {
		return truthUnknown
	}
	l, r := v.operandInfo(c.Left), v.operandInfo(c.Right)
	t, why := leafTruth(c.Op, l, r)
	switch t {
	case truthFalse:
		v.warnf(at, CodeAlwaysFalse, "%s is always false: %s", c.Op, why)
	case truthTrue:
		v.warnf(at, CodeAlwaysTrue, "%s is always true: %s", c.Op, why)
	}
	return t
}

// JavaScript type sets for the static analysis.
const (
	tNull uint8 = 1 << iota // null or undefined
	tString
	tNumber
	tBool
	tObject // object or array
	tScalar = tString | tNumber | tBool
	tAny    = tNull | tScalar | tObject
)

// operand describes what an operand can be at run time.
type operandInfo struct {
	types uint8
	known bool // value is fixed (a const, or eventName)
	value any
}

// pathTypes is what the envelope itself guarantees (§3.4); payload fields
// come from the host and may be anything.
var pathTypes = map[string]uint8{
	"schemaVersion": tNumber, "eventId": tString, "eventName": tString,
	"occurredAt": tString, "source": tString, "primaryWorkspaceId": tString | tNull,
	"session": tObject, "session.id": tString, "session.title": tString | tNull,
	"turn": tObject, "turn.id": tString,
	"agent": tObject | tNull, "agent.id": tString | tNull, "agent.name": tString | tNull,
	"workspaces": tObject, "payload": tObject,
}

func (v *validator) operandInfo(val *Value) operandInfo {
	switch {
	case val.HasConst:
		var t uint8
		switch val.Const.(type) {
		case nil:
			t = tNull
		case string:
			t = tString
		case bool:
			t = tBool
		default:
			if _, ok := toNumber(val.Const); !ok {
				return operandInfo{types: tAny}
			}
			t = tNumber
		}
		return operandInfo{types: t, known: true, value: val.Const}
	case val.Template != nil:
		return operandInfo{types: tString}
	}
	p := *val.Path
	if !PathAllowed(v.event, p) || staticallyAbsent(v.event, p) {
		return operandInfo{types: tNull, known: true}
	}
	if p == "eventName" && KnownEvent(v.event) {
		return operandInfo{types: tString, known: true, value: v.event}
	}
	if t, ok := pathTypes[p]; ok {
		return operandInfo{types: t}
	}
	if indexPattern(p) {
		return operandInfo{types: tString | tNull} // workspaces.<n>.id may be out of range
	}
	return operandInfo{types: tAny}
}

// leafTruth is the static version of §4.2 for eq/notEq/contains/startsWith.
func leafTruth(op string, l, r operandInfo) (truth, string) {
	if l.known && r.known {
		got := compare(op, l.value, r.value)
		if got {
			return truthTrue, "both sides are fixed"
		}
		return truthFalse, "both sides are fixed"
	}
	switch op {
	case OpEq, OpNotEq:
		t := truthUnknown
		why := ""
		switch {
		case l.types&tScalar == 0 || r.types&tScalar == 0:
			t, why = truthFalse, "eq is false whenever a side is null, missing, an object or an array (typeof null is \"object\"); use exists to test for presence"
		case l.types&r.types&tScalar == 0:
			t, why = truthFalse, "the two sides never have the same type and eq does no type conversion"
		}
		if op == OpNotEq {
			return t.not(), "notEq is !eq and " + why
		}
		return t, why
	}
	if l.types&tScalar == 0 || r.types&tScalar == 0 {
		return truthFalse, op + " only works on strings, numbers and booleans; null, missing values, objects and arrays never match"
	}
	return truthUnknown, ""
}
