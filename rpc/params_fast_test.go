package rpc

import (
	"reflect"
	"testing"

	"github.com/hookside/hookside/internal/jsonexact"
)

// TestHooksRunFastDecodeMatchesJsonexact: whenever decodeFast takes a
// params object, it yields what jsonexact.Unmarshal yields (members whose
// names differ from a field's only in case are unknown and ignored); the
// shapes it must leave to jsonexact (escaped names, escaped strings,
// non-string values, invalid UTF-8) are refused.
func TestHooksRunFastDecodeMatchesJsonexact(t *testing.T) {
	for _, tc := range []struct {
		raw  string
		fast bool
	}{
		{`{"sessionId":"s1","event":"PreToolUse","input":{"toolName":"Bash","toolInput":{"command":"ls"}}}`, true},
		{`{ "sessionId" : "s1" , "event":"Stop","turnId":"t1","traceId":"x","input":null }`, true},
		{`{"sessionId":"s1","event":"Stop","extra":[1,{"a":"}"}],"input":{}}`, true},
		{`{"sessionId":"a","sessionId":"b","event":"Stop"}`, true},
		{`{"sessionId":"s1","input":{"a":1},"input":{"b":2}}`, true},
		{`{}`, true},
		{`{"sessionId":"é\u00e9","event":"Stop"}`, false},
		{`{"SessionID":"s1","event":"Stop"}`, true},
		{`{"sessionid":"s1","EVENT":"Stop","Input":{"a":1}}`, true},
		{`{"sessionId":"s1","SessionId":"s2"}`, true},
		{`{"sess\u0069onId":"s1"}`, false},
		{`{"sessionId":7}`, false},
		{`{"sessionId":null,"event":"Stop"}`, false},
		{"{\"sessionId\":\"\xff\"}", false},
		{`[1]`, false},
	} {
		var fast hooksRunParams
		if got := fast.decodeFast([]byte(tc.raw)); got != tc.fast {
			t.Errorf("%s: decodeFast %v, want %v", tc.raw, got, tc.fast)
			continue
		}
		if !tc.fast {
			if !reflect.DeepEqual(fast, hooksRunParams{}) {
				t.Errorf("%s: refused but set %+v", tc.raw, fast)
			}
			continue
		}
		var slow hooksRunParams
		if err := jsonexact.Unmarshal([]byte(tc.raw), &slow); err != nil {
			t.Fatalf("%s: %v", tc.raw, err)
		}
		if !reflect.DeepEqual(fast, slow) {
			t.Errorf("%s: fast %+v, encoding/json %+v", tc.raw, fast, slow)
		}
	}
}
