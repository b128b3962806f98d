package jsonscan

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzMembers: on every valid JSON object the members are exactly
// encoding/json's (raw key bytes aside), in order; nothing panics.
func FuzzMembers(f *testing.F) {
	for _, s := range []string{`{}`, ` {"a":1,"b":[1,{"c":"}"}],"d":"\"x"} `, `{"a":{"b":{}}}`, `{"a":1,}`, `{"a"`, `{"\u0061":null}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, ok := Object(b)
		var keys [][]byte
		var vals [][]byte
		for ok {
			k, v, more := m.Next()
			if !more {
				break
			}
			keys, vals = append(keys, k), append(vals, v)
		}
		if !json.Valid(b) || !ok {
			return
		}
		if m.Malformed() {
			t.Fatalf("valid object reported malformed: %s", b)
		}
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.Token() // {
		for i := 0; dec.More(); i++ {
			tk, _ := dec.Token()
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				t.Fatal(err)
			}
			var k string
			if i >= len(keys) || json.Unmarshal(keys[i], &k) != nil || k != tk.(string) || !bytes.Equal(bytes.TrimSpace(vals[i]), bytes.TrimSpace(raw)) {
				t.Fatalf("member %d of %s: got %q=%q", i, b, keys, vals)
			}
		}
	})
}
