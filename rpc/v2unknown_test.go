package rpc

import (
	"encoding/json"
	"strings"
	"testing"
)

// unknownWarning returns the unknown_member warning at path in problems
// (a decoded problems or warnings array), nil when there is none.
func unknownWarning(problems any, path string) map[string]any {
	ps, _ := problems.([]any)
	for _, p := range ps {
		m, _ := p.(map[string]any)
		if m["path"] == path && m["code"] == "unknown_member" && m["severity"] == "warning" {
			return m
		}
	}
	return nil
}

// TestV2UnknownMembersAreWarnings: a misspelt member of a definition is
// accepted and ignored, as every extra key is (hooks-v2-handbook §8.1), and
// said: v2/definitions/validate and preview list an unknown_member warning
// at its path with the near miss, create, update and upsert return it in warnings, the
// stored definition does not have it, and a clean definition's results
// have no warnings member.
func TestV2UnknownMembersAreWarnings(t *testing.T) {
	c := initialized(t, t.TempDir(), t.TempDir())
	typo := map[string]any{"id": "tool", "name": "Tool", "eventName": "turn.completed",
		"action": map[string]any{"type": "tool", "target": map[string]any{"sourceKind": "connector", "sourceId": "x", "toolName": "t", "versoin": "1.2"}}}

	r := c.call("v2/definitions/validate", map[string]any{"definition": typo})
	res, _ := r["result"].(map[string]any)
	w := unknownWarning(res["problems"], "action.target.versoin")
	if res["valid"] != true || w == nil || !strings.Contains(w["message"].(string), `did you mean "version"?`) {
		t.Fatalf("validate: %v", r)
	}

	r = c.call("v2/definitions/preview", map[string]any{"definition": typo})
	if res, _ = r["result"].(map[string]any); res["valid"] != true || unknownWarning(res["problems"], "action.target.versoin") == nil {
		t.Errorf("preview: %v", r)
	}

	// The condition of the brief: the missing right is the error, the
	// warning says why.
	cond := map[string]any{"name": "c", "eventName": "turn.completed", "action": map[string]any{"type": "sound"},
		"condition": map[string]any{"op": "eq", "left": map[string]any{"path": "turn.id"}, "rigth": map[string]any{"const": "a"}}}
	r = c.call("v2/definitions/validate", map[string]any{"definition": cond})
	res, _ = r["result"].(map[string]any)
	if w := unknownWarning(res["problems"], "condition.rigth"); res["valid"] != false || w == nil || !strings.Contains(w["message"].(string), `did you mean "right"?`) {
		t.Errorf("validate condition: %v", r)
	}

	r = c.call("v2/definitions/create", map[string]any{"definition": typo})
	res, _ = r["result"].(map[string]any)
	if unknownWarning(res["warnings"], "action.target.versoin") == nil {
		t.Fatalf("create: %v", r)
	}
	stored, _ := json.Marshal(res["definition"])
	if strings.Contains(string(stored), "versoin") {
		t.Errorf("the unknown member was stored: %s", stored)
	}

	r = c.call("v2/definitions/update", map[string]any{"id": "tool", "patch": map[string]any{"timeoutMS": 2000, "name": "Tool"}})
	res, _ = r["result"].(map[string]any)
	if w := unknownWarning(res["warnings"], "timeoutMS"); res["outcome"] != "unchanged" || w == nil || !strings.Contains(w["message"].(string), `did you mean "timeoutMs"?`) {
		t.Errorf("update: %v", r)
	}
	// A patch of unknown members only can change nothing: refused.
	r = c.call("v2/definitions/update", map[string]any{"id": "tool", "patch": map[string]any{"timeoutMS": 2000}})
	if e, _ := r["error"].(map[string]any); e == nil || e["code"] != float64(-32602) || !strings.Contains(e["message"].(string), `"timeoutMS" (did you mean "timeoutMs"?)`) {
		t.Errorf("update of unknown members only: %v", r)
	}

	r = c.call("v2/definitions/upsert", map[string]any{"definition": typo})
	res, _ = r["result"].(map[string]any)
	if res["outcome"] != "unchanged" || unknownWarning(res["warnings"], "action.target.versoin") == nil {
		t.Errorf("upsert: %v", r)
	}

	clean := map[string]any{"id": "snd", "name": "Sound", "eventName": "turn.completed", "action": map[string]any{"type": "sound"}}
	for _, m := range []string{"v2/definitions/create", "v2/definitions/upsert"} {
		r = c.call(m, map[string]any{"definition": clean})
		res, _ = r["result"].(map[string]any)
		if _, has := res["warnings"]; res["definition"] == nil || has {
			t.Errorf("%s clean: %v", m, r)
		}
	}
	r = c.call("v2/definitions/validate", map[string]any{"definition": clean})
	if res, _ = r["result"].(map[string]any); res["valid"] != true || len(res["problems"].([]any)) != 0 {
		t.Errorf("validate clean: %v", r)
	}
}
