package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"
)

// Pattern matching for expected messages (README.md §"Matching").
//
// An expected value is matched against an actual value:
//   - objects are subsets: every expected key must match, extra actual keys are fine;
//   - arrays match element-wise and must have the same length, unless the
//     expected value is {"$contains": [...]};
//   - scalars must be equal (numbers compare as float64);
//   - the strings "$any" (present, any value), "$absent" (key not present) and
//     "$nullish" (absent or null) are wildcards;
//   - an object whose keys all start with "$" is an operator object; every
//     operator in it must hold (see matchOps).

// mismatch describes where an expected fragment and the actual value differ.
type mismatch struct {
	Path     string
	Expected any
	Actual   any
	Present  bool
	Reason   string
}

func (m *mismatch) Error() string {
	act := "<absent>"
	if m.Present {
		act = compact(m.Actual, 600)
	}
	s := fmt.Sprintf("at %s: expected %s, got %s", m.Path, compact(m.Expected, 600), act)
	if m.Reason != "" {
		s += " (" + m.Reason + ")"
	}
	return s
}

// compact renders v as JSON, cut to max bytes.
func compact(v any, max int) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprintf("%v", v)
	}
	s := strings.TrimRight(buf.String(), "\n")
	if len(s) > max {
		cut := max
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + fmt.Sprintf("…(%d bytes)", len(s))
	}
	return s
}

// matchValue matches exp against act. present is false when the key the
// value came from does not exist in the actual object.
func matchValue(path string, exp, act any, present bool) *mismatch {
	fail := func(reason string) *mismatch {
		return &mismatch{Path: path, Expected: exp, Actual: act, Present: present, Reason: reason}
	}
	switch e := exp.(type) {
	case string:
		switch e {
		case "$any":
			if !present {
				return fail("key missing")
			}
			return nil
		case "$absent":
			if present {
				return fail("key must be absent")
			}
			return nil
		case "$nullish":
			if present && act != nil {
				return fail("must be absent or null")
			}
			return nil
		}
		if !present {
			return fail("key missing")
		}
		if a, ok := act.(string); !ok || a != e {
			return fail("")
		}
		return nil
	case map[string]any:
		if isOpObject(e) {
			return matchOps(path, e, act, present)
		}
		if !present {
			return fail("key missing")
		}
		a, ok := act.(map[string]any)
		if !ok {
			return fail("not an object")
		}
		keys := make([]string, 0, len(e))
		for k := range e {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			av, ok := a[k]
			if m := matchValue(path+"."+k, e[k], av, ok); m != nil {
				return m
			}
		}
		return nil
	case []any:
		if !present {
			return fail("key missing")
		}
		a, ok := act.([]any)
		if !ok {
			return fail("not an array")
		}
		if len(a) != len(e) {
			return fail(fmt.Sprintf("array length %d, want %d", len(a), len(e)))
		}
		for i := range e {
			if m := matchValue(fmt.Sprintf("%s[%d]", path, i), e[i], a[i], true); m != nil {
				return m
			}
		}
		return nil
	case float64:
		if !present {
			return fail("key missing")
		}
		if a, ok := act.(float64); !ok || a != e {
			return fail("")
		}
		return nil
	case bool:
		if !present {
			return fail("key missing")
		}
		if a, ok := act.(bool); !ok || a != e {
			return fail("")
		}
		return nil
	case nil:
		if !present {
			return fail("key missing")
		}
		if act != nil {
			return fail("")
		}
		return nil
	}
	return fail(fmt.Sprintf("unsupported pattern type %T", exp))
}

func isOpObject(m map[string]any) bool {
	if len(m) == 0 {
		return false
	}
	for k := range m {
		if !strings.HasPrefix(k, "$") {
			return false
		}
	}
	return true
}

