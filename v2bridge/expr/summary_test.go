package expr

import (
	"reflect"
	"strconv"
	"strings"
	"testing"
)

func TestSensitiveKey(t *testing.T) {
	for key, want := range map[string]bool{
		"Authorization": true, "cookie": true, "Set-Cookie": true, "accessToken": true, "TOKEN": true,
		"client_secret": true, "password": true, "passphrase": true, "apiKey": true, "api_key": true,
		"X-API-Key": true, "api key": true, "credentials": true, "privateKey": true, "private_key": true,
		"message": false, "title": false, "key": false, "apikeys": true, "api__key": false, "private": false,
	} {
		if got := SensitiveKey(key); got != want {
			t.Errorf("SensitiveKey(%q) = %v, want %v", key, got, want)
		}
	}
}

func nest(levels int) any {
	var v any = "leaf"
	for range levels {
		v = map[string]any{"n": v}
	}
	return v
}

func TestSummarize(t *testing.T) {
	long := strings.Repeat("a", 600)
	big := map[string]any{}
	for i := range 70 {
		big["k"+strconv.Itoa(100+i)] = i
	}
	bigWant := map[string]any{TruncatedKey: true}
	for i := range 64 {
		bigWant["k"+strconv.Itoa(100+i)] = i
	}
	arr := make([]any, 70)
	for i := range arr {
		arr[i] = float64(i)
	}
	tests := []struct {
		name    string
		in, out any
	}{
		{"scalars_unchanged", []any{nil, true, 1.5, "s"}, []any{nil, true, 1.5, "s"}},
		{"sensitive_value_redacted_key_kept", map[string]any{"apiKey": "k", "Cookie": map[string]any{"a": 1.0}, "note": "n"},
			map[string]any{"apiKey": RedactedValue, "Cookie": RedactedValue, "note": "n"}},
		{"redaction_is_by_key_not_value", map[string]any{"note": "password=hunter2"}, map[string]any{"note": "password=hunter2"}},
		{"nested_redaction", map[string]any{"headers": map[string]any{"Authorization": "Bearer x"}},
			map[string]any{"headers": map[string]any{"Authorization": RedactedValue}}},
		{"string_cut_at_512", long, strings.Repeat("a", 512) + TruncatedSuffix},
		{"string_of_512_kept", long[:512], long[:512]},
		{"string_counts_utf16_and_keeps_pairs", strings.Repeat("a", 511) + "😀b", strings.Repeat("a", 511) + TruncatedSuffix},
		{"string_512_units_with_pair_kept", strings.Repeat("a", 510) + "😀", strings.Repeat("a", 510) + "😀"},
		{"array_cut_at_64_without_marker", arr, arr[:64]},
		{"object_cut_at_64_with_marker", big, bigWant},
		{"depth_6_kept", nest(6), nest(6)},
		{"depth_7_is_limited", nest(7), replaceLeaf(nest(7), 7)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Summarize(tt.in)
			if !reflect.DeepEqual(normalize(got), normalize(tt.out)) {
				t.Fatalf("Summarize =\n%#v\nwant\n%#v", got, tt.out)
			}
		})
	}
}

// replaceLeaf returns v with the value at the given depth replaced by the
// depth marker.
func replaceLeaf(v any, depth int) any {
	if depth == 0 {
		return DepthLimitValue
	}
	m := v.(map[string]any)
	return map[string]any{"n": replaceLeaf(m["n"], depth-1)}
}

// normalize turns Go ints into float64 so expectations can use either.
func normalize(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			out[k] = normalize(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = normalize(e)
		}
		return out
	}
	if f, ok := toNumber(v); ok {
		return f
	}
	return v
}

func TestSummarizeStructs(t *testing.T) {
	got := Summarize(map[string]any{"target": ToolTarget{SourceKind: "connector", SourceID: "s", ToolName: "t"}, "token": 1})
	want := map[string]any{"target": map[string]any{"sourceKind": "connector", "sourceId": "s", "toolName": "t"}, "token": RedactedValue}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %#v", got)
	}
}
