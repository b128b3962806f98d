package output

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/internal/jsonexact"
	"github.com/hookside/hookside/internal/jsonscan"
)

// jsonKind is the JSON type a known output field must have.
type jsonKind uint8

const (
	kindString jsonKind = iota
	kindBool
	kindObject
	kindArray
	kindStrings // array of strings
	kindAny
)

func (k jsonKind) String() string {
	return [...]string{"a string", "a boolean", "an object", "an array", "an array of strings", "any value"}[k]
}

// claudeTopFields are the universal and top-level fields of the JSON
// output (https://code.claude.com/docs/en/hooks#json-output).
var claudeTopFields = map[string]jsonKind{
	"continue": kindBool, "suppressOutput": kindBool, "stopReason": kindString,
	"systemMessage": kindString, "terminalSequence": kindString,
	"decision": kindString, "reason": kindString, "hookSpecificOutput": kindObject,
}

// claudeHSOFields are the hookSpecificOutput fields each event reads.
var claudeHSOFields = map[string]map[string]jsonKind{
	hook.PreToolUse: {"permissionDecision": kindString, "permissionDecisionReason": kindString,
		"updatedInput": kindObject, "additionalContext": kindString},
	hook.PermissionRequest: {"decision": kindObject},
	hook.PermissionDenied:  {"retry": kindBool},
	hook.PostToolUse: {"additionalContext": kindString, "updatedToolOutput": kindAny,
		"updatedMCPToolOutput": kindAny, "classifierContext": kindString},
	hook.PostToolUseFailure: {"additionalContext": kindString},
	hook.PostToolBatch:      {"additionalContext": kindString},
	hook.UserPromptSubmit: {"additionalContext": kindString, "sessionTitle": kindString,
		"suppressOriginalPrompt": kindBool},
	hook.UserPromptExpansion: {"additionalContext": kindString},
	hook.SessionStart: {"additionalContext": kindString, "initialUserMessage": kindString,
		"sessionTitle": kindString, "watchPaths": kindStrings, "reloadSkills": kindBool},
	hook.Setup:             {"additionalContext": kindString},
	hook.SubagentStart:     {"additionalContext": kindString},
	hook.SubagentStop:      {"additionalContext": kindString},
	hook.Stop:              {"additionalContext": kindString},
	hook.CwdChanged:        {"watchPaths": kindStrings},
	hook.FileChanged:       {"watchPaths": kindStrings},
	hook.MessageDisplay:    {"displayContent": kindString},
	hook.WorktreeCreate:    {"worktreePath": kindString},
	hook.Elicitation:       {"action": kindString, "content": kindObject},
	hook.ElicitationResult: {"action": kindString, "content": kindObject},
}

// claudeDecisionFields are the fields of a PermissionRequest's
// hookSpecificOutput.decision.
var claudeDecisionFields = map[string]jsonKind{
	"behavior": kindString, "updatedInput": kindObject, "updatedPermissions": kindArray,
	"message": kindString, "interrupt": kindBool,
}

// claudePromptTopFields are the top-level fields UserPromptSubmit also
// reads (beside their hookSpecificOutput form), and claudeEventNameField
// the member every hookSpecificOutput may have.
var (
	claudePromptTopFields = map[string]jsonKind{"sessionTitle": kindString, "suppressOriginalPrompt": kindBool}
	claudeEventNameField  = map[string]jsonKind{"hookEventName": kindString}
)

// claudeEnums are the closed value sets of string fields.
var claudeEnums = map[string][]string{
	"decision":           {"approve", "block"},
	"permissionDecision": {DecisionAllow, DecisionDeny, DecisionAsk, DecisionDefer},
	"action":             {"accept", "decline", "cancel"},
	"behavior":           {"allow", "deny"},
}

