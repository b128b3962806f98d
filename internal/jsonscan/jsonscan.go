// Package jsonscan walks the top-level members of a JSON object without
// decoding it: raw keys and raw values, nested values skipped by counting
// brackets outside strings. It does not validate; on malformed input Next
// stops and Malformed reports it. Callers that need validity check it
// themselves (json.Valid) or let a later decode catch it; Depth validates a
// value nested past encoding/json's limit and says how deep it goes. Used by the
// frame shim (rpc), the hook-answer reader (output) and the stdin builder
// (runner).
package jsonscan

import "github.com/hookside/hookside/internal/jsonskip"

// Members iterates over the top-level members of one JSON object.
type Members struct {
	b   []byte
	i   int
	bad bool
}

// Object returns an iterator over b, which must start with '{' (after
// white space); ok is false otherwise.
func Object(b []byte) (Members, bool) {
	i := jsonskip.WS(b, 0)
	if i >= len(b) || b[i] != '{' {
		return Members{}, false
	}
	return Members{b: b, i: i + 1}, true
}

// Next returns the next member: key is the raw key with its quotes (escapes
// not processed), val the raw value. ok is false at the end of the object
// or on malformed input (see Malformed).
func (m *Members) Next() (key, val []byte, ok bool) {
	if m.bad || m.b == nil {
		return nil, nil, false
	}
	i := jsonskip.WS(m.b, m.i)
	if i < len(m.b) && m.b[i] == ',' {
		i = jsonskip.WS(m.b, i+1)
	}
	if i >= len(m.b) {
		return m.fail()
	}
	if m.b[i] == '}' {
		m.i = i
		return nil, nil, false
	}
	if m.b[i] != '"' {
		return m.fail()
	}
	kEnd := jsonskip.String(m.b, i)
	if kEnd < 0 {
		return m.fail()
	}
	key = m.b[i:kEnd]
	i = jsonskip.WS(m.b, kEnd)
	if i >= len(m.b) || m.b[i] != ':' {
		return m.fail()
	}
	i = jsonskip.WS(m.b, i+1)
	vEnd := jsonskip.Value(m.b, i)
	if vEnd < 0 {
		return m.fail()
	}
	val = m.b[i:vEnd]
	m.i = jsonskip.WS(m.b, vEnd)
	if m.i >= len(m.b) || (m.b[m.i] != ',' && m.b[m.i] != '}') {
		m.bad = true // the member is returned; the next call stops
	}
	return key, val, true
}

// Malformed reports whether the walk stopped on input that is not an object.
func (m *Members) Malformed() bool { return m.bad }

func (m *Members) fail() ([]byte, []byte, bool) {
	m.bad = true
	return nil, nil, false
}
