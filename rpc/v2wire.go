package rpc

import (
	"context"
	"errors"
)

// V2WireError is the JSON-RPC error a v2/* method answers for err, a
// v2bridge error (docs/protocol.md §5): -32602 with data {field, reason,
// details?} for invalid input, -32013 not found, -32015 run state, -32016
// conflict, -32014 V2 store unavailable, -32800 cancelled, else -32603.
// The CLI's `hookside v2` commands print the same code for the same error.
func V2WireError(err error) *Error {
	var re *Error
	if errors.As(v2Error(err), &re) {
		return re
	}
	if errors.Is(err, context.Canceled) {
		return &Error{Code: CodeRequestCancelled, Message: "request cancelled"}
	}
	return &Error{Code: CodeInternalError, Message: err.Error()}
}
