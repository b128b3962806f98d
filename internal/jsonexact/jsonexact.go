// Package jsonexact decodes JSON as encoding/json does, except that object
// member names are matched to struct fields exactly.
//
// encoding/json fills a field tagged `json:"tool_name"` from a member
// named "TOOL_NAME" or "Tool_Name" too (it matches names ignoring case).
// The documents hookside reads are defined with exact member names (the
// specs, docs/protocol.md §1 "Member names are exact"), and so are they
// read by the JavaScript hosts and hooks hookside works with (JSON.parse
// keeps names as written): a member whose name differs from a field's
// only in case is a member that field does not define. Reading it as the
// field would let a document say to hookside what it does not say to
// anyone else (a workspace settings file with "DisableAllHooks", a hook's
// {"Decision":"block"}).
//
// Unmarshal keeps encoding/json's semantics otherwise, errors included
// (their offsets refer to the data as given), and adds no dependency. It
// does no I/O and starts no goroutines; its only shared state is a cache
// of what each Go type reads, as encoding/json keeps one of its own.
package jsonexact

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Unmarshal decodes data into v as json.Unmarshal does, except that a
// member of an object decoded into a struct fills a field only when its
// name, escapes decoded, equals the field's JSON name (the tag's name,
// else the Go field name) exactly; any other member is unknown, and
// ignored as encoding/json ignores unknown members. Members decoded into
// maps, interfaces, json.RawMessage and types with their own
// UnmarshalJSON are kept as they are (their UnmarshalJSON decides for
// itself). Errors are json.Unmarshal's, for data as given: a
// *json.SyntaxError for invalid JSON, a *json.UnmarshalTypeError (offset
// and field as json.Unmarshal reports them) for a value of the wrong type,
// a *json.InvalidUnmarshalError for a v that is not a non-nil pointer.
func Unmarshal(data []byte, v any) error {
	return json.Unmarshal(Exact(data, v), v)
}

// Exact returns data in which every object member that Unmarshal(data, v)
// would ignore for its name, but json.Unmarshal might read as a field
// (every member of an object decoded into a struct whose name is not a
// field's exact name), is renamed so that it names no field: its name's
// bytes are replaced by apostrophes, which no field name can contain, so
// offsets in data stay valid. It returns data itself when nothing is
// renamed, or when data is not valid JSON (json.Unmarshal then reports
// the error) or v is not a non-nil pointer. data is never modified.
func Exact(data []byte, v any) []byte {
	n := targetNode(v)
	if n == nil || !json.Valid(data) {
		return data
	}
	w := walker{data: data}
	w.value(skipWS(data, 0), n)
	if w.out == nil {
		return data
	}
	return w.out
}

// targetNode is the node of the value v points to; nil when v is not a
// non-nil pointer, or what it points to has no struct inside.
func targetNode(v any) *node {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return nil
	}
	if decodesItself(rv.Type()) {
		return nil
	}
	return nodeOf(rv.Type().Elem())
}

// filler replaces the name bytes of an ignored member: encoding/json's
// tags cannot hold an apostrophe, nor can Go identifiers.
const filler = '\''

// walker renames the ignored members of one valid document; out is the
// copy it writes into, made on the first rename.
type walker struct {
	data []byte
	out  []byte
	// visit, when set, is called for each member ignored for its name
	// instead of renaming it (Variants), with the path of its object.
	visit func(path []pathElem, name string, n *node) bool
	path  []pathElem
	stop  bool
}

// pathElem is a member name, or (index >= 0) an array index.
type pathElem struct {
	name  string
	index int
}

// value walks the value at data[i] (valid JSON) with node n and returns
// the index after it.
func (w *walker) value(i int, n *node) int {
	b := w.data
	if n == nil || w.stop || i >= len(b) {
		return skipValue(b, i)
	}
	switch {
	case b[i] == '{' && (n.kind == kStruct || n.kind == kMap):
		return w.object(i, n)
	case b[i] == '[' && n.kind == kSlice:
		j := skipWS(b, i+1)
		if b[j] == ']' {
			return j + 1
		}
		for k := 0; ; k++ {
			w.push(pathElem{index: k})
			j = skipWS(b, w.value(j, n.elem))
			w.pop()
			if b[j] == ']' {
				return j + 1
			}
			j = skipWS(b, j+1) // ','
		}
	}
	return skipValue(b, i)
}

