package rpc

import (
	"bytes"
	"encoding/json"
	"errors"
	"log/slog"
	"math"
	"strconv"
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
}

// probe is the envelope of one incoming message, decoded loosely so that a
// field of the wrong type is an invalid request, not a parse error.
type probe struct {
	JSONRPC json.RawMessage `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  json.RawMessage `json:"method"`
	Result  json.RawMessage `json:"result"`
	Error   json.RawMessage `json:"error"`
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
		if id, code, msg := validateFrame(frame); code != 0 {
			s.log.Debug("rejected frame", "code", code, "reason", msg)
			s.replyError(id, code, msg)
			continue
		}
		if err := json.Unmarshal(frame, v); err != nil {
			// Not JSON after all (validateFrame only scans the top level),
			// or a shape the library refuses: answer instead of closing.
			if !json.Valid(frame) {
				s.replyError(nil, CodeParseError, "parse error: the frame is not JSON")
			} else {
				s.replyError(nil, CodeInvalidRequest, "invalid request: "+err.Error())
			}
			continue
		}
		return nil
	}
}

// validateFrame checks one frame; code 0 means pass it on. id is the id to
// echo in the error reply (nil = null).
func validateFrame(frame []byte) (id json.RawMessage, code int, msg string) {
	first := frame[0]
	if first != '{' {
		if !json.Valid(frame) {
			return nil, CodeParseError, "parse error: the frame is not JSON"
		}
		if first == '[' {
			return nil, CodeInvalidRequest, "invalid request: batches are not supported"
		}
		return nil, CodeInvalidRequest, "invalid request: a message must be a JSON object"
	}
	p, ok := topLevel(frame)
	if !ok {
		if !json.Valid(frame) {
			return nil, CodeParseError, "parse error: the frame is not JSON"
		}
		// Valid JSON the cheap scanner could not read (it cannot happen
		// for an object, but be safe): decode it properly.
		if err := json.Unmarshal(frame, &p); err != nil {
			return nil, CodeParseError, "parse error: " + err.Error()
		}
	}
	if p.JSONRPC != nil && !bytes.Equal(p.JSONRPC, []byte(`"2.0"`)) {
		return validID(p.ID), CodeInvalidRequest, `invalid request: "jsonrpc" must be "2.0"`
	}
	if p.ID != nil && validID(p.ID) == nil {
		return nil, CodeInvalidRequest, "invalid request: id must be a string or a non-negative integer"
	}
	if p.Method == nil {
		if p.Result == nil && p.Error == nil {
			return p.ID, CodeInvalidRequest, "invalid request: neither a request (method) nor a response (result/error)"
		}
		if p.ID == nil {
			return nil, CodeInvalidRequest, "invalid request: a response needs an id"
		}
		return nil, 0, ""
	}
	if len(p.Method) == 0 || p.Method[0] != '"' {
		return p.ID, CodeInvalidRequest, "invalid request: method must be a string"
	}
	return nil, 0, ""
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
		return raw
	}
	n, err := strconv.ParseUint(string(raw), 10, 64)
	if err != nil || n > math.MaxInt64 {
		return nil
	}
	return raw
}

// WriteObject implements jsonrpc2.ObjectStream.
func (s *objectStream) WriteObject(obj any) error {
	b, err := json.Marshal(obj)
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
