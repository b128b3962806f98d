package v2bridge

import (
	"encoding/json"

	"github.com/hookside/hookside/internal/jsonexact"
	"github.com/hookside/hookside/internal/jsonint"
	"github.com/hookside/hookside/internal/jsonpos"
	"github.com/hookside/hookside/v2bridge/expr"
)

// valueShape is what a value expression position needs (hooks-v2-handbook
// §5.1).
const valueShape = `must be a value expression: {"const": …}, {"path": "…"} or {"template": "…"}`

// memberShapes says, per member of a definition, what JSON it needs.
var memberShapes = map[string]string{
	"id": "must be a string", "name": "must be a string", "description": "must be a string",
	"eventName": "must be a string", "concurrencyPolicy": "must be a string",
	"enabled":      "must be a boolean",
	"condition":    `must be a condition object, e.g. {"op": "eq", "left": {"path": "…"}, "right": {"const": …}}`,
	"action":       `must be an object, e.g. {"type": "notification", "title": {"const": "Done"}}`,
	"inputMapping": "must be an object whose members are value expressions",
	"timeoutMs":    "must be an integer (milliseconds)",
	"retryPolicy":  `must be an object {"mode"?, "maxAttempts"?, "backoffMs"?}`,
	"revision":     "must be an integer",
}

var retryShapes = map[string]string{
	"mode": "must be a string", "maxAttempts": "must be an integer", "backoffMs": "must be an integer (milliseconds)",
}

var actionShapes = map[string]string{
	"type": "must be a string", "title": valueShape, "body": valueShape,
	"target": "must be a tool target object", "hook": "must be a command hook object",
}

// shapeProblems finds the members of a definition that have the wrong JSON
// type, each decoded on its own so the problem names its field
// ("action.title", "inputMapping.channel") and says what it needs, in the
// validator's Problem form (code invalid_type), without the decoder's text.
// It is called only when decoding the whole definition failed; if it finds
// nothing more precise, it reports the definition itself.
func shapeProblems(raw json.RawMessage) []expr.Problem {
	bad := func(path, msg string) expr.Problem {
		return expr.Problem{Path: path, Code: expr.CodeInvalidType, Message: path + " " + msg, Severity: expr.SeverityError}
	}
	var top map[string]json.RawMessage
	if jsonexact.Unmarshal(raw, &top) != nil || top == nil {
		return []expr.Problem{{Path: "", Code: expr.CodeInvalidType, Message: "the definition must be a JSON object", Severity: expr.SeverityError}}
	}
	var out []expr.Problem
	for _, k := range sortedKeys(top) {
		v := top[k]
		if p, ok := intProblem(k, v); ok {
			out = append(out, p...)
			continue
		}
		switch k {
		case "retryPolicy":
			var members map[string]json.RawMessage
			if jsonexact.Unmarshal(v, &members) != nil || members == nil {
				out = append(out, bad(k, memberShapes[k]))
				continue
			}
			for _, m := range sortedKeys(members) {
				path := k + "." + m
				if p, ok := intProblem(path, members[m]); ok {
					out = append(out, p...)
					continue
				}
				var rp expr.RetryPolicy
				one, _ := json.Marshal(map[string]json.RawMessage{m: members[m]})
				if jsonexact.Unmarshal(one, &rp) != nil {
					out = append(out, bad(path, shapeOf(retryShapes, m)))
				}
			}
		case "action":
			var members map[string]json.RawMessage
			if jsonexact.Unmarshal(v, &members) != nil || members == nil {
				out = append(out, bad(k, memberShapes[k]))
				continue
			}
			for _, m := range sortedKeys(members) {
				var a expr.Action
				one, _ := json.Marshal(map[string]json.RawMessage{m: members[m]})
				if jsonexact.Unmarshal(one, &a) != nil {
					out = append(out, bad("action."+m, shapeOf(actionShapes, m)))
				}
			}
		case "inputMapping":
			var members map[string]json.RawMessage
			if jsonexact.Unmarshal(v, &members) != nil || members == nil {
				out = append(out, bad(k, memberShapes[k]))
				continue
			}
			for _, m := range sortedKeys(members) {
				var val expr.Value
				if jsonexact.Unmarshal(members[m], &val) != nil {
					out = append(out, bad(jsonpos.Key("inputMapping", m), valueShape))
				}
			}
		default:
			var d expr.Definition
			one, _ := json.Marshal(map[string]json.RawMessage{k: v})
			if jsonexact.Unmarshal(one, &d) != nil {
				out = append(out, bad(k, shapeOf(memberShapes, k)))
			}
		}
	}
	if len(out) == 0 {
		out = append(out, expr.Problem{Path: "", Code: expr.CodeInvalidType, Message: "the definition does not have the shape of a V2 definition", Severity: expr.SeverityError})
	}
	return out
}

// intProblem checks the member at path when it is an integer member of a
// definition (expr.IntRange) holding a number, by internal/jsonint's rule:
// invalid_type "must be an integer" for 1e2 or 100.0, out_of_range with
// the range for an integer outside it (however many digits). ok is false
// when path is not an integer member or raw is not a number (the member's
// shape message says what it needs).
func intProblem(path string, raw json.RawMessage) (problems []expr.Problem, ok bool) {
	r, isInt := expr.IntRange(path)
	if !isInt || !jsonint.IsNumber(raw) {
		return nil, false
	}
	_, reason := r.Parse(raw)
	switch reason {
	case "":
		return nil, true
	case jsonint.NotInteger:
		return []expr.Problem{{Path: path, Code: expr.CodeInvalidType, Message: path + " " + reason, Severity: expr.SeverityError}}, true
	}
	return []expr.Problem{{Path: path, Code: expr.CodeOutOfRange, Message: path + " " + reason, Severity: expr.SeverityError}}, true
}

func shapeOf(shapes map[string]string, k string) string {
	if s, ok := shapes[k]; ok {
		return s
	}
	return "has the wrong type"
}
