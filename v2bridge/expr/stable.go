package expr

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/hookside/hookside/internal/jsjson"
)

// StableStringify returns the canonical JSON text of hooks-v2-handbook §8.1
// and PROTOCOL §5.1: object keys sorted (JavaScript's default sort, by UTF-16
// code units) at every depth, absent ("undefined") fields dropped, arrays in
// order, and scalars exactly as JavaScript's JSON.stringify writes them (no
// HTML escaping, U+2028/U+2029 literal, numbers per Number::toString,
// non-finite numbers as null). No whitespace.
//
// v may be decoded JSON (map[string]any, []any, string, float64, json.Number,
// bool, nil), any Go number, or any value encoding/json can marshal (structs
// go through their JSON form, so omitempty fields count as undefined). A value
// that cannot be marshalled is written as null.
func StableStringify(v any) string {
	var b bytes.Buffer
	writeStable(&b, v)
	return b.String()
}

func writeStable(b *bytes.Buffer, v any) {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case string:
		writeJSString(b, x)
	case bool:
		if x {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sortJSKeys(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSString(b, k)
			b.WriteByte(':')
			writeStable(b, x[k])
		}
		b.WriteByte('}')
	case *Object: // its own property order (JSON.stringify), not sorted
		b.WriteByte('{')
		for i, k := range x.Keys() {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSString(b, k)
			b.WriteByte(':')
			writeStable(b, x.vals[k])
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			writeStable(b, e)
		}
		b.WriteByte(']')
	case generic:
		if isNilPointer(x) {
			b.WriteString("null")
			return
		}
		writeStable(b, x.generic())
	case Value:
		writeStable(b, &x)
	case Condition:
		writeStable(b, &x)
	case Action:
		writeStable(b, &x)
	case RetryPolicy:
		writeStable(b, &x)
	default:
		if f, ok := toNumber(v); ok {
			if math.IsInf(f, 0) || math.IsNaN(f) {
				b.WriteString("null")
			} else {
				b.WriteString(JSNumber(f))
			}
			return
		}
		g, ok := toGeneric(v)
		if !ok {
			b.WriteString("null")
			return
		}
		writeStable(b, g)
	}
}

func isNilPointer(g generic) bool {
	switch p := g.(type) {
	case *Value:
		return p == nil
	case *Condition:
		return p == nil
	case *Action:
		return p == nil
	case *RetryPolicy:
		return p == nil
	}
	return false
}

// toGeneric turns any marshallable Go value into decoded JSON.
func toGeneric(v any) (any, bool) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, false
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var g any
	if err := dec.Decode(&g); err != nil {
		return nil, false
	}
	return g, true
}

// sortJSKeys sorts like Array.prototype.sort without a comparator: by UTF-16
// code units (differs from byte order for U+E000–U+FFFF against astral
// characters).
func sortJSKeys(keys []string) {
	sort.Slice(keys, func(i, j int) bool { return lessUTF16(keys[i], keys[j]) })
}

func lessUTF16(a, b string) bool {
	for a != "" && b != "" {
		ra, na := utf8.DecodeRuneInString(a)
		rb, nb := utf8.DecodeRuneInString(b)
		if ra != rb {
			ua, ub := utf16Key(ra), utf16Key(rb)
			return ua < ub
		}
		a, b = a[na:], b[nb:]
	}
	return a == "" && b != ""
}

// utf16Key maps a rune to a value ordered like its first UTF-16 code unit,
// breaking ties (two astral runes with the same high surrogate) by the rune.
func utf16Key(r rune) int64 {
	if r >= 0x10000 {
		hi, _ := utf16.EncodeRune(r)
		return int64(hi)<<21 | int64(r)
	}
	return int64(r) << 21
}

// writeJSString writes s as JSON.stringify would: escapes only '"', '\\' and
// control characters below U+0020 (\b \f \n \r \t short forms, others
// \u00xx). Invalid UTF-8 bytes become U+FFFD.
func writeJSString(b *bytes.Buffer, s string) {
	b.Write(jsjson.AppendString(b.AvailableBuffer(), s))
}

