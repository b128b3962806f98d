package rpc

import (
	"bytes"

	"github.com/hookside/hookside/internal/jsonscan"
)

// envelopeMembers are the top-level members topLevel reads, by bit.
var envelopeMembers = [...]string{"jsonrpc", "id", "method", "result", "error", "params"}

// topLevel returns the raw values of the top-level members "jsonrpc", "id",
// "method", "result", "error" and "params" of a frame that starts with '{',
// without decoding or validating the rest (internal/jsonscan). It is the
// cheap half of validateFrame: a frame that is not valid JSON is caught when
// the library decodes it. ok is false when the frame is too malformed to
// scan. Members are matched exactly as written; dup names the first of
// them that the frame gives twice, also when one of the two spells its
// name with escapes ("\u006dethod"), which a host's parser reads as the
// same member (docs/protocol.md §1).
func topLevel(frame []byte) (p probe, dup string, ok bool) {
	m, ok := jsonscan.Object(frame)
	if !ok {
		return p, "", false
	}
	var seen uint8
	for {
		key, val, more := m.Next()
		if !more {
			break
		}
		switch string(key) { // raw keys, quotes included
		case `"jsonrpc"`:
			note(&seen, &dup, 0)
			p.JSONRPC = val
		case `"id"`:
			note(&seen, &dup, 1)
			p.ID = val
		case `"method"`:
			note(&seen, &dup, 2)
			p.Method = val
		case `"result"`:
			note(&seen, &dup, 3)
			p.Result = val
		case `"error"`:
			note(&seen, &dup, 4)
			p.Error = val
		case `"params"`:
			note(&seen, &dup, 5)
			p.Params = val
		default:
			if bytes.IndexByte(key, '\\') >= 0 {
				name := jsonString(key)
				for bit, n := range envelopeMembers {
					if name == n {
						note(&seen, &dup, bit)
					}
				}
			}
		}
	}
	return p, dup, !m.Malformed()
}

// note records member bit of envelopeMembers in seen, and its name in dup
// when seen had it already.
func note(seen *uint8, dup *string, bit int) {
	if *seen&(1<<bit) != 0 && *dup == "" {
		*dup = envelopeMembers[bit]
	}
	*seen |= 1 << bit
}