// matchOps evaluates an operator object. Operators:
//
//	$regex (Go RE2, unanchored) on strings
//	$type  "string"|"number"|"integer"|"boolean"|"object"|"array"|"null"
//	$lt $lte $gt $gte on numbers
//	$contains: array → every expected element matches a distinct actual element (any order);
//	           string → substring
//	$len: number or pattern, applied to len(array)/len(object)/rune count of string
//	$json: pattern applied to the actual string parsed as JSON
//	$not: pattern that must NOT match
//	$anyOf: [patterns], one must match
//	$eq: exact equality (no subset semantics)
func matchOps(path string, ops map[string]any, act any, present bool) *mismatch {
	fail := func(reason string) *mismatch {
		return &mismatch{Path: path, Expected: ops, Actual: act, Present: present, Reason: reason}
	}
	keys := make([]string, 0, len(ops))
	for k := range ops {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, op := range keys {
		arg := ops[op]
		if op != "$not" && op != "$anyOf" && !present {
			return fail("key missing")
		}
		switch op {
		case "$regex":
			pat, _ := arg.(string)
			re, err := regexp.Compile(pat)
			if err != nil {
				return fail("bad $regex: " + err.Error())
			}
			s, ok := act.(string)
			if !ok || !re.MatchString(s) {
				return fail("no $regex match")
			}
		case "$type":
			want, _ := arg.(string)
			if got := jsonType(act); got != want && !(want == "integer" && got == "number" && isInt(act)) {
				return fail("type is " + got)
			}
		case "$lt", "$lte", "$gt", "$gte":
			n, ok := act.(float64)
			lim, ok2 := arg.(float64)
			if !ok || !ok2 {
				return fail(op + " needs numbers")
			}
			good := map[string]bool{"$lt": n < lim, "$lte": n <= lim, "$gt": n > lim, "$gte": n >= lim}[op]
			if !good {
				return fail(fmt.Sprintf("%v %s %v is false", n, op, lim))
			}
		case "$contains":
			switch want := arg.(type) {
			case string:
				s, ok := act.(string)
				if !ok || !strings.Contains(s, want) {
					return fail("substring not found")
				}
			case []any:
				a, ok := act.([]any)
				if !ok {
					return fail("not an array")
				}
				used := make([]bool, len(a))
				for i, w := range want {
					found := false
					for j := range a {
						if !used[j] && matchValue(path, w, a[j], true) == nil {
							used[j], found = true, true
							break
						}
					}
					if !found {
						return fail(fmt.Sprintf("no element matches $contains[%d] %s", i, compact(w, 300)))
					}
				}
			default:
				return fail("$contains needs a string or an array")
			}
		case "$len":
			var n int
			switch a := act.(type) {
			case []any:
				n = len(a)
			case map[string]any:
				n = len(a)
			case string:
				n = utf8.RuneCountInString(a)
			default:
				return fail("$len of " + jsonType(act))
			}
			if m := matchValue(path+".length", arg, float64(n), true); m != nil {
				return m
			}
		case "$json":
			s, ok := act.(string)
			if !ok {
				return fail("$json needs a string")
			}
			var v any
			if err := json.Unmarshal([]byte(strings.TrimSpace(s)), &v); err != nil {
				return fail("not JSON: " + err.Error())
			}
			if m := matchValue(path+"<json>", arg, v, true); m != nil {
				return m
			}
		case "$not":
			if matchValue(path, arg, act, present) == nil {
				return fail("$not pattern matched")
			}
		case "$anyOf":
			alts, _ := arg.([]any)
			ok := false
			for _, alt := range alts {
				if matchValue(path, alt, act, present) == nil {
					ok = true
					break
				}
			}
			if !ok {
				return fail("no $anyOf alternative matched")
			}
		case "$eq":
			if !deepEqual(arg, act) {
				return fail("not exactly equal")
			}
		default:
			return fail("unknown operator " + op)
		}
	}
	return nil
}

func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case float64:
		return "number"
	case bool:
		return "boolean"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

func isInt(v any) bool {
	f, ok := v.(float64)
	return ok && f == math.Trunc(f)
}

func deepEqual(a, b any) bool {
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(ja, jb)
}
