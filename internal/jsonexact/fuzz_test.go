package jsonexact

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// fieldNames are the JSON names of every field of target and the types
// inside it.
var fieldNames = []string{"e", "Clash", "tool_name", "decision", "Plain", "A", "a", "straße", "nested",
	"ptrs", "byKey", "any", "raw", "self", "arr", "name", "inner", "list"}

// foldedName reports whether any member name of v (a decoded document)
// equals a field name ignoring case without being one: only then may
// jsonexact and encoding/json disagree.
func foldedName(v any) bool {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			for _, f := range fieldNames {
				if k != f && strings.EqualFold(k, f) {
					return true
				}
			}
			if foldedName(e) {
				return true
			}
		}
	case []any:
		for _, e := range v {
			if foldedName(e) {
				return true
			}
		}
	}
	return false
}

// FuzzUnmarshal: on documents whose member names are all exact (or name
// no field in any case) Unmarshal agrees with json.Unmarshal, value and
// error; on any input it does not panic, Exact keeps the length (so every
// offset) and validity, and Unmarshal is json.Unmarshal of Exact.
func FuzzUnmarshal(f *testing.F) {
	for _, s := range []string{
		`{"tool_name":"Bash","decision":"block","Plain":3,"A":"u","a":"l"}`,
		`{"TOOL_NAME":"Bash","Decision":"block","tool_name":"x"}`,
		`{"nested":{"name":"n","inner":{"name":"i"},"list":[{"name":"l"},{"NAME":"L"}]},"arr":[{"name":"x"}]}`,
		`{"ptrs":[null,{"name":"p"}],"byKey":{"K":{"name":"v","Name":"w"}},"any":{"Name":[1,{"x":null}]}}`,
		`{"raw":{"Name":1},"self":{"NAME":2},"e":1,"Clash":"c","straße":"s","STRASSE":"S"}`,
		`{"tool\u005fname":"esc","\u0054OOL_NAME":"E","k\"ey":{"\\":1}}`,
		`{"tool_name":7}`,
		`{"nested":[1]}`,
		`[{"tool_name":"x"}]`,
		`{"tool_name":`,
		"{\"\xff\":1,\"tool_name\":\"\xfe\"}",
		` { "decision" : null , "Plain" : 1e3 } `,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ex := Exact(data, &target{})
		if len(ex) != len(data) || json.Valid(ex) != json.Valid(data) {
			t.Fatalf("Exact changed length or validity: %q -> %q", data, ex)
		}
		var a, b, c target
		errA := Unmarshal(data, &a)
		errC := json.Unmarshal(ex, &c)
		if (errA == nil) != (errC == nil) || !reflect.DeepEqual(a, c) {
			t.Fatalf("Unmarshal is not json.Unmarshal of Exact: %v / %v", errA, errC)
		}
		_ = Variants(data, &target{}, 0)
		var doc any
		if json.Unmarshal(data, &doc) == nil && foldedName(doc) {
			return
		}
		errB := json.Unmarshal(data, &b)
		if (errA == nil) != (errB == nil) || (errA != nil && errA.Error() != errB.Error()) {
			t.Fatalf("%q: jsonexact error %v, encoding/json %v", data, errA, errB)
		}
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("%q: jsonexact %+v, encoding/json %+v", data, a, b)
		}
	})
}
