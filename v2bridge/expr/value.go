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
// path.
type MappingError struct {
	Param  string
	Path   string
	Reason string // "path_not_allowed", "field_missing" or "invalid_value"
}

// Error gives the two message forms of hooks-v2-handbook §5.3, with the field name:
// "mapping path not allowed: <path>" and "mapping field <param> is not
// present in the event (path <path>)".
func (e *MappingError) Error() string {
	field := e.Param
	if field == "" {
		field = e.Path
	}
	switch e.Reason {
	case "path_not_allowed":
		return fmt.Sprintf("mapping path not allowed: %s (field %s)", e.Path, field)
	case "field_missing":
		return fmt.Sprintf("mapping field %s is not present in the event (path %s)", field, e.Path)
	}
	return fmt.Sprintf("mapping field %s: invalid value expression", field)
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
		return nil, &MappingError{Param: param, Reason: "invalid_value"}
	}
	switch {
	case v.HasConst:
		return v.Const, nil
	case v.Template != nil:
		return RenderTemplate(*v.Template, env), nil
	}
	p := *v.Path
	if !PathAllowed(env.EventName, p) {
		return nil, &MappingError{Param: param, Path: p, Reason: "path_not_allowed"}
	}
	got, ok := Resolve(env, p)
	if !ok {
		return nil, &MappingError{Param: param, Path: p, Reason: "field_missing"}
	}
	return got, nil
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
func RenderTemplate(tmpl string, env *Envelope) string {
	var b bytes.Buffer
	scanTemplate(tmpl, &b, func(p string) {
		if !PathAllowed(env.EventName, p) {
			return
		}
		v, _ := Resolve(env, p)
		writeText(&b, v)
	})
	return b.String()
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
		expand(jsTrim(tmpl[i+2 : i+2+end]))
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
	case map[string]any, []any:
		writeStable(b, x)
	default:
		if s, ok := comparableText(v); ok {
			b.WriteString(s)
		} else {
			writeStable(b, x)
		}
	}
}

// jsTrim is String.prototype.trim: it strips the ECMAScript WhiteSpace and
// LineTerminator characters (not U+0085, unlike strings.TrimSpace).
func jsTrim(s string) string {
	return strings.TrimFunc(s, func(r rune) bool {
		switch r {
		case '\t', '\n', '\v', '\f', '\r', ' ', 0xA0, 0x1680, 0x2028, 0x2029,
			0x202F, 0x205F, 0x3000, 0xFEFF:
			return true
		}
		return 0x2000 <= r && r <= 0x200A
	})
}
