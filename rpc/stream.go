package rpc

import (
	"bytes"
	"encoding/json"
	"errors"
	"log/slog"
	"math"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/sourcegraph/jsonrpc2"
)

// objectStream is the shim in front of github.com/sourcegraph/jsonrpc2: the
// library's own stream closes the connection on malformed JSON, batches and
// non-integer ids. This stream answers those frames itself (-32700, -32600)
// and passes only well-formed request/response objects on, so the
// connection stays up (PROTOCOL.md §1).
type objectStream struct {
	f      framer
	log    *slog.Logger
	closer func() error

	// Params of requests are set aside while the library decodes a
	// slimmed frame (its decoder builds a generic tree of the whole params
	// and re-encodes it: the largest cost of a request). The frame carries
	// a numeric token instead; Handle swaps the raw params back (takeParams).
	mu        sync.Mutex
	params    map[uint64]json.RawMessage
	nextToken uint64
}

// paramsToken prefixes the placeholder string standing for set-aside params.
const paramsToken = `\u0000hookside-params:`

// slim returns a request frame with its params replaced by a token.
func (s *objectStream) slim(frame []byte, p probe) []byte {
	if p.Params == nil || p.Method == nil || bytes.Equal(p.Params, []byte("null")) {
		return frame
	}
	s.mu.Lock()
	if s.params == nil {
		s.params = map[uint64]json.RawMessage{}
	}
	s.nextToken++
	tok := s.nextToken
	s.params[tok] = append(json.RawMessage(nil), p.Params...) // the frame buffer is reused
	s.mu.Unlock()
	out := make([]byte, 0, 64+len(p.ID)+len(p.Method))
	out = append(out, `{"method":`...)
	out = append(out, p.Method...)
	if p.ID != nil {
		out = append(out, `,"id":`...)
		out = append(out, p.ID...)
	}
	out = append(out, `,"params":"`+paramsToken...)
	out = strconv.AppendUint(out, tok, 10)
	return append(out, `"}`...)
}

// takeParams returns the raw params a slimmed request stands for (and
// forgets them); other params are returned unchanged.
func (s *objectStream) takeParams(raw *json.RawMessage) *json.RawMessage {
	if raw == nil || !bytes.HasPrefix(*raw, []byte(`"`+paramsToken)) {
		return raw
	}
	n, err := strconv.ParseUint(string((*raw)[len(paramsToken)+1:len(*raw)-1]), 10, 64)
	if err != nil {
		return raw
	}
	s.mu.Lock()
	p, ok := s.params[n]
	delete(s.params, n)
	s.mu.Unlock()
	if !ok {
		return raw
	}
	return &p
}

