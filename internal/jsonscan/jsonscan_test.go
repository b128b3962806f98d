package jsonscan

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzMembers: on every valid JSON object the members are exactly
// encoding/json's (raw key bytes aside), in order; nothing panics.
func FuzzMembers(f *testing.F) {
	for _, s := range []string{`{}`, ` {"a":1,"b":[1,{"c":"}"}],"d":"\"x"} `, `{"a":{"b":{}}}`, `{"a":1,}`, `{"a"`, `{"\u0061":null}`, "\t\r\n {\"a\":1}", `[1]`, ` "x"`} {
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
		if !json.Valid(b) {
			return
		}
		isObject := bytes.HasPrefix(bytes.TrimLeft(b, " \t\r\n"), []byte("{"))
		if ok != isObject {
			t.Fatalf("Object(%q) ok = %v, but it is valid JSON and an object = %v", b, ok, isObject)
		}
		if !ok {
			return
		}
		if m.Malformed() {
			t.Fatalf("valid object reported malformed: %s", b)
		}
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.Token() // {
		n := 0
		for i := 0; dec.More(); i++ {
			n++
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
		if n != len(keys) {
			t.Fatalf("%s has %d members, the walk returned %d", b, n, len(keys))
		}
	})
}
