package output

import (
	"bytes"
	"fmt"
	"strings"
)

// Near misses: a member of a hook's answer whose name is not one hookside
// reads at its level, but equals such a name once ASCII case is folded and
// every "_" and "-" removed (permission_decision, PermissionDecision,
// hook-specific-output, continue_, suppressoutput), is still ignored —
// member names are exact (docs/protocol.md §1) — and the answer gets a
// warning naming the member it resembles. It is looked for only at levels
// whose names hookside knows (the answer's top level, hookSpecificOutput
// for the event, a PermissionRequest's hookSpecificOutput.decision), and
// only for a member already found unknown: a well-formed answer costs no
// allocation.

// Where a near miss was found, as its warning says.
const (
	levelAnswer   = "the answer"
	levelHSO      = "hookSpecificOutput"
	levelDecision = "hookSpecificOutput.decision"
)

// answerNames are the top-level members Parse reads from an exit-0 JSON
// answer (zcode and spark), hsoNames those of its hookSpecificOutput, and
// exit2Names the one it reads on exit 2.
var (
	answerNames = map[string]bool{"continue": true, "stopReason": true, "suppressOutput": true,
		"systemMessage": true, "decision": true, "reason": true, "additionalContext": true,
		"hookSpecificOutput": true}
	hsoNames = map[string]bool{"hookEventName": true, "permissionDecision": true,
		"permissionDecisionReason": true, "updatedInput": true, "additionalContext": true}
	exit2Names = map[string]bool{"reason": true}
)

// nearMiss returns the name in known that key misspells (see above): the
// one equal to key after folding ASCII case and dropping "_" and "-" in
// both; "" when key is itself in known or resembles none. No two names of
// one level fold alike, so the answer does not depend on the map's order.
// key is a decoded member name, as a string or bytes; nearMiss does not
// allocate.
func nearMiss[K ~string | ~[]byte, V any](key K, known map[string]V) string {
	if _, ok := known[string(key)]; ok {
		return ""
	}
	for name := range known {
		if foldEqual(key, name) {
			return name
		}
	}
	return ""
}

// foldEqual reports whether a and b are equal once ASCII letters are
// lowercased and every "_" and "-" is removed. Other bytes (non-ASCII
// included) compare exactly.
func foldEqual[K ~string | ~[]byte](a K, b string) bool {
	i, j := 0, 0
	for {
		for i < len(a) && (a[i] == '_' || a[i] == '-') {
			i++
		}
		for j < len(b) && (b[j] == '_' || b[j] == '-') {
			j++
		}
		if i == len(a) || j == len(b) {
			return i == len(a) && j == len(b)
		}
		if lowerASCII(a[i]) != lowerASCII(b[j]) {
			return false
		}
		i++
		j++
	}
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// rawNearMiss is nearMiss for a raw JSON key (quotes included, escapes
// not processed, as jsonscan gives it): the member it misspells and the
// key decoded. Only a key with escapes is decoded (and allocates).
func rawNearMiss[V any](key []byte, known map[string]V) (name, decoded string) {
	if len(key) < 2 {
		return "", ""
	}
	inner := key[1 : len(key)-1]
	if bytes.IndexByte(inner, '\\') < 0 {
		if name = nearMiss(inner, known); name != "" {
			return name, string(inner)
		}
		return "", ""
	}
	s, ok := jsonString(key)
	if !ok {
		return "", ""
	}
	if name = nearMiss(s, known); name != "" {
		return name, s
	}
	return "", ""
}

// addNearMiss appends the warning for member key of level that misspells
// name to warnings: `unknown member "permission_decision" in
// hookSpecificOutput: did you mean "permissionDecision"?`. A level gets at
// most one such warning per name (the first misspelling), so an answer's
// near-miss warnings are bounded by the names hookside reads.
func addNearMiss(warnings []string, level, key, name string) []string {
	suffix := fmt.Sprintf(" in %s: did you mean %q?", level, name)
	for _, w := range warnings {
		if strings.HasPrefix(w, "unknown member ") && strings.HasSuffix(w, suffix) {
			return warnings
		}
	}
	return append(warnings, fmt.Sprintf("unknown member %q", validString(key))+suffix)
}
