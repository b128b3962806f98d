package jsonexact

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

type inner struct {
	Name  string  `json:"name"`
	Inner *inner  `json:"inner,omitempty"`
	List  []inner `json:"list"`
}

type Embedded struct {
	E     int `json:"e"`
	Clash string
}

type Other struct {
	Clash string
}

// selfDecoding keeps its bytes: what is inside is its own business.
type selfDecoding struct{ raw string }

func (s *selfDecoding) UnmarshalJSON(b []byte) error { s.raw = string(b); return nil }

type target struct {
	Embedded
	Other
	ToolName string           `json:"tool_name"`
	Decision *string          `json:"decision"`
	Plain    int              // untagged: the Go name
	Skipped  string           `json:"-"`
	Upper    string           `json:"A"`
	Lower    string           `json:"a"`
	Uni      string           `json:"straße"`
	Nested   inner            `json:"nested"`
	Ptrs     []*inner         `json:"ptrs"`
	ByKey    map[string]inner `json:"byKey"`
	Any      any              `json:"any"`
	Raw      json.RawMessage  `json:"raw"`
	Self     selfDecoding     `json:"self"`
	Arr      [2]inner         `json:"arr"`
}

func decodeBoth(t *testing.T, data string) (exact, std target, exactErr, stdErr error) {
	t.Helper()
	exactErr = Unmarshal([]byte(data), &exact)
	stdErr = json.Unmarshal([]byte(data), &std)
	return
}

