package runner

import (
	"testing"
)

func TestSubstituteArguments(t *testing.T) {
	in := []byte(`{"a":1}`)
	for _, c := range []struct{ prompt, want string }{
		{"Check $ARGUMENTS now", `Check {"a":1} now`},
		{"$ARGUMENTS and $ARGUMENTS", `{"a":1} and {"a":1}`},
		{`Costs \$1.00: $ARGUMENTS`, `Costs $1.00: {"a":1}`},
		{`literal \$ARGUMENTS here`, "literal $ARGUMENTS here\n\n" + `{"a":1}`},
		{"No placeholder.", "No placeholder.\n\n" + `{"a":1}`},
		{"$ARGUMENTSX", `{"a":1}X`},
	} {
		if got := SubstituteArguments(c.prompt, in); got != c.want {
			t.Errorf("SubstituteArguments(%q) = %q, want %q", c.prompt, got, c.want)
		}
	}
}

func TestSubstituteToolInput(t *testing.T) {
	hookIn := []byte(`{"session_id":"s1","tool_input":{"file_path":"/p/a.ts","edits":[{"n":2}]},"ok":true}`)
	for _, c := range []struct{ input, want string }{
		{`{"path":"${tool_input.file_path}"}`, `{"path":"/p/a.ts"}`},
		{`{"s":"${session_id}:${tool_input.edits.0.n}","deep":[{"x":"${ok}"}],"k":5}`, `{"deep":[{"x":"true"}],"k":5,"s":"s1:2"}`},
		{`{"missing":"[${nope.x}]","obj":"${tool_input.edits}"}`, `{"missing":"[]","obj":"[{\"n\":2}]"}`},
		{``, `{}`},
	} {
		if got := string(SubstituteToolInput([]byte(c.input), hookIn)); got != c.want {
			t.Errorf("SubstituteToolInput(%s) = %s, want %s", c.input, got, c.want)
		}
	}
}
