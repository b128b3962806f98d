package rpc

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/sourcegraph/jsonrpc2"
)

// Error codes of PROTOCOL.md §1. They are stable: hosts branch on them.
const (
	CodeParseError       = -32700 // the frame was not JSON (id null) or not UTF-8 (its id when readable); connection stays open
	CodeInvalidRequest   = -32600 // not a request object, batch, second initialize, after shutdown
	CodeMethodNotFound   = -32601
	CodeInvalidParams    = -32602 // data = {"field": "...", "reason": "..."}
	CodeInternalError    = -32603 // a handler panic; the server lives on
	CodeServerOverloaded = -32001 // the bounded work queue is full; retry later
	CodeNotInitialized   = -32002 // any request but initialize before it
	CodeRequestCancelled = -32800 // after $/cancelRequest
	CodeReviewExpired    = -32010 // review expired, used or unknown (the message says which)
	CodeTrustCorrupt     = -32011 // trust store corrupt: writes refused
	CodeUnknownSession   = -32012
	CodeNotFound         = -32013 // definition, binding, run
)

// Error is a JSON-RPC error a handler returns; it reaches the wire as is.
type Error struct {
	Code    int64
	Message string
	Data    any
}

func (e *Error) Error() string { return fmt.Sprintf("jsonrpc error %d: %s", e.Code, e.Message) }

// wire converts e to the library's error value.
func (e *Error) wire() *jsonrpc2.Error {
	we := &jsonrpc2.Error{Code: e.Code, Message: e.Message}
	if e.Data != nil {
		b, err := json.Marshal(e.Data)
		if err == nil {
			raw := json.RawMessage(b)
			we.Data = &raw
		}
	}
	return we
}

// FieldError is the `data` of an invalid-params error.
type FieldError struct {
	Field  string `json:"field"`
	Reason string `json:"reason"`
}

// InvalidParams returns a -32602 error naming the offending field.
func InvalidParams(field, reason string) *Error {
	msg := "invalid params"
	if field != "" {
		msg = fmt.Sprintf("invalid params: %s: %s", field, reason)
	} else if reason != "" {
		msg = "invalid params: " + reason
	}
	return &Error{Code: CodeInvalidParams, Message: msg, Data: FieldError{Field: field, Reason: reason}}
}

// asRPCError maps any handler error to a wire error.
func asRPCError(err error) *Error {
	var re *Error
	if errors.As(err, &re) {
		return re
	}
	return &Error{Code: CodeInternalError, Message: err.Error()}
}