// object walks the object at data[i] decoded into a struct or a map.
func (w *walker) object(i int, n *node) int {
	b := w.data
	j := skipWS(b, i+1)
	if b[j] == '}' {
		return j + 1
	}
	for {
		kstart, kend := j, skipString(b, j)
		key := b[kstart:kend]
		j = skipWS(b, skipWS(b, kend)+1) // ':'
		vn := n.elem
		if n.kind == kStruct {
			f, ok := lookup(n.fields, key)
			if !ok {
				w.ignored(kstart, kend, key, n)
			}
			vn = f
		}
		if w.visit != nil {
			w.push(pathElem{name: memberName(key), index: -1})
		}
		j = skipWS(b, w.value(j, vn))
		if w.visit != nil {
			w.pop()
		}
		if b[j] == '}' {
			return j + 1
		}
		j = skipWS(b, j+1) // ','
	}
}

// push and pop keep the path of the value walked, when it is asked for
// (visit set).
func (w *walker) push(e pathElem) {
	if w.visit != nil {
		w.path = append(w.path, e)
	}
}

func (w *walker) pop() {
	if w.visit != nil {
		w.path = w.path[:len(w.path)-1]
	}
}

// lookup finds the field named by key (quotes included) exactly.
func lookup(fields map[string]*node, key []byte) (*node, bool) {
	body := key[1 : len(key)-1]
	if bytes.IndexByte(body, '\\') < 0 && utf8.Valid(body) {
		f, ok := fields[string(body)] // no allocation
		return f, ok
	}
	f, ok := fields[memberName(key)]
	return f, ok
}

// ignored handles a member of a struct's object that names no field
// exactly; its name, quotes included, is key, at data[start:end].
func (w *walker) ignored(start, end int, key []byte, n *node) {
	if w.visit != nil {
		if !w.visit(w.path, memberName(key), n) {
			w.stop = true
		}
		return
	}
	if end-start <= 2 {
		return // "": no field has the empty name
	}
	if w.out == nil {
		w.out = bytes.Clone(w.data)
	}
	for k := start + 1; k < end-1; k++ {
		w.out[k] = filler
	}
}

// memberName decodes a member name (quotes included) as encoding/json
// does: escapes processed, invalid UTF-8 as U+FFFD.
func memberName(key []byte) string {
	body := key[1 : len(key)-1]
	if bytes.IndexByte(body, '\\') < 0 && utf8.Valid(body) {
		return string(body)
	}
	var s string
	_ = json.Unmarshal(key, &s) // a valid JSON string
	return s
}

// Variant is a member that Unmarshal ignores although its name equals a
// field's JSON name ignoring case: one encoding/json would have read as
// that field.
type Variant struct {
	// Path is where the member is: its object's path and its name, names
	// joined by ".", array elements as "[i]" ("Version",
	// "records[0].Digest"), as internal/jsonpos takes paths.
	Path string
	// Field is the JSON name of the field it differs from only in case.
	Field string
}

// Variants returns, in document order, the members of data that
// Unmarshal(data, v) ignores but that name a field of their object's
// struct ignoring case (strings.EqualFold), at most limit of them (limit
// <= 0: all). It returns none when data is not valid JSON or v is not a
// non-nil pointer. Callers that must not read a document two readers
// could read differently (an older hookside matched names ignoring case)
// refuse it when there is one.
func Variants(data []byte, v any, limit int) []Variant {
	n := targetNode(v)
	if n == nil || !json.Valid(data) {
		return nil
	}
	var out []Variant
	w := walker{data: data}
	w.visit = func(path []pathElem, name string, n *node) bool {
		for _, f := range n.names {
			if strings.EqualFold(f, name) {
				out = append(out, Variant{Path: joinPath(path, name), Field: f})
				break
			}
		}
		return limit <= 0 || len(out) < limit
	}
	w.value(skipWS(data, 0), n)
	return out
}

// joinPath is the path of member name of the object at path.
func joinPath(path []pathElem, name string) string {
	var sb strings.Builder
	for _, e := range path {
		if e.index >= 0 {
			sb.WriteString("[" + strconv.Itoa(e.index) + "]")
			continue
		}
		if sb.Len() > 0 {
			sb.WriteByte('.')
		}
		sb.WriteString(e.name)
	}
	if sb.Len() > 0 {
		sb.WriteByte('.')
	}
	sb.WriteString(name)
	return sb.String()
}
