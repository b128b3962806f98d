package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/internal/jsonexact"
	"github.com/hookside/hookside/internal/jsonpos"
)

// This file holds the small JSON reader the parsers share: it turns a
// document into a tree that remembers the byte offset of every value, so a
// diagnostic can name "path:line:col" of the offending entry.

type jkind uint8

const (
	jNull jkind = iota
	jBool
	jNumber
	jString
	jArray
	jObject
)

func (k jkind) String() string {
	switch k {
	case jNull:
		return "null"
	case jBool:
		return "boolean"
	case jNumber:
		return "number"
	case jString:
		return "string"
	case jArray:
		return "array"
	default:
		return "object"
	}
}

// jnode is one JSON value and the byte offset of its first byte in the
// original document.
type jnode struct {
	kind   jkind
	off    int
	b      bool
	str    string
	num    json.Number
	elems  []*jnode // jArray
	fields []jfield // jObject, in document order
}

type jfield struct {
	key  string
	off  int // offset of the key's opening quote
	kend int // offset just past the key's closing quote
	val  *jnode
}

// get returns the value of key; with duplicate keys the last one wins, as in
// JavaScript's JSON.parse. A nil node or a non-object has no keys.
func (n *jnode) get(key string) *jnode {
	if n == nil || n.kind != jObject {
		return nil
	}
	for i := len(n.fields) - 1; i >= 0; i-- {
		if n.fields[i].key == key {
			return n.fields[i].val
		}
	}
	return nil
}

// present reports whether the node exists and is not JSON null; the parsers
// treat an explicit null like an absent key.
func (n *jnode) present() bool { return n != nil && n.kind != jNull }

// syntaxError is a JSON syntax error at byte offset off of the original
// document (the offending byte, or the end for truncated input).
type syntaxError struct {
	off int
	msg string
}

func (e *syntaxError) Error() string { return e.msg }

// parseTree parses data as one JSON document. A leading UTF-8 byte order
// mark is skipped; offsets in the tree and in the returned *syntaxError
// refer to data including the mark.
func parseTree(data []byte) (*jnode, error) {
	body, base := jsonpos.SkipBOM(data)
	// json.Unmarshal validates first (nesting depth is bounded by the
	// standard library) and gives the offset of the first syntax error.
	var probe json.RawMessage
	if err := jsonexact.Unmarshal(body, &probe); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return nil, &syntaxError{off: jsonpos.SyntaxErrorOffset(body, se) + base, msg: se.Error()}
		}
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	t := treeBuilder{dec: dec, body: body, base: base}
	return t.value()
}

type treeBuilder struct {
	dec  *json.Decoder
	body []byte
	base int
}

// next returns the offset (in the original document) where the next token
// starts: the decoder's offset after the previous token, past whitespace and
// the separators the decoder consumes silently.
func (t *treeBuilder) next() int {
	i := int(t.dec.InputOffset())
	for i < len(t.body) {
		switch t.body[i] {
		case ' ', '\t', '\r', '\n', ',', ':':
			i++
			continue
		}
		break
	}
	return i + t.base
}

func (t *treeBuilder) value() (*jnode, error) {
	off := t.next()
	tok, err := t.dec.Token()
	if err != nil {
		return nil, err
	}
	n := &jnode{off: off}
	switch v := tok.(type) {
	case nil:
		n.kind = jNull
	case bool:
		n.kind, n.b = jBool, v
	case json.Number:
		n.kind, n.num = jNumber, v
	case string:
		n.kind, n.str = jString, v
	case json.Delim:
		switch v {
		case '[':
			n.kind = jArray
			for t.dec.More() {
				e, err := t.value()
				if err != nil {
					return nil, err
				}
				n.elems = append(n.elems, e)
			}
		case '{':
			n.kind = jObject
			for t.dec.More() {
				koff := t.next()
				ktok, err := t.dec.Token()
				if err != nil {
					return nil, err
				}
				key, ok := ktok.(string)
				if !ok {
					return nil, fmt.Errorf("object key at offset %d is not a string", koff)
				}
				kend := int(t.dec.InputOffset()) + t.base // the end of the key token
				val, err := t.value()
				if err != nil {
					return nil, err
				}
				n.fields = append(n.fields, jfield{key: key, off: koff, kend: kend, val: val})
			}
		default:
			return nil, fmt.Errorf("unexpected %q at offset %d", v, off)
		}
		if _, err := t.dec.Token(); err != nil { // the closing delimiter
			return nil, err
		}
	}
	return n, nil
}

// duplicateKeys reports every key an object of the tree names a second
// time, at the later key: the last one wins (jnode.get), so an earlier
// declaration is silently replaced unless the user is told.
func (p *parser) duplicateKeys(n *jnode) {
	if n == nil {
		return
	}
	switch n.kind {
	case jArray:
		for _, e := range n.elems {
			p.duplicateKeys(e)
		}
	case jObject:
		var first map[string]int
		if len(n.fields) > 1 {
			first = make(map[string]int, len(n.fields))
		}
		for _, f := range n.fields {
			if first != nil {
				if off, dup := first[f.key]; dup {
					line, col := p.index().LineCol(off)
					p.report(hook.CodeDuplicateKey, hook.SeverityWarning, f.off,
						"duplicate key %q (first at line %d, column %d): the last one wins, the earlier value is ignored", f.key, line, col)
				} else {
					first[f.key] = f.off
				}
			}
			p.duplicateKeys(f.val)
		}
	}
}
