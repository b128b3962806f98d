package expr

import (
	"errors"
	"fmt"
	"strings"
)

// Sentinel errors of Evaluate (hooks-v2-handbook §4.2, §4.4). Conditions that pass Validate never produce
// them.
var (
	// ErrMalformedCondition: a node is structurally unusable (nil child,
	// "not" without condition, a leaf without a needed operand, a value
	// expression without exactly one kind).
	ErrMalformedCondition = errors.New("malformed condition")
	// ErrConditionTooDeep: nesting exceeds MaxConditionDepth.
	ErrConditionTooDeep = errors.New("condition nested too deeply")
)

// Evaluate decides whether cond matches env, with the exact semantics of
// hooks-v2-handbook §4.2 (the "measured" truth table):
//
//   - eq: strict equality of scalars (no coercion: eq("0",0) and eq(true,1)
//     are false). If either side is an object — and null, arrays and objects
//     all are (typeof null === "object") — the result is false, so
//     eq(null,null), eq([1,2],[1,2]) and eq({a:1},{a:1}) are false.
//   - notEq: exactly !eq, so notEq(null,null) is true.
//   - contains / startsWith: both sides go through the "comparable text"
//     conversion (string as is; number and boolean via JavaScript String();
//     anything else, null and arrays included, has none); if either side has
//     none the result is false, else string containment / prefix:
//     contains("a1b",1) and startsWith(12,1) are true, contains([1,2],1) false.
//   - exists: true when left is a path whose value is neither null nor
//     undefined; a non-path left is false.
//   - and / or: every / some over the children, short-circuit, in order (an
//     empty and is true, an empty or false); not: the negation.
//   - any other op: false (the default branch).
//
// Operands: const as is; template renders to a string (RenderTemplate); a
// path that resolves to nothing, or is not whitelisted for env.EventName
// (§4.1), reads as null — so a missing path makes eq, contains, startsWith
// and exists false and notEq true (§4.2 "两边都缺"). A nil cond is an absent
// condition and matches. Errors (ErrMalformedCondition, ErrConditionTooDeep)
// only come from structures Validate rejects.
func Evaluate(cond *Condition, env *Envelope) (bool, error) {
	if cond == nil {
		return true, nil
	}
	return eval(cond, env, 1)
}

func eval(c *Condition, env *Envelope, depth int) (bool, error) {
	if depth > MaxConditionDepth {
		return false, ErrConditionTooDeep
	}
	switch c.Op {
	case OpAnd, OpOr:
		want := c.Op == OpOr // the value that short-circuits
		for i, child := range c.Conditions {
			if child == nil {
				return false, fmt.Errorf("%w: %s child %d is null", ErrMalformedCondition, c.Op, i)
			}
			r, err := eval(child, env, depth+1)
			if err != nil {
				return false, err
			}
			if r == want {
				return want, nil
			}
		}
		return !want, nil
	case OpNot:
		if c.Condition == nil {
			return false, fmt.Errorf("%w: not without condition", ErrMalformedCondition)
		}
		r, err := eval(c.Condition, env, depth+1)
		return !r, err
	case OpExists:
		if c.Left == nil || c.Left.kinds() != 1 || c.Left.Path == nil {
			return false, nil
		}
		return operandPath(*c.Left.Path, env) != nil, nil
	case OpEq, OpNotEq, OpContains, OpStartsWith:
		l, err := operand(c.Left, env, "left")
		if err != nil {
			return false, err
		}
		r, err := operand(c.Right, env, "right")
		if err != nil {
			return false, err
		}
		return compare(c.Op, l, r), nil
	}
	return false, nil
}

// compare applies a binary leaf operator to two evaluated operands (§4.2).
func compare(op string, l, r any) bool {
	switch op {
	case OpEq:
		return strictScalarEqual(l, r)
	case OpNotEq:
		return !strictScalarEqual(l, r)
	}
	ls, ok1 := comparableText(l)
	rs, ok2 := comparableText(r)
	if !ok1 || !ok2 {
		return false
	}
	if op == OpContains {
		return strings.Contains(ls, rs)
	}
	return strings.HasPrefix(ls, rs)
}

// operand evaluates a leaf operand for a condition.
func operand(v *Value, env *Envelope, side string) (any, error) {
	if v == nil || v.kinds() != 1 {
		return nil, fmt.Errorf("%w: %s is not exactly one of const/path/template", ErrMalformedCondition, side)
	}
	switch {
	case v.HasConst:
		return v.Const, nil
	case v.Template != nil:
		return RenderTemplate(*v.Template, env), nil
	}
	return operandPath(*v.Path, env), nil
}

// operandPath reads a path for a condition: missing or not whitelisted → nil.
func operandPath(p string, env *Envelope) any {
	if !PathAllowed(env.EventName, p) {
		return nil
	}
	v, _ := Resolve(env, p)
	return v
}

// strictScalarEqual is §4.2's eq: false when either side is an object
// (null included), else JavaScript ===.
func strictScalarEqual(a, b any) bool {
	switch x := a.(type) {
	case string:
		y, ok := b.(string)
		return ok && x == y
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	}
	fa, ok := toNumber(a)
	if !ok {
		return false // null, object, array (or a non-JSON value)
	}
	fb, ok := toNumber(b)
	return ok && fa == fb // NaN never equals, 0 === -0
}

// comparableText is the "comparable text" conversion of §4.2: strings as
// is, numbers and booleans via JavaScript String(), anything else none.
func comparableText(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case bool:
		if x {
			return "true", true
		}
		return "false", true
	}
	if f, ok := toNumber(v); ok {
		return JSNumber(f), true
	}
	return "", false
}
