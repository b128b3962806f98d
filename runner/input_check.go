package runner

import (
	"encoding/json"
	"reflect"
	"strconv"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/internal/jsonexact"
	"github.com/hookside/hookside/internal/jsonint"
	"github.com/hookside/hookside/internal/jsonpos"
	"github.com/hookside/hookside/internal/jsonscan"
)

// valueKind is the JSON type an input field must have.
type valueKind uint8

const (
	kindString valueKind = iota
	kindObject
	kindBool
	kindInteger
	kindArray
)

var kindTypes = [...]reflect.Type{
	kindString:  reflect.TypeFor[string](),
	kindObject:  reflect.TypeFor[map[string]any](),
	kindBool:    reflect.TypeFor[bool](),
	kindInteger: reflect.TypeFor[int](),
	kindArray:   reflect.TypeFor[[]any](),
}

// is reports whether raw (valid JSON, not empty) is of kind k.
func (k valueKind) is(raw json.RawMessage) bool {
	switch c := raw[0]; k {
	case kindString:
		return c == '"'
	case kindObject:
		return c == '{'
	case kindArray:
		return c == '['
	case kindBool:
		return c == 't' || c == 'f'
	case kindInteger:
		_, reason := jsonint.Count.Parse(raw)
		return reason == ""
	}
	return false
}

// typedField is one typed field of an event's input.
type typedField struct {
	name string
	kind valueKind
	of   inputField
}

// inputField names a field of inputFields that checkInputTypes reads
// (a switch, not a func value: a call through a func value would make
// the caller's inputFields escape to the heap on every hooks/run).
type inputField uint8

const (
	ofToolInput inputField = iota
	ofToolCallID
	ofRiskLevel
	ofError
	ofIsInterrupt
	ofSource
	ofPrompt
	ofAttachments
	ofResponseText
	ofToolCallCount
	ofStopHookActive
)

// raw returns the field of f that of names.
func (of inputField) raw(f *inputFields) json.RawMessage {
	switch of {
	case ofToolInput:
		return f.ToolInput
	case ofToolCallID:
		return f.ToolCallID
	case ofRiskLevel:
		return f.RiskLevel
	case ofError:
		return f.Error
	case ofIsInterrupt:
		return f.IsInterrupt
	case ofSource:
		return f.Source
	case ofPrompt:
		return f.Prompt
	case ofAttachments:
		return f.Attachments
	case ofResponseText:
		return f.ResponseText
	case ofToolCallCount:
		return f.ToolCallCount
	case ofStopHookActive:
		return f.StopHookActive
	}
	return nil
}

var (
	fToolInput      = typedField{"toolInput", kindObject, ofToolInput}
	fToolCallID     = typedField{"toolCallId", kindString, ofToolCallID}
	fRiskLevel      = typedField{"riskLevel", kindString, ofRiskLevel}
	fError          = typedField{"error", kindString, ofError}
	fIsInterrupt    = typedField{"isInterrupt", kindBool, ofIsInterrupt}
	fSource         = typedField{"source", kindString, ofSource}
	fPrompt         = typedField{"prompt", kindString, ofPrompt}
	fAttachments    = typedField{"attachments", kindArray, ofAttachments}
	fResponseText   = typedField{"responseText", kindString, ofResponseText}
	fToolCallCount  = typedField{"toolCallCount", kindInteger, ofToolCallCount}
	fStopHookActive = typedField{"stopHookActive", kindBool, ofStopHookActive}
)

// typedInput are the typed input fields of each event (PROTOCOL.md §3's
// table; docs/events.md; lifecycle-hooks-and-workspace-trust §"七个事件").
// Fields of any JSON type (toolResponse, errorDetails) and unknown fields
// are not checked: they pass through to the hook.
var typedInput = map[string][]typedField{
	hook.SessionStart:       {fSource},
	hook.UserPromptSubmit:   {fPrompt, fAttachments},
	hook.PreToolUse:         {fToolInput, fToolCallID, fRiskLevel},
	hook.PermissionRequest:  {fToolInput, fToolCallID, fRiskLevel},
	hook.PostToolUse:        {fToolInput, fToolCallID},
	hook.PostToolUseFailure: {fToolInput, fToolCallID, fError, fIsInterrupt},
	hook.Stop:               {fResponseText, fToolCallCount, fStopHookActive},
}

// attachmentFields are the typed members of one UserPromptSubmit
// attachment ({name, mimeType?, size?}).
var attachmentFields = map[string]valueKind{`"name"`: kindString, `"mimeType"`: kindString, `"size"`: kindInteger}

// checkInputTypes refuses an input field of event whose JSON type is not
// the one the protocol gives it, as *InputError{Field: "toolInput",
// Reason: "must be an object, not a string"} (the hook would otherwise
// get a value its script does not expect: a string where it reads
// tool_input.command). A field that is absent or null is not checked
// (optional fields may be omitted or null, PROTOCOL.md). Attachments must
// be objects whose name and mimeType are strings and size an integer
// (Field "attachments[1].size").
func checkInputTypes(event string, f *inputFields) error {
	for _, tf := range typedInput[event] {
		raw := tf.of.raw(f)
		if len(raw) == 0 || string(raw) == "null" {
			continue
		}
		if !tf.kind.is(raw) {
			return typeError(tf.name, tf.kind, raw)
		}
		if tf.of == ofAttachments {
			if err := checkAttachments(raw); err != nil {
				return err
			}
		}
	}
	return nil
}

func checkAttachments(raw json.RawMessage) error {
	var elems []json.RawMessage
	if err := jsonexact.Unmarshal(raw, &elems); err != nil {
		return &InputError{Field: "attachments", Reason: "must be an array"}
	}
	for i, e := range elems {
		field := "attachments[" + strconv.Itoa(i) + "]"
		if !kindObject.is(e) {
			return typeError(field, kindObject, e)
		}
		m, _ := jsonscan.Object(e)
		for {
			key, val, more := m.Next()
			if !more {
				break
			}
			k, typed := attachmentFields[string(key)]
			if typed && string(val) != "null" && !k.is(val) {
				return typeError(field+"."+string(key[1:len(key)-1]), k, val)
			}
		}
	}
	return nil
}

// typeError is the refusal of raw, not of kind k, at field. An integer
// field (a count or a size: 0 to the int64 maximum) holding a number
// follows internal/jsonint's rule: "must be an integer" for 1e2 or 100.0,
// "must be an integer from 0 to 9223372036854775807" for -1 or a number
// beyond int64.
func typeError(field string, k valueKind, raw json.RawMessage) *InputError {
	if k == kindInteger && jsonint.IsNumber(raw) {
		_, reason := jsonint.Count.Parse(raw)
		return &InputError{Field: field, Reason: reason}
	}
	return &InputError{Field: field, Reason: "must be " + jsonpos.KindName(kindTypes[k], jsonpos.Exact) + ", not " + jsonpos.ValueKindName(raw)}
}
