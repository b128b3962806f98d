package rpc

import (
	"bytes"
	"unicode/utf8"

	"github.com/hookside/hookside/internal/jsonscan"
)

// fastParams is a params type with a decoder for its common shape, used by
// decodeParams before internal/jsonexact: the reflection decoder is the
// largest part of a hooks/run's own cost on a cold cache. decodeFast fills
// the value and reports true only when the result is what
// jsonexact.Unmarshal would produce; on false nothing is set and jsonexact
// decodes raw (with encoding/json's errors). raw is valid JSON: the stream
// checked the whole frame.
type fastParams interface {
	decodeFast(raw []byte) bool
}

// decodeFast takes an object whose string fields are strings without
// escapes. Member names are exact (docs/protocol.md §1, as
// internal/jsonexact decodes them): a member whose name differs from a
// field's only in case is unknown and ignored; a name with an escape (it
// may decode to a field's name) takes the slow path.
func (p *hooksRunParams) decodeFast(raw []byte) bool {
	m, ok := jsonscan.Object(raw)
	if !ok {
		return false
	}
	var q hooksRunParams
	for {
		key, val, more := m.Next()
		if !more {
			break
		}
		var dst *string
		switch string(key) {
		case `"sessionId"`:
			dst = &q.SessionID
		case `"event"`:
			dst = &q.Event
		case `"turnId"`:
			dst = &q.TurnID
		case `"traceId"`:
			dst = &q.TraceID
		case `"input"`:
			q.Input = append(q.Input[:0], val...) // as its UnmarshalJSON, null included
			continue
		default:
			if bytes.IndexByte(key, '\\') >= 0 {
				return false
			}
			continue
		}
		s, ok := plainString(val)
		if !ok {
			return false
		}
		*dst = s
	}
	if m.Malformed() {
		return false
	}
	*p = q
	return true
}

// plainString returns the value of a JSON string literal without escapes
// and with valid UTF-8; ok is false for anything else.
func plainString(val []byte) (string, bool) {
	if len(val) < 2 || val[0] != '"' {
		return "", false
	}
	body := val[1 : len(val)-1]
	if bytes.IndexByte(body, '\\') >= 0 || !utf8.Valid(body) {
		return "", false
	}
	return string(body), true
}
