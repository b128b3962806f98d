package expr

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strings"
)

// ErrorCodeMappingFailed is the run error code of a failed mapping
// (hooks-v2-handbook §5.3).
const ErrorCodeMappingFailed = "mapping_failed"

// ErrMappingFailed is wrapped by every *MappingError (hooks-v2-handbook §5.3).
var ErrMappingFailed = errors.New(ErrorCodeMappingFailed)

// MappingError is a mapping failure (hooks-v2-handbook §5.3): the run is
// recorded failed + mapping_failed and the action is not called. Param is
// the input parameter (empty for notification fields), Path the offending
// path, Reason the stable code (one of the MappingReason* constants).
type MappingError struct {
	Param  string
	Path   string
	Reason string
}

// Stable codes of a mapping failure (MappingError.Reason, the wire's
// mappingErrorCode), beside the handbook's messages.
const (
	MappingReasonPathNotAllowed = "path_not_allowed" // 「映射路径越权：<path>」
	MappingReasonFieldMissing   = "field_missing"    // 「映射字段 <field> 在事件中不存在」
	MappingReasonTooLarge       = "too_large"        // hookside's output limits
	MappingReasonInvalidValue   = "invalid_value"    // not exactly one of const/path/template
)

// Output limits: one rendered template or mapped value at most
// MaxRenderedBytes, one whole mapping at most MaxMappingBytes (a template
// repeating a large payload field would otherwise multiply it); over the
// limit the run fails with mapping_failed ("too_large").
const (
	MaxRenderedBytes = 1 << 20
	MaxMappingBytes  = 4 << 20
)

// Error is the handbook's message (§5.3: 「映射路径越权：<path>」, 「映射字段
// <field> 在事件中不存在」, the field being the event path) followed by the
// stable code and the input parameter in brackets, e.g.
// "映射路径越权：payload.nil [path_not_allowed; input text]".
func (e *MappingError) Error() string {
	var msg string
	switch e.Reason {
	case MappingReasonPathNotAllowed:
		msg = "映射路径越权：" + e.Path
	case MappingReasonFieldMissing:
		msg = "映射字段 " + e.Path + " 在事件中不存在"
	case MappingReasonTooLarge:
		if e.Param == "" {
			msg = fmt.Sprintf("映射结果超过 %d 字节 (mapping output is larger than %d bytes in total)", MaxMappingBytes, MaxMappingBytes)
		} else {
			msg = fmt.Sprintf("映射字段 %s 的结果超过 %d 字节 (renders to more than %d bytes)", e.Param, MaxRenderedBytes, MaxRenderedBytes)
		}
	default:
		msg = "映射值表达式无效 (invalid value expression: exactly one of const, path, template)"
	}
	if e.Param == "" {
		return msg + " [" + e.Reason + "]"
	}
	return msg + " [" + e.Reason + "; input " + e.Param + "]"
}

// Unwrap makes errors.Is(err, ErrMappingFailed) true (hooks-v2-handbook §5.3).
func (e *MappingError) Unwrap() error { return ErrMappingFailed }