// JSNumber formats a finite float64 as JavaScript's Number::toString does
// (ECMA-262 §6.1.6.1.20): shortest round-trip digits, integers without a
// fraction, plain notation for 1e-7 < |x| < 1e21 and exponent notation
// ("1e+21", "1.5e-7") outside; -0 is "0". NaN and ±Infinity give "NaN",
// "Infinity", "-Infinity". Used by templates, contains/startsWith (§4.2, §5.2)
// and StableStringify (§8.1).
func JSNumber(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0:
		return "0"
	case f < 0:
		return "-" + JSNumber(-f)
	}
	e := strconv.FormatFloat(f, 'e', -1, 64) // d.ddddde±XX
	mant, exp, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	x, _ := strconv.Atoi(exp)
	k, n := len(digits), x+1
	switch {
	case k <= n && n <= 21:
		return digits + strings.Repeat("0", n-k)
	case 0 < n && n <= 21:
		return digits[:n] + "." + digits[n:]
	case -6 < n && n <= 0:
		return "0." + strings.Repeat("0", -n) + digits
	}
	sign := "+"
	if n-1 < 0 {
		sign = "-"
	}
	ex := strconv.Itoa(abs(n - 1))
	if k == 1 {
		return digits + "e" + sign + ex
	}
	return digits[:1] + "." + digits[1:] + "e" + sign + ex
}

func abs(i int) int {
	if i < 0 {
		return -i
	}
	return i
}

// toNumber reports v as a float64 when it is a number (any Go numeric type
// or json.Number).
func toNumber(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case float32:
		return float64(x), true
	case int:
		return float64(x), true
	case int8:
		return float64(x), true
	case int16:
		return float64(x), true
	case int32:
		return float64(x), true
	case int64:
		return float64(x), true
	case uint:
		return float64(x), true
	case uint8:
		return float64(x), true
	case uint16:
		return float64(x), true
	case uint32:
		return float64(x), true
	case uint64:
		return float64(x), true
	case json.Number:
		f, err := strconv.ParseFloat(string(x), 64)
		if err != nil {
			// Out of range: JavaScript's JSON.parse gives ±Infinity.
			if strings.HasPrefix(string(x), "-") {
				return math.Inf(-1), true
			}
			return math.Inf(1), true
		}
		return f, true
	}
	return 0, false
}

func sha256Hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// ExecutionHash returns the definition's execution hash (hooks-v2-handbook
// §8.1, PROTOCOL §5.1): lowercase hex SHA-256 of the StableStringify of
// exactly {eventName, condition, action, inputMapping, timeoutMs,
// retryPolicy, concurrencyPolicy}, computed after ApplyDefaults on a copy, an
// absent condition as null and an absent inputMapping as {}. id, name,
// description, enabled, revision and timestamps never take part. def is not
// modified.
func ExecutionHash(def *Definition) string {
	d := *def
	d.ApplyDefaults()
	var cond any
	if d.Condition != nil {
		cond = d.Condition
	}
	mapping := make(map[string]any, len(d.InputMapping))
	for k, v := range d.InputMapping {
		mapping[k] = v.generic()
	}
	return sha256Hex(StableStringify(map[string]any{
		"eventName":         d.EventName,
		"condition":         cond,
		"action":            &d.Action,
		"inputMapping":      mapping,
		"timeoutMs":         *d.TimeoutMs,
		"retryPolicy":       d.RetryPolicy,
		"concurrencyPolicy": d.ConcurrencyPolicy,
	}))
}

// IdempotencyKey returns the keyed-retry idempotency key of
// hooks-v2-handbook §10.4 and PROTOCOL §5.1: lowercase hex SHA-256 of
// StableStringify({eventId, hookId, action}). It has no attempt number, so
// every retry of a run reuses it. Whether a key is sent at all (keyed policy
// and a tool that declares keyed idempotency) is the caller's decision.
func IdempotencyKey(eventID, hookID string, action Action) string {
	return sha256Hex(StableStringify(map[string]any{
		"eventId": eventID,
		"hookId":  hookID,
		"action":  &action,
	}))
}