// claudeValidate checks the known fields of a JSON output against the
// reference's schema and returns the first problem ("" when valid): a
// field of the wrong type, a value outside its closed set, a
// PermissionRequest decision without a valid behavior. JSON null is
// accepted for every field (as absent); unknown fields are ignored.
func claudeValidate(event string, f map[string]json.RawMessage) string {
	if msg := checkFields("", f, claudeTopFields); msg != "" {
		return msg
	}
	hso := f["hookSpecificOutput"]
	if !isObject(hso) {
		return ""
	}
	var m map[string]json.RawMessage
	if jsonexact.Unmarshal(hso, &m) != nil {
		return "hookSpecificOutput: not an object"
	}
	if v, ok := m["hookEventName"]; ok && !fits(v, kindString) {
		return "hookSpecificOutput.hookEventName: expected a string"
	}
	if name, _ := claudeString(m["hookEventName"]); name != "" && name != event {
		return "" // ignored as a whole, with a warning (claudeHSO)
	}
	if msg := checkFields("hookSpecificOutput.", m, claudeHSOFields[event]); msg != "" {
		return msg
	}
	if event == hook.PermissionRequest && isObject(m["decision"]) {
		var d map[string]json.RawMessage
		_ = jsonexact.Unmarshal(m["decision"], &d)
		if _, ok := claudeString(d["behavior"]); !ok {
			return "hookSpecificOutput.decision.behavior: expected \"allow\" or \"deny\""
		}
		return checkFields("hookSpecificOutput.decision.", d, claudeDecisionFields)
	}
	return ""
}

func checkFields(prefix string, f map[string]json.RawMessage, kinds map[string]jsonKind) string {
	keys := make([]string, 0, len(kinds))
	for k := range kinds {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v, ok := f[k]
		if !ok || string(v) == "null" {
			continue
		}
		if !fits(v, kinds[k]) {
			return fmt.Sprintf("%s%s: expected %s", prefix, k, kinds[k])
		}
		if set, ok := claudeEnums[k]; ok && kinds[k] == kindString {
			s, _ := claudeString(v)
			if !slices.Contains(set, s) {
				return fmt.Sprintf("%s%s: %q is not one of %q (case matters)", prefix, k, s, set)
			}
		}
	}
	return ""
}

func fits(v json.RawMessage, k jsonKind) bool {
	if len(v) == 0 {
		return false
	}
	switch k {
	case kindString:
		return v[0] == '"'
	case kindBool:
		return string(v) == "true" || string(v) == "false"
	case kindObject:
		return v[0] == '{'
	case kindArray:
		return v[0] == '['
	case kindStrings:
		var ss []string
		return v[0] == '[' && jsonexact.Unmarshal(v, &ss) == nil
	}
	return true
}

// claudeNearMisses warns of every member of the JSON output f whose name
// misspells one the event reads at its level (nearMiss): the top level,
// hookSpecificOutput (unless it names another event, when it is ignored
// as a whole) and a PermissionRequest's hookSpecificOutput.decision. The
// member stays ignored. Top-level warnings come in name order, the others
// in document order. It allocates only when it finds one.
func claudeNearMisses(event string, f map[string]json.RawMessage, a *ClaudeAnswer) {
	var top []string
	for k := range f {
		if _, ok := claudeTopFields[k]; ok {
			continue
		}
		if event == hook.UserPromptSubmit {
			if _, ok := claudePromptTopFields[k]; ok {
				continue
			}
		}
		if claudeTopNearMiss(event, k) != "" {
			top = append(top, k)
		}
	}
	slices.Sort(top)
	for _, k := range top {
		a.nearMiss(levelAnswer, k, claudeTopNearMiss(event, k))
	}

	hso := f["hookSpecificOutput"]
	if !isObject(hso) {
		return
	}
	n := len(a.Warnings)
	known := claudeHSOFields[event]
	var eventName []byte
	for it, _ := jsonscan.Object(hso); ; {
		key, val, ok := it.Next()
		if !ok {
			break
		}
		switch {
		case keyIs(key, "hookEventName"):
			eventName = val
		case event == hook.PermissionRequest && keyIs(key, "decision") && isObject(val):
			for d, _ := jsonscan.Object(val); ; {
				key, _, ok := d.Next()
				if !ok {
					break
				}
				if name, k := rawNearMiss(key, claudeDecisionFields); name != "" {
					a.nearMiss(levelDecision, k, name)
				}
			}
		default:
			name, k := rawNearMiss(key, known)
			if name == "" {
				name, k = rawNearMiss(key, claudeEventNameField)
			}
			if name != "" {
				a.nearMiss(levelHSO, k, name)
			}
		}
	}
	if len(eventName) > 2 && eventName[0] == '"' && !keyIs(eventName, event) { // a name, not event's
		a.Warnings = a.Warnings[:n]
	}
}

// claudeTopNearMiss is nearMiss for a top-level member of event's output.
func claudeTopNearMiss(event, key string) string {
	name := nearMiss(key, claudeTopFields)
	if name == "" && event == hook.UserPromptSubmit {
		name = nearMiss(key, claudePromptTopFields)
	}
	return name
}