// Map evaluates an input mapping against env (hooks-v2-handbook §5,
// PROTOCOL §5.1). Each parameter is evaluated with EvalValue; parameters are
// visited in sorted order so the reported failure is deterministic. A nil or
// empty mapping gives an empty, non-nil map (the tool is called with empty
// input). Any failure returns a *MappingError (errors.Is ErrMappingFailed)
// and no partial result.
func Map(mapping map[string]Value, env *Envelope) (map[string]any, error) {
	out := make(map[string]any, len(mapping))
	total := 0
	names := make([]string, 0, len(mapping))
	for k := range mapping {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, name := range names {
		v := mapping[name]
		got, err := evalValue(&v, env, name)
		if err != nil {
			return nil, err
		}
		if total += valueSize(got, MaxMappingBytes-total+1); total > MaxMappingBytes {
			return nil, &MappingError{Reason: MappingReasonTooLarge}
		}
		out[name] = got
	}
	return out, nil
}

// EvalValue evaluates one value expression with mapping semantics
// (hooks-v2-handbook §5.1–§5.3): const as is; path keeps its JSON type
// (objects pass through) but fails with a *MappingError when the path is not
// whitelisted for env.EventName or resolves to nothing (a present JSON null is
// returned as nil); template always gives a string (RenderTemplate). Used for
// input mappings and notification title/body.
func EvalValue(v *Value, env *Envelope) (any, error) { return evalValue(v, env, "") }

func evalValue(v *Value, env *Envelope, param string) (any, error) {
	if v == nil || v.kinds() != 1 {
		return nil, &MappingError{Param: param, Reason: MappingReasonInvalidValue}
	}
	switch {
	case v.HasConst:
		return v.Const, nil
	case v.Template != nil:
		out, ok := renderTemplate(*v.Template, env, MaxRenderedBytes)
		if !ok {
			return nil, &MappingError{Param: param, Path: "template", Reason: MappingReasonTooLarge}
		}
		return out, nil
	}
	p := *v.Path
	if !PathAllowed(env.EventName, p) {
		return nil, &MappingError{Param: param, Path: p, Reason: MappingReasonPathNotAllowed}
	}
	got, ok := ResolveOrdered(env, p)
	if !ok {
		return nil, &MappingError{Param: param, Path: p, Reason: MappingReasonFieldMissing}
	}
	if valueSize(got, MaxRenderedBytes+1) > MaxRenderedBytes {
		return nil, &MappingError{Param: param, Path: p, Reason: MappingReasonTooLarge}
	}
	return got, nil
}

// valueSize approximates the JSON size of v, stopping once it exceeds limit.
func valueSize(v any, limit int) int {
	n := 0
	var walk func(any)
	walk = func(v any) {
		if n > limit {
			return
		}
		switch x := v.(type) {
		case string:
			n += len(x) + 2
		case map[string]any:
			n += 2
			for k, e := range x {
				n += len(k) + 4
				walk(e)
			}
		case *Object:
			n += 2
			for k, e := range x.vals {
				n += len(k) + 4
				walk(e)
			}
		case []any:
			n += 2
			for _, e := range x {
				n++
				walk(e)
			}
		default:
			n += 8
		}
	}
	walk(v)
	return n
}

// Placeholders returns the trimmed paths of the ${...} placeholders in tmpl,
// in order (hooks-v2-handbook §5.2). Unclosed "${" and empty "${}" are not
// placeholders.
func Placeholders(tmpl string) []string {
	var out []string
	scanTemplate(tmpl, nil, func(p string) { out = append(out, p) })
	return out
}

// RenderTemplate expands a template (hooks-v2-handbook §5.2). Placeholders
// follow /\$\{([^}]+)\}/g; the inner path is trimmed (JavaScript trim). A
// value that is null, missing, or on a path that is malformed or not
// whitelisted for env.EventName renders as ""; strings as is; numbers and
// booleans as JavaScript String(); objects and arrays as JSON (keys sorted,
// JSON.stringify escaping). There is no escape syntax: "\${x}" expands and
// keeps the backslash. The result is always a string.
//
// The output is cut at MaxRenderedBytes (mappings fail instead: EvalValue).
func RenderTemplate(tmpl string, env *Envelope) string {
	s, _ := renderTemplate(tmpl, env, MaxRenderedBytes)
	return s
}

// renderTemplate renders tmpl; ok is false (and the text cut at max bytes)
// when the output would be longer than max.
func renderTemplate(tmpl string, env *Envelope, max int) (string, bool) {
	var b bytes.Buffer
	over := false
	scanTemplate(tmpl, &b, func(p string) {
		if over || !PathAllowed(env.EventName, p) {
			return
		}
		v, _ := ResolveOrdered(env, p)
		if s, ok := v.(string); ok && b.Len()+len(s) > max {
			over = true
			return
		}
		writeText(&b, v)
		if b.Len() > max {
			over = true
		}
	})
	if over || b.Len() > max {
		out := b.Bytes()
		if len(out) > max {
			out = out[:max]
		}
		return string(out), false
	}
	return b.String(), true
}

// scanTemplate copies literal text to b (when non-nil) and calls expand for
// each placeholder with its trimmed inner text.
func scanTemplate(tmpl string, b *bytes.Buffer, expand func(path string)) {
	for {
		i := strings.Index(tmpl, "${")
		if i < 0 {
			break
		}
		end := strings.IndexByte(tmpl[i+2:], '}')
		if end < 0 {
			break // no "}" anywhere after: no later match either
		}
		if end == 0 { // "${}": [^}]+ needs one character; retry after "$"
			if b != nil {
				b.WriteString(tmpl[:i+1])
			}
			tmpl = tmpl[i+1:]
			continue
		}
		if b != nil {
			b.WriteString(tmpl[:i])
		}
		expand(JSTrim(tmpl[i+2 : i+2+end]))
		tmpl = tmpl[i+2+end+1:]
	}
	if b != nil {
		b.WriteString(tmpl)
	}
}

// writeText writes v as the template text of §5.2.
func writeText(b *bytes.Buffer, v any) {
	switch x := v.(type) {
	case nil:
	case string:
		b.WriteString(x)
	case map[string]any, []any, *Object:
		writeStable(b, x)
	default:
		if s, ok := comparableText(v); ok {
			b.WriteString(s)
		} else {
			writeStable(b, x)
		}
	}
}

// JSTrim is String.prototype.trim (the blank-title/body test of §6.1 and the
// placeholder trim of §5.2): it strips the ECMAScript WhiteSpace and
// LineTerminator characters (not U+0085, unlike strings.TrimSpace).
func JSTrim(s string) string {
	return strings.TrimFunc(s, func(r rune) bool {
		switch r {
		case '\t', '\n', '\v', '\f', '\r', ' ', 0xA0, 0x1680, 0x2028, 0x2029,
			0x202F, 0x205F, 0x3000, 0xFEFF:
			return true
		}
		return 0x2000 <= r && r <= 0x200A
	})
}
