package expr

import (
	"encoding/json"
	"testing"
)

// TestCommandHookShellAsWritten: a command action's `shell` (hook.Shell)
// reads back, and enters the execution hash, exactly as written: the
// stable form and the JSON below are what the hash input was when the
// field held any JSON value, so every stored execution hash stays valid.
// Validate judges the value (true or a non-empty string; false and null
// are unset).
func TestCommandHookShellAsWritten(t *testing.T) {
	cases := []struct {
		hook, stable, json, code string
	}{
		{`{"type":"command","command":"x"}`,
			`{"hook":{"command":"x","type":"command"},"type":"command"}`, `{"type":"command","command":"x"}`, ""},
		{`{"type":"command","command":"x","shell":null}`,
			`{"hook":{"command":"x","type":"command"},"type":"command"}`, `{"type":"command","command":"x"}`, ""},
		{`{"type":"command","command":"x","shell":true}`,
			`{"hook":{"command":"x","shell":true,"type":"command"},"type":"command"}`, `{"type":"command","command":"x","shell":true}`, ""},
		{`{"type":"command","command":"x","shell":false}`,
			`{"hook":{"command":"x","shell":false,"type":"command"},"type":"command"}`, `{"type":"command","command":"x","shell":false}`, ""},
		{`{"type":"command","command":"x","shell":"bash -lc <&>"}`,
			`{"hook":{"command":"x","shell":"bash -lc <&>","type":"command"},"type":"command"}`, `{"type":"command","command":"x","shell":"bash -lc \u003c\u0026\u003e"}`, ""},
		{`{"type":"command","command":"x","shell":""}`,
			`{"hook":{"command":"x","shell":"","type":"command"},"type":"command"}`, `{"type":"command","command":"x","shell":""}`, CodeRequired},
		{`{"type":"command","command":"x","shell":5}`,
			`{"hook":{"command":"x","shell":5,"type":"command"},"type":"command"}`, `{"type":"command","command":"x","shell":5}`, CodeInvalidEnum},
		{`{"type":"process","command":"x","shell":false}`,
			`{"hook":{"command":"x","shell":false,"type":"process"},"type":"command"}`, `{"type":"process","command":"x","shell":false}`, CodeUnexpectedField},
	}
	for _, tc := range cases {
		var a Action
		if err := json.Unmarshal([]byte(`{"type":"command","hook":`+tc.hook+`}`), &a); err != nil {
			t.Fatalf("%s: %v", tc.hook, err)
		}
		if got := StableStringify(&a); got != tc.stable {
			t.Errorf("%s: stable %s, want %s", tc.hook, got, tc.stable)
		}
		if got, _ := json.Marshal(a.Hook); string(got) != tc.json {
			t.Errorf("%s: json %s, want %s", tc.hook, got, tc.json)
		}
		d := baseDef()
		d.Action = a
		code := ""
		for _, p := range Validate(d) {
			if p.Path == "action.hook.shell" {
				code = p.Code
			}
		}
		if code != tc.code {
			t.Errorf("%s: shell problem %q, want %q", tc.hook, code, tc.code)
		}
	}
}
