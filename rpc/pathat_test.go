package rpc

import (
	"encoding/json"
	"errors"
	"testing"
)

// A type error deep in the params names the member's dotted path, as
// docs/protocol.md promises for error.data.field.
func TestInvalidParamsNameTheDottedPath(t *testing.T) {
	type params struct {
		SessionID  string            `json:"sessionId"`
		Env        map[string]string `json:"env"`
		PluginDirs []string          `json:"pluginDirs"`
		Nested     struct {
			List []map[string]int `json:"list"`
		} `json:"nested"`
	}
	for _, c := range []struct{ raw, field string }{
		{`{"sessionId":1}`, "sessionId"},
		{`{"env":{"A":"x","B":1}}`, "env.B"},
		{`{"env":{"A":1}}`, "env.A"},
		{`{"env":[]}`, "env"},
		{`{"pluginDirs":["/a",3]}`, "pluginDirs[1]"},
		{`{"pluginDirs":[2]}`, "pluginDirs[0]"},
		{`{"sessionId":"s","nested":{"list":[{"a":1},{"b":"x"}]}}`, "nested.list[1].b"},
		{`{"pluginDirs":"x"}`, "pluginDirs"},
		{` { "env" : { "k\u0041" : true } } `, "env.kA"},
	} {
		raw := json.RawMessage(c.raw)
		var p params
		err := decodeParams(&raw, &p, true)
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("%s: %v", c.raw, err)
		}
		data, _ := json.Marshal(e.Data)
		var d struct{ Field string }
		_ = json.Unmarshal(data, &d)
		if d.Field != c.field {
			t.Errorf("%s: field %q, want %q (%v)", c.raw, d.Field, c.field, err)
		}
	}
}
