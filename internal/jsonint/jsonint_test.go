package jsonint

import (
	"encoding/json"
	"errors"
	"testing"
)

func TestParse(t *testing.T) {
	lim := Range{0, 500}
	for _, tc := range []struct {
		raw    string
		r      Range
		v      int64
		reason string
	}{
		{"0", lim, 0, ""},
		{"500", lim, 500, ""},
		{"-0", Int64, 0, ""},
		{"-9223372036854775808", Int64, -9223372036854775808, ""},
		{"9223372036854775807", Count, 9223372036854775807, ""},
		{"501", lim, 0, "must be an integer from 0 to 500"},
		{"-1", lim, 0, "must be an integer from 0 to 500"},
		{"-1", Count, 0, "must be an integer from 0 to 9223372036854775807"},
		{"9223372036854775808", Int64, 0, "must be an integer from -9223372036854775808 to 9223372036854775807"},
		{"12345678901234567890123", lim, 0, "must be an integer from 0 to 500"},
		{"-12345678901234567890123", Count, 0, "must be an integer from 0 to 9223372036854775807"},
		{"1e2", lim, 0, NotInteger},
		{"1E+2", lim, 0, NotInteger},
		{"100.0", lim, 0, NotInteger},
		{"0.5", lim, 0, NotInteger},
		{"-", lim, 0, NotInteger},
		{"01", lim, 0, NotInteger},
		{`"5"`, lim, 0, NotInteger},
		{"", lim, 0, NotInteger},
	} {
		v, reason := tc.r.Parse([]byte(tc.raw))
		if v != tc.v || reason != tc.reason {
			t.Errorf("Parse(%q) in %v = %d, %q; want %d, %q", tc.raw, tc.r, v, reason, tc.v, tc.reason)
		}
	}
}

func TestTypeErrorReason(t *testing.T) {
	var p struct {
		N   int    `json:"n"`
		P   *int   `json:"p"`
		B   int8   `json:"b"`
		U   uint16 `json:"u"`
		S   string `json:"s"`
		Arr []int  `json:"arr"`
	}
	for _, tc := range []struct {
		doc, reason string
		ok          bool
		r           Range
	}{
		{`{"n":1e2}`, NotInteger, true, Range{0, 500}},
		{`{"p":100.0}`, NotInteger, true, Range{0, 500}},
		{`{"n":12345678901234567890123}`, "must be an integer from 0 to 500", true, Range{0, 500}},
		{`{"b":300}`, "must be an integer from -128 to 127", true, Int64},
		{`{"u":-1}`, "must be an integer from 0 to 65535", true, Int64},
		{`{"arr":[1.5]}`, NotInteger, true, Range{0, 500}},
		{`{"n":"5"}`, "must be an integer, not string", true, Range{0, 500}},
		{`{"s":5}`, "", false, Range{0, 500}},
	} {
		err := json.Unmarshal([]byte(tc.doc), &p)
		var te *json.UnmarshalTypeError
		if !errors.As(err, &te) {
			t.Fatalf("%s: %v", tc.doc, err)
		}
		reason, ok := TypeErrorReason(te, tc.r)
		if ok != tc.ok || reason != tc.reason {
			t.Errorf("%s: %q, %v; want %q, %v", tc.doc, reason, ok, tc.reason, tc.ok)
		}
	}
}
