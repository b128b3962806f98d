package expr

import (
	"encoding/json"
	"strings"
	"testing"
)

// nestedNot is a condition of depth levels: depth-1 `not` around an exists leaf.
func nestedNot(depth int) string {
	return strings.Repeat(`{"op":"not","condition":`, depth-1) + `{"op":"exists","left":{"path":"turn.id"}}` + strings.Repeat(`}`, depth-1)
}

// The nesting cap is 256 levels (a deliberate difference from the
// handbook's "no limit", §4.4): 256 validates and evaluates, 257 is
// too_deep with a message that states the limit.
func TestConditionDepthCapIs256(t *testing.T) {
	env := SampleEnvelope(EventTurnCompleted)
	for _, c := range []struct {
		depth   int
		tooDeep bool
	}{{200, false}, {256, false}, {257, true}} {
		var d Definition
		raw := `{"name":"n","eventName":"turn.completed","action":{"type":"sound"},"condition":` + nestedNot(c.depth) + `}`
		if err := json.Unmarshal([]byte(raw), &d); err != nil {
			t.Fatal(err)
		}
		var deep *Problem
		for _, p := range Validate(&d) {
			if p.Code == CodeTooDeep {
				deep = &p
			}
		}
		if (deep != nil) != c.tooDeep {
			t.Fatalf("depth %d: too_deep problem %v, want %v", c.depth, deep, c.tooDeep)
		}
		if deep != nil && !strings.Contains(deep.Message, "256") {
			t.Fatalf("depth %d: message does not state the limit: %q", c.depth, deep.Message)
		}
		ok, err := Evaluate(d.Condition, &env)
		if c.tooDeep {
			if err == nil {
				t.Fatalf("depth %d evaluated", c.depth)
			}
			continue
		}
		// depth-1 nots around a true leaf: true when depth-1 is even.
		if err != nil || ok != ((c.depth-1)%2 == 0) {
			t.Fatalf("depth %d: %v %v", c.depth, ok, err)
		}
	}
}
