package rpc

import (
	"encoding/json"
	"fmt"

	"github.com/hookside/hookside/internal/jsonint"
	"github.com/hookside/hookside/internal/jsonpos"
)

// typeReason is the -32602 reason of te, a type error at field of the
// params v decodes into: for a number in an integer field the one rule of
// internal/jsonint ("must be an integer", or the field's range when v is
// jsonint.Ranged), else "must be <kind>, not <found>".
func typeReason(v any, field string, te *json.UnmarshalTypeError) string {
	if reason, ok := jsonint.TypeErrorReason(te, jsonint.RangeOf(v, field)); ok {
		return reason
	}
	return fmt.Sprintf("must be %s, not %s", jsonpos.KindName(te.Type, jsonpos.Plain), te.Value)
}
