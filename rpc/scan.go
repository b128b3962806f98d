package rpc

import "github.com/hookside/hookside/internal/jsonscan"

// topLevel returns the raw values of the top-level members "jsonrpc", "id",
// "method", "result", "error" and "params" of a frame that starts with '{',
// without decoding or validating the rest (internal/jsonscan). It is the
// cheap half of validateFrame: a frame that is not valid JSON is caught when
// the library decodes it. ok is false when the frame is too malformed to
// scan.
func topLevel(frame []byte) (p probe, ok bool) {
	m, ok := jsonscan.Object(frame)
	if !ok {
		return p, false
	}
	for {
		key, val, more := m.Next()
		if !more {
			break
		}
		switch string(key) { // raw keys, quotes included
		case `"jsonrpc"`:
			p.JSONRPC = val
		case `"id"`:
			p.ID = val
		case `"method"`:
			p.Method = val
		case `"result"`:
			p.Result = val
		case `"error"`:
			p.Error = val
		case `"params"`:
			p.Params = val
		}
	}
	return p, !m.Malformed()
}
