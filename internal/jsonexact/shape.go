package jsonexact

import (
	"encoding"
	"encoding/json"
	"reflect"
	"strings"
	"sync"
	"unicode"
)

// node is what a Go type reads from a JSON value, as far as member names
// matter: for a struct, its fields by exact JSON name (each with the node
// of its own value); for a slice or an array, its elements' node; for a
// map, its values' node. A nil node is a value whose members are not
// looked into: a scalar, an interface (it decodes objects into maps, whose
// keys are exact anyway), raw JSON, a type that decodes itself, or a type
// with no struct inside.
type node struct {
	kind   nodeKind
	fields map[string]*node // kStruct: exact JSON names; a nil value is a field with no struct inside
	names  []string         // kStruct: the keys of fields, in field order
	elem   *node            // kSlice, kMap
}

type nodeKind uint8

const (
	kStruct nodeKind = iota + 1
	kSlice
	kMap
)

var (
	nodes           sync.Map // reflect.Type → *node (nil stored as (*node)(nil))
	unmarshalerType = reflect.TypeFor[json.Unmarshaler]()
	textType        = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// nodeOf is the node of values of type t, built once per type.
func nodeOf(t reflect.Type) *node {
	if n, ok := nodes.Load(t); ok {
		return n.(*node)
	}
	n := build(t, map[reflect.Type]*node{})
	nodes.Store(t, n)
	return n
}

// build is nodeOf without the cache; building holds the struct types on
// the way down, so a recursive type gets one node.
func build(t reflect.Type, building map[reflect.Type]*node) *node {
	for t.Kind() == reflect.Pointer {
		if decodesItself(t) {
			return nil
		}
		t = t.Elem()
	}
	if decodesItself(t) || decodesItself(reflect.PointerTo(t)) {
		return nil
	}
	if n, ok := building[t]; ok {
		return n
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		if el := build(t.Elem(), building); el != nil {
			return &node{kind: kSlice, elem: el}
		}
	case reflect.Map:
		if el := build(t.Elem(), building); el != nil {
			return &node{kind: kMap, elem: el}
		}
	case reflect.Struct:
		n := &node{kind: kStruct, fields: map[string]*node{}}
		building[t] = n
		for _, f := range typeFields(t) {
			n.fields[f.name] = build(f.typ, building)
			n.names = append(n.names, f.name)
		}
		return n
	}
	return nil
}

// decodesItself reports whether encoding/json hands values of t to their
// own UnmarshalJSON (or UnmarshalText, which refuses an object).
func decodesItself(t reflect.Type) bool {
	return t.Implements(unmarshalerType) || t.Implements(textType)
}

// jsonField is one field encoding/json decodes into.
type jsonField struct {
	name   string
	tagged bool
	depth  int
	typ    reflect.Type
}

// typeFields lists the fields encoding/json decodes struct t into, by the
// rules of its typeFields: the tag's name (when valid) or the Go name;
// "-" and unexported fields skipped; untagged embedded structs (or
// pointers to them) promoted, exported or not; of fields of one name the
// shallowest wins, at one depth the only tagged one, otherwise none.
func typeFields(t reflect.Type) []jsonField {
	type level struct {
		typ   reflect.Type
		depth int
	}
	var all []jsonField
	visited := map[reflect.Type]bool{} // types of earlier levels
	next := []level{{t, 0}}
	for len(next) > 0 {
		cur := next
		next = nil
		for _, l := range cur {
			// A type embedded twice at one depth adds its fields twice,
			// so that they cancel out as in encoding/json.
			if visited[l.typ] {
				continue
			}
			for i := range l.typ.NumField() {
				sf := l.typ.Field(i)
				ft := sf.Type
				for ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if sf.Anonymous {
					if !sf.IsExported() && ft.Kind() != reflect.Struct {
						continue
					}
				} else if !sf.IsExported() {
					continue
				}
				tag := sf.Tag.Get("json")
				if tag == "-" {
					continue
				}
				name, _, _ := strings.Cut(tag, ",")
				if !validTag(name) {
					name = ""
				}
				if name == "" && sf.Anonymous && ft.Kind() == reflect.Struct {
					next = append(next, level{ft, l.depth + 1})
					continue
				}
				f := jsonField{name: name, tagged: name != "", depth: l.depth, typ: sf.Type}
				if f.name == "" {
					f.name = sf.Name
				}
				all = append(all, f)
			}
		}
		for _, l := range cur {
			visited[l.typ] = true
		}
	}
	var out []jsonField
	for i, f := range all {
		if dominant(all, f) && firstOf(all[:i], f.name) {
			out = append(out, f)
		}
	}
	return out
}

// dominant reports whether f is the field encoding/json keeps among all
// the fields named as f: the only one at the least depth, or the only
// tagged one there.
func dominant(all []jsonField, f jsonField) bool {
	depth, atDepth, tagged := f.depth, 0, 0
	for _, g := range all {
		if g.name == f.name {
			depth = min(depth, g.depth)
		}
	}
	if f.depth != depth {
		return false
	}
	for _, g := range all {
		if g.name == f.name && g.depth == depth {
			atDepth++
			if g.tagged {
				tagged++
			}
		}
	}
	return atDepth == 1 || (tagged == 1 && f.tagged)
}

// firstOf reports whether no field of before is named name.
func firstOf(before []jsonField, name string) bool {
	for _, g := range before {
		if g.name == name {
			return false
		}
	}
	return true
}

// validTag is encoding/json's rule for a tag name: letters, digits and
// punctuation other than quotes, backslash and comma.
func validTag(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case !unicode.IsLetter(c) && !unicode.IsDigit(c):
			return false
		}
	}
	return true
}