// probe is the envelope of one incoming message, decoded loosely so that a
// field of the wrong type is an invalid request, not a parse error.
type probe struct {
	JSONRPC json.RawMessage `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  json.RawMessage `json:"method"`
	Result  json.RawMessage `json:"result"`
	Error   json.RawMessage `json:"error"`
	Params  json.RawMessage `json:"params"`
}

// errorFrame is an error reply written by the shim itself.
type errorFrame struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

var nullID = json.RawMessage("null")

func (s *objectStream) replyError(id json.RawMessage, code int, msg string) {
	if id == nil {
		id = nullID
	}
	var ef errorFrame
	ef.JSONRPC = "2.0"
	ef.ID = id
	ef.Error.Code = code
	ef.Error.Message = msg
	b, _ := json.Marshal(ef)
	if err := s.f.WriteFrame(b); err != nil {
		s.log.Debug("write error reply", "err", err)
	}
}

// ReadObject implements jsonrpc2.ObjectStream.
func (s *objectStream) ReadObject(v any) error {
	for {
		frame, err := s.f.ReadFrame()
		switch {
		case errors.Is(err, errFrameTooLarge):
			s.replyError(nil, CodeInvalidRequest, "invalid request: "+err.Error())
			continue
		case errors.Is(err, errBadHeader):
			s.replyError(nil, CodeParseError, "parse error: "+err.Error())
			continue
		case err != nil:
			return err
		}
		if len(bytes.TrimSpace(frame)) == 0 {
			s.replyError(nil, CodeInvalidRequest, "invalid request: empty frame")
			continue
		}
		p, id, code, msg := validateFrame(frame)
		if code != 0 {
			s.log.Debug("rejected frame", "code", code, "reason", msg)
			s.replyError(id, code, msg)
			continue
		}
		decoded := frame
		if json.Valid(p.Params) {
			decoded = s.slim(frame, p)
		}
		if err := json.Unmarshal(decoded, v); err != nil {
			// Not JSON after all (validateFrame only scans the top level),
			// or a shape the library refuses: answer instead of closing.
			switch {
			case strings.Contains(err.Error(), "exceeded max depth"):
				// Well-formed but nested deeper than encoding/json's 10000
				// levels: the id was scanned, so the host gets its answer.
				s.replyError(validID(p.ID), CodeInvalidRequest, "invalid request: nested more than 10000 levels deep")
			case !json.Valid(frame):
				s.replyError(nil, CodeParseError, "parse error: the frame is not JSON")
			default:
				s.replyError(nil, CodeInvalidRequest, "invalid request: "+err.Error())
			}
			continue
		}
		return nil
	}
}

// validateFrame checks one frame; code 0 means pass it on. id is the id to
// echo in the error reply (nil = null).
func validateFrame(frame []byte) (p probe, id json.RawMessage, code int, msg string) {
	first := frame[0]
	if first != '{' {
		if !json.Valid(frame) {
			return p, nil, CodeParseError, "parse error: the frame is not JSON"
		}
		if first == '[' {
			return p, nil, CodeInvalidRequest, "invalid request: batches are not supported"
		}
		return p, nil, CodeInvalidRequest, "invalid request: a message must be a JSON object"
	}
	p, ok := topLevel(frame)
	if !ok {
		if !json.Valid(frame) {
			return p, nil, CodeParseError, "parse error: the frame is not JSON"
		}
		// Valid JSON the cheap scanner could not read (it cannot happen
		// for an object, but be safe): decode it properly.
		if err := json.Unmarshal(frame, &p); err != nil {
			return p, nil, CodeParseError, "parse error: " + err.Error()
		}
	}
	if p.JSONRPC != nil && !bytes.Equal(p.JSONRPC, []byte(`"2.0"`)) {
		return p, validID(p.ID), CodeInvalidRequest, `invalid request: "jsonrpc" must be "2.0"`
	}
	if p.ID != nil && validID(p.ID) == nil {
		return p, nil, CodeInvalidRequest, "invalid request: id must be a string or a non-negative integer"
	}
	if p.Method == nil {
		if p.Result == nil && p.Error == nil {
			return p, p.ID, CodeInvalidRequest, "invalid request: neither a request (method) nor a response (result/error)"
		}
		if p.ID == nil {
			return p, nil, CodeInvalidRequest, "invalid request: a response needs an id"
		}
		return p, nil, 0, ""
	}
	if len(p.Method) == 0 || p.Method[0] != '"' {
		return p, p.ID, CodeInvalidRequest, "invalid request: method must be a string"
	}
	return p, nil, 0, ""
}

// validID returns raw when it is an id the library can carry faithfully
// (a string, or an integer 0..2^63-1), else nil.
func validID(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return nil
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return nil
		}
		// Invalid UTF-8 and lone surrogates decode to U+FFFD: the reply
		// could not carry the host's id back unchanged.
		if strings.ContainsRune(s, utf8.RuneError) && !(utf8.Valid(raw) && bytes.ContainsRune(raw, utf8.RuneError)) && !containsFFFDEscape(raw) {
			return nil
		}
		return raw
	}
	n, err := strconv.ParseUint(string(raw), 10, 64)
	if err != nil || n > math.MaxInt64 {
		return nil
	}
	return raw
}

// containsFFFDEscape reports whether raw spells U+FFFD as an escape.
func containsFFFDEscape(raw []byte) bool {
	return bytes.Contains(bytes.ToLower(raw), []byte(`\ufffd`))
}

// WriteObject implements jsonrpc2.ObjectStream. The library's messages
// marshal themselves; calling MarshalJSON directly spares encoding/json's
// extra compaction pass over the result.
func (s *objectStream) WriteObject(obj any) error {
	var b []byte
	var err error
	if m, ok := obj.(json.Marshaler); ok {
		b, err = m.MarshalJSON()
	} else {
		b, err = json.Marshal(obj)
	}
	if err != nil {
		return err
	}
	return s.f.WriteFrame(b)
}

// Close implements jsonrpc2.ObjectStream.
func (s *objectStream) Close() error {
	if s.closer != nil {
		return s.closer()
	}
	return nil
}

// writeResult writes a success response. Responses and notifications are
// written directly (one json.Marshal of the payload): the library's own
// path marshals results two more times and builds a map per notification,
// and it adds nothing here since the library does not track our replies.
// Server→client requests still go through the library (it matches the
// host's answers to them).
func (s *objectStream) writeResult(id jsonrpc2.ID, res any) error {
	var body []byte
	if res == nil {
		body = []byte("null")
	} else {
		var err error
		if body, err = json.Marshal(res); err != nil {
			return err
		}
	}
	idb, err := id.MarshalJSON()
	if err != nil {
		return err
	}
	frame := make([]byte, 0, len(body)+len(idb)+36)
	frame = append(frame, `{"jsonrpc":"2.0","id":`...)
	frame = append(frame, idb...)
	frame = append(frame, `,"result":`...)
	frame = append(frame, body...)
	frame = append(frame, '}')
	return s.f.WriteFrame(frame)
}

// writeError writes an error response (with data, when e has some).
func (s *objectStream) writeError(id jsonrpc2.ID, e *Error) error {
	idb, err := id.MarshalJSON()
	if err != nil {
		return err
	}
	body, err := json.Marshal(e.wire())
	if err != nil {
		return err
	}
	frame := make([]byte, 0, len(body)+len(idb)+36)
	frame = append(frame, `{"jsonrpc":"2.0","id":`...)
	frame = append(frame, idb...)
	frame = append(frame, `,"error":`...)
	frame = append(frame, body...)
	frame = append(frame, '}')
	return s.f.WriteFrame(frame)
}

// writeNotification writes a server→client notification. method must be a
// plain ASCII name (all of ours are constants).
func (s *objectStream) writeNotification(method string, params any) error {
	body, err := json.Marshal(params)
	if err != nil {
		return err
	}
	frame := make([]byte, 0, len(body)+len(method)+40)
	frame = append(frame, `{"jsonrpc":"2.0","method":"`...)
	frame = append(frame, method...)
	frame = append(frame, `","params":`...)
	frame = append(frame, body...)
	frame = append(frame, '}')
	return s.f.WriteFrame(frame)
}
