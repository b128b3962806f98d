// Package jsonint is the one rule for the integer fields of JSON-RPC params
// and of the values they carry (hooks/run input, V2 definitions and
// envelopes, v2/runs/list, v2/settings/update; docs/protocol.md "Integer
// fields"):
//
//   - a plain JSON integer, -?(0|[1-9][0-9]*), within the field's Range is
//     accepted;
//   - any other number (1e2, 100.0, 1E+2) is refused with NotInteger, "must
//     be an integer": JSON.stringify, which hosts write with, prints every
//     integral value below 1e21 as plain digits, so an exponent or a
//     fraction means the sender did not mean an integer;
//   - a plain integer outside the Range (beyond int64 or the field's
//     documented range: a negative count, size or limit) is refused with
//     Range.Reason, "must be an integer from 0 to 500", which names the
//     range.
//
// The caller puts the field's name in front of the reason (-32602 with
// data.field, as the other invalid-params errors).
package jsonint

import (
	"encoding/json"
	"math"
	"reflect"
	"strconv"
	"strings"
)

// NotInteger is the reason for a number that is not a plain integer.
const NotInteger = "must be an integer"

// Range is the inclusive range [Min, Max] of an integer field.
type Range struct{ Min, Max int64 }

var (
	// Int64 is the range of a field with no narrower documented range.
	Int64 = Range{math.MinInt64, math.MaxInt64}
	// Count is the range of counts, sizes and limits: 0 to the int64
	// maximum.
	Count = Range{0, math.MaxInt64}
)

// Reason is the refusal of a value outside r: "must be an integer from
// <Min> to <Max>".
func (r Range) Reason() string {
	return "must be an integer from " + strconv.FormatInt(r.Min, 10) + " to " + strconv.FormatInt(r.Max, 10)
}

// Check returns "" when v is within r, else r.Reason().
func (r Range) Check(v int64) string {
	if v < r.Min || v > r.Max {
		return r.Reason()
	}
	return ""
}

// Parse returns the value of raw, one JSON number, when it is a plain
// integer within r. Otherwise reason is NotInteger (a number that is not a
// plain integer) or r.Reason() (a plain integer outside r, however many
// digits it has). raw that is not a number at all is NotInteger too: the
// caller usually names the JSON type it found instead (IsNumber).
func (r Range) Parse(raw []byte) (v int64, reason string) {
	if !Plain(raw) {
		return 0, NotInteger
	}
	v, err := strconv.ParseInt(string(raw), 10, 64)
	if err != nil { // beyond int64
		return 0, r.Reason()
	}
	if reason := r.Check(v); reason != "" {
		return 0, reason
	}
	return v, ""
}

// Plain reports whether raw is a plain JSON integer: -?(0|[1-9][0-9]*).
func Plain(raw []byte) bool {
	s := raw
	if len(s) > 0 && s[0] == '-' {
		s = s[1:]
	}
	if len(s) == 0 || (s[0] == '0' && len(s) > 1) {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// IsNumber reports whether raw (a JSON value, not empty) is a number.
func IsNumber(raw []byte) bool {
	return len(raw) > 0 && (raw[0] == '-' || (raw[0] >= '0' && raw[0] <= '9'))
}

// TypeErrorReason is the reason for te, an encoding/json decoding error,
// when te is about an integer field (a Go integer type, or a pointer to
// one): for a number, NotInteger or r.Reason() as Parse says; for another
// JSON type, "must be an integer, not <what encoding/json found>" ("not
// string"). ok is false when te is about a field of another type.
func TypeErrorReason(te *json.UnmarshalTypeError, r Range) (reason string, ok bool) {
	if te == nil || te.Type == nil || !isInt(te.Type) {
		return "", false
	}
	lit, isNum := strings.CutPrefix(te.Value, "number ")
	if !isNum {
		return NotInteger + ", not " + te.Value, true
	}
	if _, reason := r.Parse([]byte(lit)); reason != "" {
		return reason, true
	}
	// In r but not in te.Type (an int32 field, a 32-bit int): its range.
	return typeRange(te.Type).Reason(), true
}

func isInt(t reflect.Type) bool {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return true
	}
	return false
}

// typeRange is the range of values of the integer type t, capped at int64.
func typeRange(t reflect.Type) Range {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	bits := t.Bits()
	switch t.Kind() {
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if bits >= 64 {
			return Count
		}
		return Range{0, int64(1)<<bits - 1}
	}
	if bits >= 64 {
		return Int64
	}
	return Range{-(int64(1) << (bits - 1)), int64(1)<<(bits-1) - 1}
}

// Ranged is implemented by a params type with integer fields of a
// narrower range than their Go type: IntRange gives the range of the field
// at a dotted JSON path ("limit", "retention.runDays"). Decoders use it to
// name the field's range for a value that does not even fit the Go type
// (12345678901234567890123), and the type's checks use it for the values
// that do, so both say the same.
type Ranged interface {
	IntRange(path string) (Range, bool)
}

// RangeOf is v's range for the field at path when v is Ranged and knows
// the field, else Int64.
func RangeOf(v any, path string) Range {
	if rv, ok := v.(Ranged); ok {
		if r, ok := rv.IntRange(path); ok {
			return r
		}
	}
	return Int64
}
