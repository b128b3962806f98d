package rpc

import (
	"encoding/json"
	"errors"
	"testing"
)

// TestInvalidParamsFieldAndReason: a type error in the params is -32602
// with data.field the dotted path of the value (docs/protocol.md; the
// paths themselves: jsonpos.TestTypeErrorPath) and data.reason naming the
// JSON value wanted and the one given.
func TestInvalidParamsFieldAndReason(t *testing.T) {
	type params struct {
		Name string              `json:"name"`
		On   bool                `json:"on"`
		N    int64               `json:"n"`
		Env  map[string]string   `json:"env"`
		Dirs []string            `json:"dirs"`
		Sub  struct{ X float64 } `json:"sub"`
	}
	for _, c := range []struct{ raw, field, reason string }{
		{`{"name":1}`, "name", "must be a string, not number"},
		{`{"on":"yes"}`, "on", "must be a boolean, not string"},
		{`{"n":1.5}`, "n", "must be an integer"},
		{`{"n":1e2}`, "n", "must be an integer"},
		{`{"n":"1"}`, "n", "must be an integer, not string"},
		{`{"n":99999999999999999999}`, "n", "must be an integer from -9223372036854775808 to 9223372036854775807"},
		{`{"env":{"A":"x","B":true}}`, "env.B", "must be a string, not bool"},
		{`{"dirs":{}}`, "dirs", "must be an array, not object"},
		{`{"dirs":["a",{}]}`, "dirs[1]", "must be a string, not object"},
		{`{"sub":[]}`, "sub", "must be an object, not array"},
		{`{"sub":{"X":"1"}}`, "sub.X", "must be a number, not string"},
	} {
		raw := json.RawMessage(c.raw)
		var p params
		err := decodeParams(&raw, &p, true)
		var e *Error
		if !errors.As(err, &e) || e.Code != CodeInvalidParams {
			t.Fatalf("%s: %v", c.raw, err)
		}
		if d, _ := e.Data.(FieldError); d.Field != c.field || d.Reason != c.reason {
			t.Errorf("%s: data %+v, want field %q, reason %q", c.raw, e.Data, c.field, c.reason)
		}
	}
}
