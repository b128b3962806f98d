package runner

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/hookside/hookside/internal/jsonexact"
)

// decodeAsExact is what inputFields.decode must equal: jsonexact.Unmarshal
// of the same object.
func decodeAsExact(t *testing.T, raw string) {
	t.Helper()
	var want, got inputFields
	if err := jsonexact.Unmarshal([]byte(raw), &want); err != nil {
		t.Fatalf("jsonexact: %v", err)
	}
	got.decode([]byte(raw))
	if !reflect.DeepEqual(normFields(got), normFields(want)) {
		t.Fatalf("decode(%s)\n got %+v\nwant %+v", raw, normFields(got), normFields(want))
	}
}

// normFields renders each field as a string (nil and empty alike), so that
// aliasing and copying compare equal.
func normFields(f inputFields) []string {
	v := reflect.ValueOf(f)
	out := make([]string, v.NumField())
	for i := range out {
		out[i] = string(v.Field(i).Bytes())
	}
	return out
}

// Every field of inputFields is read by its exact JSON name: the member
// switch in decode covers the struct's tags (a field added to the struct
// but not to the switch fails here).
func TestDecodeInputCoversEveryField(t *testing.T) {
	typ := reflect.TypeFor[inputFields]()
	var b strings.Builder
	b.WriteString("{")
	for i := range typ.NumField() {
		name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, "%q:[%d]", name, i)
	}
	b.WriteString("}")
	var f inputFields
	f.decode([]byte(b.String()))
	v := reflect.ValueOf(f)
	for i := range typ.NumField() {
		if got, want := string(v.Field(i).Bytes()), fmt.Sprintf("[%d]", i); got != want {
			t.Errorf("field %s = %q, want %q", typ.Field(i).Name, got, want)
		}
	}
	decodeAsExact(t, b.String())
}

func TestDecodeInputAsJSONExact(t *testing.T) {
	for _, raw := range []string{
		`{}`,
		`{"toolName":"Bash","toolInput":{"command":"ls"},"toolCallId":"c1"}`,
		`{"toolName":"Read","toolName":"Bash"}`,                // the last wins
		`{"ToolName":"Bash","TOOLNAME":"x","toolname":"y"}`,    // exact names only
		`{"tool\u004eame":"Bash","tool_n\u0061me":"Read"}`,     // escapes in names decoded
		`{ "prompt" : "hi" , "stopHookActive" : true }`,        // white space
		`{"toolInput":null,"error":{"a":[1,{"b":"}"}]},"x":1}`, // nested, braces in strings
		"{\"prompt\":\n\"a\",\n\"source\":\"startup\"}",
		`{"riskLevel":"low","attachments":[],"toolCallCount":3,"permissionSuggestions":[{"type":"x"}]}`,
	} {
		decodeAsExact(t, raw)
	}
}

// FuzzDecodeInput: on every JSON object decodeInput accepts, the fields
// are those jsonexact.Unmarshal reads.
func FuzzDecodeInput(f *testing.F) {
	for _, s := range []string{`{}`, `{"toolName":"Bash","toolInput":{"command":"ls"}}`, `{"tool\u004eame":1,"toolName":2}`, `{"prompt":"\"}"}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		in, err := decodeInput(json.RawMessage(s))
		var want inputFields
		exactErr := jsonexact.Unmarshal([]byte(strings.TrimSpace(s)), &want)
		trimmed := strings.TrimSpace(s)
		if trimmed == "" || trimmed == "null" {
			return
		}
		if (err == nil) != (exactErr == nil && strings.HasPrefix(trimmed, "{")) {
			t.Fatalf("decodeInput err %v, jsonexact err %v", err, exactErr)
		}
		if err == nil && !reflect.DeepEqual(normFields(in.f), normFields(want)) {
			t.Fatalf("decodeInput(%q)\n got %+v\nwant %+v", s, normFields(in.f), normFields(want))
		}
	})
}
