package rpc

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestIntegerParamsOneRule: every integer field of params follows one rule
// (internal/jsonint, docs/protocol.md "Integer fields"): a plain integer
// in the field's range is accepted; 1e2 and 100.0 are -32602 "must be an
// integer"; an integer out of the field's range (negative, beyond int64
// or beyond the documented maximum) is -32602 naming the range; data.field
// names the field.
func TestIntegerParamsOneRule(t *testing.T) {
	c := initialized(t, t.TempDir(), t.TempDir())
	const huge = "12345678901234567890123"
	call := func(method, params string) map[string]any {
		t.Helper()
		c.id++
		c.sendRaw(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`+"\n", c.id, method, params))
		return c.read(true)
	}
	def := func(member string) string {
		return `{"definition":{"name":"n","eventName":"turn.completed","action":{"type":"sound"},` + member + `}}`
	}
	for _, tc := range []struct {
		name, method string
		params       func(v string) string
		field        string
		ok           []string
		rng          string // the reason for out-of-range values
		out          []string
	}{
		{"runs limit", "v2/runs/list", func(v string) string { return `{"limit":` + v + `}` }, "limit",
			[]string{"0", "500"}, "must be an integer from 0 to 500", []string{"-1", "501", huge, "9223372036854775808"}},
		{"retention days", "v2/settings/update", func(v string) string { return `{"retention":{"runDays":` + v + `}}` }, "retention.runDays",
			[]string{"0", "30", "36500"}, "must be an integer from 0 to 36500", []string{"-1", "36501", huge}},
		{"retention batch", "v2/settings/update", func(v string) string { return `{"retention":{"batchLimit":` + v + `}}` }, "retention.batchLimit",
			[]string{"0", "100000"}, "must be an integer from 0 to 100000", []string{"-1", "100001", huge}},
		{"toolCallCount", "hooks/run", func(v string) string {
			return `{"sessionId":"s1","event":"Stop","turnId":"t","input":{"toolCallCount":` + v + `}}`
		}, "input.toolCallCount",
			[]string{"0", "9223372036854775807"}, "must be an integer from 0 to 9223372036854775807", []string{"-1", huge, "9223372036854775808"}},
		{"attachment size", "hooks/run", func(v string) string {
			return `{"sessionId":"s1","event":"UserPromptSubmit","input":{"prompt":"x","attachments":[{"name":"a","size":` + v + `}]}}`
		}, "input.attachments[0].size",
			[]string{"0", "1024"}, "must be an integer from 0 to 9223372036854775807", []string{"-1", huge}},
		{"definition timeoutMs", "v2/definitions/create", func(v string) string { return def(`"timeoutMs":` + v) }, "definition.timeoutMs",
			nil, "must be an integer from 1000 to 120000", []string{"999", "120001", huge}},
		{"definition maxAttempts", "v2/definitions/create", func(v string) string { return def(`"retryPolicy":{"maxAttempts":` + v + `}`) }, "definition.retryPolicy.maxAttempts",
			nil, "must be an integer from 1 to 10", []string{"0", "11", huge}},
		{"definition backoffMs", "v2/definitions/create", func(v string) string { return def(`"retryPolicy":{"backoffMs":` + v + `}`) }, "definition.retryPolicy.backoffMs",
			nil, "must be an integer from 0 to 600000", []string{"-1", "600001", huge}},
		{"definition revision", "v2/definitions/create", func(v string) string { return def(`"revision":` + v) }, "definition.revision",
			nil, "must be an integer from 0 to 9223372036854775807", []string{"-1", huge}},
		{"envelope schemaVersion", "v2/definitions/preview", func(v string) string {
			return `{"definition":{"name":"n","eventName":"turn.completed","action":{"type":"sound"}},"envelope":{"schemaVersion":` + v + `}}`
		}, "envelope.schemaVersion",
			[]string{"1"}, "must be an integer from 0 to 9223372036854775807", []string{"-1", huge}},
	} {
		for _, v := range tc.ok {
			if r := call(tc.method, tc.params(v)); r["error"] != nil {
				t.Errorf("%s %s: %v", tc.name, v, r["error"])
			}
		}
		check := func(v, reason string) {
			t.Helper()
			r := call(tc.method, tc.params(v))
			e, _ := r["error"].(map[string]any)
			data, _ := e["data"].(map[string]any)
			if errCode(r) != CodeInvalidParams || data["field"] != tc.field || !strings.Contains(fmt.Sprint(data["reason"]), reason) {
				b, _ := json.Marshal(r)
				t.Errorf("%s %s: %s\n want -32602 field %s reason %q", tc.name, v, b, tc.field, reason)
			}
			if msg, _ := e["message"].(string); strings.Contains(msg, "must be a number") {
				t.Errorf("%s %s: message %q", tc.name, v, msg)
			}
		}
		for _, v := range []string{"1e2", "100.0", "1E+3"} {
			check(v, "must be an integer")
		}
		for _, v := range tc.out {
			check(v, tc.rng)
		}
	}
}
