package rpc

import (
	"encoding/json"
	"sort"
	"testing"
)

// TestSchemaRequiredFieldsArePresent checks the printed schema against real
// replies: every key a result lists as required is in the reply.
func TestSchemaRequiredFieldsArePresent(t *testing.T) {
	var schema struct {
		Defs map[string]struct {
			Result struct {
				Required []string `json:"required"`
			} `json:"result"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(ProtocolSchema, &schema); err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	writeHookConfig(t, home, "/bin/true")
	c := startServer(t, home)
	replies := map[string]map[string]any{}
	replies["initialize"] = c.call("initialize", map[string]any{"protocolVersion": "1", "clientInfo": map[string]any{"name": "t"}})
	replies["session/open"] = c.call("session/open", map[string]any{"sessionId": "s1", "cwd": t.TempDir()})
	replies["hooks/list"] = c.call("hooks/list", map[string]any{"sessionId": "s1"})
	replies["hooks/run"] = c.call("hooks/run", map[string]any{"sessionId": "s1", "event": "PreToolUse", "input": map[string]any{"toolName": "Bash"}})
	methods := make([]string, 0, len(replies))
	for m := range replies {
		methods = append(methods, m)
	}
	sort.Strings(methods)
	for _, m := range methods {
		res, ok := replies[m]["result"].(map[string]any)
		if !ok {
			t.Fatalf("%s: no result: %v", m, replies[m])
		}
		for _, k := range schema.Defs[m].Result.Required {
			if _, ok := res[k]; !ok {
				t.Errorf("%s: required %q missing from %v", m, k, res)
			}
		}
	}
}
