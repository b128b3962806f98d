package rpc

import (
	"context"
	"errors"
	"log/slog"

	"github.com/hookside/hookside/v2bridge"
)

// V2WireError is the JSON-RPC error a v2/* method answers for err, a
// v2bridge error (docs/protocol.md §5): -32602 with data {field, reason,
// details?} for invalid input, -32013 not found, -32015 run state, -32016
// conflict, -32014 V2 store unavailable, -32800 cancelled, else -32603.
// Messages never carry the database driver's text (LogV2Detail logs it).
// The CLI's `hookside v2` commands print the same code for the same error.
func V2WireError(err error) *Error {
	var re *Error
	if errors.As(v2Error(err), &re) {
		return re
	}
	if errors.Is(err, context.Canceled) {
		return &Error{Code: CodeRequestCancelled, Message: "request cancelled"}
	}
	return internalV2Error()
}

// internalV2Error is the -32603 of an error no other code describes; its
// text is only in the debug log.
func internalV2Error() *Error {
	return &Error{Code: CodeInternalError, Message: "internal error: the V2 request failed (run with --log-level debug for the detail)"}
}

// LogV2Detail logs at debug level what a v2 error's wire message leaves out:
// a database error's driver text, or the whole text of an internal error.
func LogV2Detail(log *slog.Logger, err error) {
	if log == nil || err == nil {
		return
	}
	var de *v2bridge.DatabaseError
	if errors.As(err, &de) {
		log.Debug("v2 database error", "reason", de.Reason, "detail", de.Detail())
		return
	}
	if V2WireError(err).Code == CodeInternalError {
		log.Debug("v2 internal error", "err", err.Error())
	}
}
