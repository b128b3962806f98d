package rpc

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"

	"github.com/hookside/hookside/internal/jsonexact"
	"github.com/hookside/hookside/internal/jsonpos"
	"github.com/hookside/hookside/internal/jsonscan"
	"github.com/hookside/hookside/v2bridge"
)

// handler is what the dispatcher calls for one request: the raw params in,
// the result (encoded by the stream) or an error out. An *Error reaches the
// wire as is; anything else is -32603. Handlers are built by typed, optional
// and v2 from functions of the form func(ctx, P) (R, error).
// name is the method called (for the unknown-params log).
type handler func(s *Server, ctx context.Context, name string, params *json.RawMessage) (any, error)

// method is one entry of the method table (methods.go).
type method struct {
	call handler
	// inline methods run on the read goroutine, in arrival order: cheap
	// lifecycle calls whose effect the next message must already see.
	inline bool
}

// deferred is a result computed off the read goroutine: the dispatcher
// runs it in a goroutine and replies with what it returns. After exit or
// EOF, Serve does not return before every deferred reply is written.
type deferred func() (any, error)

// noParams is the params type of methods that take none: any object or
// array is accepted and ignored (the dispatcher has already refused
// params that are neither, checkParamsShape).
type noParams struct{}

func (*noParams) UnmarshalJSON([]byte) error { return nil }

// typed adapts a method whose params are required: absent or null params
// are -32602 "params are required".
func typed[P, R any](fn func(*Server, context.Context, P) (R, error)) handler {
	return decoded(true, fn)
}

// optional adapts a method whose params may be absent or null (then P is
// its zero value).
func optional[P, R any](fn func(*Server, context.Context, P) (R, error)) handler {
	return decoded(false, fn)
}

func decoded[P, R any](required bool, fn func(*Server, context.Context, P) (R, error)) handler {
	return func(s *Server, ctx context.Context, name string, raw *json.RawMessage) (any, error) {
		var p P
		if err := decodeParams(raw, &p, required); err != nil {
			return nil, err
		}
		s.noteUnknownParams(name, reflect.TypeFor[P](), raw)
		return fn(s, ctx, p)
	}
}

// v2 adapts a V2 method: it gets the connection's bridge (opened on first
// use; -32014 when the store is unavailable, checked before the params),
// and its errors are mapped by v2Error. required says whether absent or
// null params are -32602.
func v2[P, R any](required bool, fn func(*Server, context.Context, *v2bridge.Bridge, P) (R, error)) handler {
	return func(s *Server, ctx context.Context, name string, raw *json.RawMessage) (any, error) {
		b, err := s.v2Bridge()
		if err != nil {
			return nil, err
		}
		var p P
		if err := decodeParams(raw, &p, required); err != nil {
			return nil, err
		}
		s.noteUnknownParams(name, reflect.TypeFor[P](), raw)
		res, err := fn(s, ctx, b, p)
		if err != nil {
			LogV2Detail(s.log, err)
			return nil, v2Error(err)
		}
		return res, nil
	}
}

// checkParamsShape refuses params that are present but neither an object
// nor an array nor null (JSON-RPC 2.0 §4.2: params is a structured value),
// and params in which an object, at any depth, names a member twice:
// -32602 with the repeated member's path as field ("input.toolInput.command",
// reason dupMemberReason). Which of the two a parser keeps is its own
// choice (RFC 8259 §4), so the host and hookside, or hookside and a hook
// reading the same input, could act on different values. The dispatcher
// applies it to every request before its method runs.
func checkParamsShape(raw *json.RawMessage) *Error {
	if raw == nil || len(*raw) == 0 {
		return nil
	}
	switch (*raw)[0] {
	case '{', '[':
		if path, found := jsonscan.Duplicate(*raw); found {
			return InvalidParams(path, dupMemberReason)
		}
		return nil
	case 'n': // null
		return nil
	}
	return InvalidParams("", "params must be an object or an array")
}

// dupMemberReason is the -32602 reason of a member named twice.
const dupMemberReason = "duplicate member: this name appears twice in one object (each member name may appear once)"

// decodeParams decodes raw into v, turning type errors into -32602 with
// the offending field. Absent or null params leave v unchanged, or are
// -32602 "params are required" when required.
func decodeParams(raw *json.RawMessage, v any, required bool) error {
	if raw == nil || string(*raw) == "null" {
		if required {
			return InvalidParams("", "params are required")
		}
		return nil
	}
	if f, ok := v.(fastParams); ok && f.decodeFast(*raw) {
		return nil
	}
	if err := jsonexact.Unmarshal(*raw, v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			field := te.Field
			if field == "" {
				return InvalidParams("", "params must be an object")
			}
			if p := jsonpos.TypeErrorPath(*raw, te); p != "" {
				field = p
			}
			return InvalidParams(field, typeReason(v, field, te))
		}
		return InvalidParams("", err.Error())
	}
	return nil
}
