package rpc

import (
	"context"
	"encoding/json"
	"log/slog"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/hookside/hookside/internal/jsonexact"
	"github.com/hookside/hookside/internal/jsonpos"
	"github.com/hookside/hookside/internal/jsonscan"
)

// Unknown params keys (docs/protocol.md §1): PROTOCOL.md says nothing of
// members a method does not define, so they are accepted and ignored
// (forward compatibility: a newer host may send fields this server does
// not know), and each is logged once at debug level, so a host author sees
// a misspelt or misplaced field in `--log-level debug`. Member names are
// exact (docs/protocol.md §1): a member whose name differs from a field's
// only in case is such an unknown member, logged with the field it is
// like ("sameIgnoringCase").

// maxUnknownLogged bounds the method+key pairs a connection remembers
// (and logs): a host sending ever new keys cannot grow it without limit.
const maxUnknownLogged = 1024

// maxUnknownDepth is how deep nested params objects are looked into.
const maxUnknownDepth = 16

// shape is the members a params value of some Go type defines: fields by
// exact JSON name, each with the shape of its own value (nil: not looked
// into: a scalar, a map, raw JSON, a type that decodes itself), and, for
// a slice, the shape of its elements.
type shape struct {
	fields map[string]*shape
	elems  *shape
}

var shapes sync.Map // reflect.Type → *shape

var unmarshalerType = reflect.TypeFor[json.Unmarshaler]()

// shapeOf is the shape of params type t (pointers followed). The params
// type itself is looked into even when it decodes itself (its
// UnmarshalJSON decodes the same members, v2bridge.EmitParams); nested
// types that decode themselves are not.
func shapeOf(t reflect.Type) *shape {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if sh, ok := shapes.Load(t); ok {
		return sh.(*shape)
	}
	sh := buildShape(t, true, map[reflect.Type]*shape{})
	shapes.Store(t, sh)
	return sh
}

func buildShape(t reflect.Type, top bool, building map[reflect.Type]*shape) *shape {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if !top && reflect.PointerTo(t).Implements(unmarshalerType) {
		return nil
	}
	if sh, ok := building[t]; ok {
		return sh // a recursive type: the same shape
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return nil // []byte: a string, or raw JSON
		}
		el := buildShape(t.Elem(), false, building)
		if el == nil {
			return nil
		}
		return &shape{elems: el}
	case reflect.Struct:
		sh := &shape{fields: map[string]*shape{}}
		building[t] = sh
		addFields(sh, t, building)
		return sh
	}
	return nil
}

// addFields adds t's JSON members to sh as encoding/json names them
// (tag name, else the field name; "-" and unexported fields skipped;
// untagged embedded structs promoted).
func addFields(sh *shape, t reflect.Type, building map[reflect.Type]*shape) {
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		ft := f.Type
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if f.Anonymous && name == "" && ft.Kind() == reflect.Struct {
			addFields(sh, ft, building)
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		sh.fields[name] = buildShape(f.Type, false, building)
	}
}

// unknownKeys remembers which method+key pairs were logged.
type unknownKeys struct {
	mu   sync.Mutex
	seen map[string]struct{}
}

// noteUnknownParams logs, at debug level and once per method and key, each
// member of raw (valid JSON params that decoded into a value of type t)
// that t does not define, as a dotted path ("clientInfo.vesion",
// "workspaces[].nmae"). A member whose name equals a field's ignoring
// case is logged with that field ("sameIgnoringCase"). Only the key is
// logged, never a value. Costs nothing unless debug is on.
func (s *Server) noteUnknownParams(method string, t reflect.Type, raw *json.RawMessage) {
	if raw == nil || !s.log.Enabled(context.Background(), slog.LevelDebug) {
		return
	}
	for _, u := range UnknownMembers(t, *raw) {
		like := ""
		for _, field := range u.Known {
			if strings.EqualFold(field, u.Name) {
				like = field
				break
			}
		}
		s.logUnknown(method, u.LogPath, like)
	}
}

// UnknownMember is a member of params that their Go type does not define
// (UnknownMembers).
type UnknownMember struct {
	// Path is the member's own path, keys joined by "." and elements as
	// "[i]" (a name holding ".", "[", "]", "'" or "\" in brackets,
	// jsonpos.Key): "session.nmae", "workspaces[1].nmae".
	Path string
	// LogPath is Path with every index left out ("workspaces[].nmae"):
	// what the debug log names, once per method and LogPath.
	LogPath string
	// Name is the member's name; Known the names the object defines, sorted.
	Name  string
	Known []string
}

// UnknownMembers is every member of raw (valid JSON params that decode into
// a value of type t) that t does not define, at any depth up to 16 levels,
// in the order of raw. A map, raw JSON and a nested type that decodes itself
// are not looked into (any member is theirs). Raw that is not a JSON object
// gives nil.
func UnknownMembers(t reflect.Type, raw []byte) []UnknownMember {
	var out []UnknownMember
	walkUnknown(shapeOf(t), raw, "", "", 0, &out)
	return out
}

func walkUnknown(sh *shape, raw []byte, path, logPath string, depth int, out *[]UnknownMember) {
	if sh == nil || len(raw) == 0 || depth > maxUnknownDepth {
		return
	}
	if sh.elems != nil {
		if raw[0] != '[' {
			return
		}
		var elems []json.RawMessage
		if jsonexact.Unmarshal(raw, &elems) == nil {
			for i, e := range elems {
				walkUnknown(sh.elems, e, path+"["+strconv.Itoa(i)+"]", logPath+"[]", depth+1, out)
			}
		}
		return
	}
	m, ok := jsonscan.Object(raw)
	if !ok {
		return
	}
	for {
		key, val, more := m.Next()
		if !more {
			return
		}
		name := jsonString(key)
		p, lp := jsonpos.Key(path, name), name
		if logPath != "" {
			lp = logPath + "." + name
		}
		if f, known := sh.fields[name]; known {
			walkUnknown(f, val, p, lp, depth+1, out)
			continue
		}
		known := make([]string, 0, len(sh.fields))
		for field := range sh.fields {
			known = append(known, field)
		}
		sort.Strings(known)
		*out = append(*out, UnknownMember{Path: p, LogPath: lp, Name: name, Known: known})
	}
}

func (s *Server) logUnknown(method, path, like string) {
	if len(path) > 200 {
		path = path[:200] + "…"
	}
	u := &s.unknown
	u.mu.Lock()
	k := method + "\x00" + path
	_, seen := u.seen[k]
	if !seen && len(u.seen) < maxUnknownLogged {
		if u.seen == nil {
			u.seen = map[string]struct{}{}
		}
		u.seen[k] = struct{}{}
	} else {
		seen = true
	}
	u.mu.Unlock()
	if seen {
		return
	}
	if like != "" {
		s.log.Debug("unknown params key ignored: member names are exact", "method", method, "key", path, "sameIgnoringCase", like)
		return
	}
	s.log.Debug("unknown params key ignored", "method", method, "key", path)
}
