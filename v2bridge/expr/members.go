package expr

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/hookside/hookside/internal/jsonexact"
	"github.com/hookside/hookside/internal/jsonpos"
	"github.com/hookside/hookside/internal/nearmiss"
)

// Unknown members. A definition is decoded leniently: a member its shape
// does not have is dropped, not refused, because the spec tolerates extra
// keys (hooks-v2-handbook §8.1: 任何多传的额外键 do not enter the execution
// hash). A misspelt member is dropped the same way and silently changes
// what the definition does ("versoin" in a tool target turns the §6.3
// version drift check off), so UnknownMembers names each one as a warning.

// shape is the kind of object a position of a definition holds.
type shape uint8

const (
	shapeDefinition shape = iota
	shapeCondition
	shapeValue
	shapeAction
	shapeTarget
	shapeHook
	shapeRetry
	shapeMapping // inputMapping: any names, each a value expression
)

// members are the member names of each shape (PROTOCOL §5.1,
// hooks-v2-handbook §2.3, §4, §5.1, §6.3, §8.1, §10.2), in the spec's
// order, which breaks ties between equally near suggestions. A definition's
// top level includes the members that do not enter the hash (id, name,
// description, enabled) and the read-only ones hookside sets (revision,
// executionHash, createdAt, updatedAt): a definition read back from
// v2/definitions/get may be given again as it is. A condition and an
// action list the members of all their kinds: one that belongs to another
// kind (conditions on a leaf, target on a notification) is the validator's
// unexpected_field error, not an unknown member.
var members = [...][]string{
	shapeDefinition: {"id", "name", "description", "enabled", "eventName", "condition", "action",
		"inputMapping", "timeoutMs", "retryPolicy", "concurrencyPolicy",
		"revision", "executionHash", "createdAt", "updatedAt"},
	shapeCondition: {"op", "left", "right", "conditions", "condition"},
	shapeValue:     {"const", "path", "template"},
	shapeAction:    {"type", "title", "body", "target", "hook"},
	shapeTarget:    {"sourceKind", "sourceId", "version", "toolName", "qualifiedName"},
	shapeHook:      {"type", "command", "args", "shell"},
	shapeRetry:     {"mode", "maxAttempts", "backoffMs"},
}

// what names each shape in a message.
var what = [...]string{
	shapeDefinition: "a definition", shapeCondition: "a condition", shapeValue: "a value expression",
	shapeAction: "an action", shapeTarget: "a tool target", shapeHook: "a command hook",
	shapeRetry: "a retryPolicy",
}

// child is the shape of member name of an object of shape s; list is true
// when the member is an array of that shape; ok is false for a member whose
// value is not an object of a known shape (a string, a const's value).
func (s shape) child(name string) (c shape, list, ok bool) {
	switch s {
	case shapeDefinition:
		switch name {
		case "condition":
			return shapeCondition, false, true
		case "action":
			return shapeAction, false, true
		case "inputMapping":
			return shapeMapping, false, true
		case "retryPolicy":
			return shapeRetry, false, true
		}
	case shapeCondition:
		switch name {
		case "left", "right":
			return shapeValue, false, true
		case "conditions":
			return shapeCondition, true, true
		case "condition":
			return shapeCondition, false, true
		}
	case shapeAction:
		switch name {
		case "title", "body":
			return shapeValue, false, true
		case "target":
			return shapeTarget, false, true
		case "hook":
			return shapeHook, false, true
		}
	case shapeMapping:
		return shapeValue, false, true
	}
	return 0, false, false
}

// known reports whether name is a member of shape s.
func (s shape) known(name string) bool {
	if s == shapeMapping {
		return true
	}
	for _, m := range members[s] {
		if m == name {
			return true
		}
	}
	return false
}

// UnknownMembers returns a warning (CodeUnknownMember) for every member of
// the definition raw, as written (JSON; a whole definition or an update's
// patch), that its shape does not have, at any depth: the top level, the
// condition tree, value expressions, the action, its tool target and
// command hook, inputMapping's values, retryPolicy. Path is the member's
// own path in the validator's form ("action.target.versoin",
// "condition.conditions[1].rigth"; a name holding ".", "[", "]", "'" or
// "\" in brackets, jsonpos.Key). The message names the known member it
// most likely misspells (nearmiss.Suggest: equal ignoring case, or a small
// edit distance: "did you mean \"version\"?"), else the members the object
// has. Such members are still accepted and ignored, and the execution hash
// does not see them (§8.1). Members are reported depth first, in name order
// within an object. A value that is not an object where one is expected is
// the validator's or the decoder's concern and is not looked into; raw that
// is not JSON gives nil.
//
// It decodes raw once more (linear in its size); it runs on definition
// writes and validate/preview, never on event emit.
func UnknownMembers(raw []byte) []Problem {
	return unknownIn(shapeDefinition, raw)
}

// unknownIn is UnknownMembers for raw holding an object of shape s.
func unknownIn(s shape, raw []byte) []Problem {
	var v any
	if jsonexact.Unmarshal(raw, &v) != nil {
		return nil
	}
	var out []Problem
	walkMembers(s, v, "", &out)
	return out
}

func walkMembers(s shape, v any, at string, out *[]Problem) {
	obj, ok := v.(map[string]any)
	if !ok {
		return
	}
	names := make([]string, 0, len(obj))
	for k := range obj {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, name := range names {
		p := jsonpos.Key(at, name)
		if !s.known(name) {
			*out = append(*out, Problem{Path: p, Code: CodeUnknownMember, Message: unknownMessage(s, name), Severity: SeverityWarning})
			continue
		}
		c, list, ok := s.child(name)
		switch {
		case !ok:
		case list:
			if elems, isList := obj[name].([]any); isList {
				for i, e := range elems {
					walkMembers(c, e, p+"["+strconv.Itoa(i)+"]", out)
				}
			}
		default:
			walkMembers(c, obj[name], p, out)
		}
	}
}

// IsDefinitionMember reports whether name is a member of a definition's
// top level (the members table of PROTOCOL §5, the read-only ones included).
func IsDefinitionMember(name string) bool { return shapeDefinition.known(name) }

// DefinitionMemberHint is what to tell of name, a member a definition does
// not have: ` (did you mean "name"?)` when one is near (nearmiss.Suggest),
// else "".
func DefinitionMemberHint(name string) string {
	if m := nearmiss.Suggest(name, members[shapeDefinition]); m != "" {
		return fmt.Sprintf(" (did you mean %q?)", m)
	}
	return ""
}

// DefinitionMembers is the members of a definition's top level, in the
// spec's order, joined by ", ".
func DefinitionMembers() string { return strings.Join(members[shapeDefinition], ", ") }

// unknownMessage is the warning text of member name of an object of shape s.
func unknownMessage(s shape, name string) string {
	if m := nearmiss.Suggest(name, members[s]); m != "" {
		return fmt.Sprintf("unknown member %q is ignored; did you mean %q?", name, m)
	}
	return fmt.Sprintf("unknown member %q is ignored: %s has %s", name, what[s], strings.Join(members[s], ", "))
}