// TestUnmarshal: members fill fields by exact name only; everything else
// is as encoding/json decodes it.
func TestUnmarshal(t *testing.T) {
	dec := "block"
	for _, tc := range []struct {
		name, data string
		want       target
	}{
		{"exact names fill fields", `{"tool_name":"Bash","decision":"block","Plain":3}`,
			target{ToolName: "Bash", Decision: &dec, Plain: 3}},
		{"other-case names are unknown", `{"TOOL_NAME":"Bash","Decision":"block","plain":3,"Tool_Name":"x"}`, target{}},
		{"an other-case name does not override the exact one", `{"tool_name":"a","TOOL_NAME":"b"}`, target{ToolName: "a"}},
		{"escaped exact names are exact", `{"tool\u005fname":"Bash"}`, target{ToolName: "Bash"}},
		{"escaped other-case names are unknown", `{"\u0054ool_name":"Bash","\"x\\":1}`, target{}},
		{"names differing in case are two fields", `{"A":"up","a":"low"}`, target{Upper: "up", Lower: "low"}},
		{"unicode folding is not matching", `{"STRASSE":"x","Straße":"y","straße":"z"}`, target{Uni: "z"}},
		{"nested structs", `{"nested":{"NAME":"no","inner":{"name":"deep","Inner":{"name":"x"}},"list":[{"name":"l0"},{"Name":"l1"}]}}`,
			target{Nested: inner{Inner: &inner{Name: "deep"}, List: []inner{{Name: "l0"}, {}}}}},
		{"pointers in slices and map values", `{"ptrs":[null,{"Name":"x","name":"y"}],"byKey":{"K":{"NAME":"x","name":"v"}}}`,
			target{Ptrs: []*inner{nil, {Name: "y"}}, ByKey: map[string]inner{"K": {Name: "v"}}}},
		{"arrays", `{"arr":[{"name":"a0"},{"NAME":"a1"}]}`, target{Arr: [2]inner{{Name: "a0"}}}},
		{"maps, interfaces and raw JSON keep names", `{"any":{"Name":1},"raw":{"Name":1}}`,
			target{Any: map[string]any{"Name": 1.0}, Raw: json.RawMessage(`{"Name":1}`)}},
		{"a type that decodes itself gets its bytes", `{"self":{"NAME":1}}`, target{Self: selfDecoding{`{"NAME":1}`}}},
		{"promoted fields; a clash at one depth fills neither", `{"e":1,"E":2,"Clash":"c"}`, target{Embedded: Embedded{E: 1}}},
		{"skipped fields stay skipped", `{"-":"x","Skipped":"y"}`, target{}},
		{"wrong-kind values are left to encoding/json", `{"nested":[{"Name":1}],"ptrs":{"Name":1}}`, target{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got target
			err := Unmarshal([]byte(tc.data), &got)
			if err != nil && !strings.HasPrefix(tc.name, "wrong-kind") {
				t.Fatal(err)
			}
			if tc.want.Any != nil {
				tc.want.Any = map[string]any{"Name": 1.0}
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

// TestUnmarshalErrorsAreEncodingJSONs: errors, offsets and fields included,
// are those json.Unmarshal reports for the same data.
func TestUnmarshalErrorsAreEncodingJSONs(t *testing.T) {
	for _, data := range []string{
		`{"tool_name":`,
		`{"TOOL_NAME":"x","tool_name":7}`,
		`{"nested":{"Name":"x","list":[{"name":false}]}}`,
		`[1]`,
		`{"tool_name":"x"} junk`,
		`{"TOOL_NAME":7,"plain":"x"}`,
	} {
		_, _, exactErr, stdErr := decodeBoth(t, data)
		if data == `{"TOOL_NAME":7,"plain":"x"}` {
			if exactErr != nil {
				t.Errorf("%s: an ignored member's value is not type-checked: %v", data, exactErr)
			}
			continue
		}
		var te1, te2 *json.UnmarshalTypeError
		if errors.As(exactErr, &te1) != errors.As(stdErr, &te2) || (te1 != nil && (te1.Offset != te2.Offset || te1.Field != te2.Field)) {
			t.Errorf("%s: jsonexact %#v, encoding/json %#v", data, exactErr, stdErr)
		}
		if exactErr == nil || stdErr == nil || exactErr.Error() != stdErr.Error() {
			t.Errorf("%s: jsonexact %v, encoding/json %v", data, exactErr, stdErr)
		}
	}
	var notPtr any = target{}
	if err := Unmarshal([]byte(`{}`), notPtr); err == nil || err.Error() != json.Unmarshal([]byte(`{}`), notPtr).Error() {
		t.Errorf("non-pointer: %v", err)
	}
}

// TestExactLeavesDataAlone: data is never modified, returned as is when
// nothing is renamed, and a renamed copy keeps every offset; every
// unknown member of a struct's object is renamed.
func TestExactLeavesDataAlone(t *testing.T) {
	data := []byte(`{"tool_name":"x","any":{"Other":1}}`)
	if got := Exact(data, &target{}); &got[0] != &data[0] {
		t.Error("copied data with only exact names")
	}
	data = []byte(`{"Tool_Name":"x","a\"b":{"Name":1}}`)
	orig := string(data)
	got := Exact(data, &target{})
	if string(data) != orig {
		t.Errorf("data modified: %s", data)
	}
	if want := `{"'''''''''":"x","''''":{"Name":1}}`; string(got) != want {
		t.Errorf("got %s, want %s", got, want)
	}
	var m map[string]any
	if got := Exact(data, &m); string(got) != orig {
		t.Errorf("a map target renamed: %s", got)
	}
}

// TestVariants: the members only a case-insensitive reader would take as
// fields, with their paths.
func TestVariants(t *testing.T) {
	data := `{"TOOL_NAME":1,"unknown":2,"tool_name":"x","nested":{"list":[{"NAME":"a"}],"Inner":{}},"byKey":{"k":{"Name":1}},"any":{"Name":1}}`
	got := Variants([]byte(data), &target{}, 0)
	want := []Variant{{"TOOL_NAME", "tool_name"}, {"nested.list[0].NAME", "name"}, {"nested.Inner", "inner"}, {"byKey.k.Name", "name"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if got := Variants([]byte(data), &target{}, 1); len(got) != 1 {
		t.Errorf("limit 1: %v", got)
	}
	if got := Variants([]byte(`{"tool_name":`), &target{}, 0); got != nil {
		t.Errorf("invalid JSON: %v", got)
	}
}
