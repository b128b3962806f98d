package expr

import (
	"slices"
	"strings"
	"testing"

	"github.com/hookside/hookside/internal/jsonexact"
)

// a tool definition that uses every shape: condition tree, value
// expressions, action, target, inputMapping, retryPolicy; %s is spliced
// into the target.
const membersDef = `{"id":"d1","name":"n","description":"d","enabled":true,"eventName":"turn.completed",
 "condition":{"op":"and","conditions":[{"op":"exists","left":{"path":"turn.id"}},
   {"op":"not","condition":{"op":"eq","left":{"path":"turn.id"},"right":{"const":"a"}}}]},
 "action":{"type":"tool","target":{"sourceKind":"connector","sourceId":"x","toolName":"t"%s}},
 "inputMapping":{"channel":{"const":"c"},"text":{"template":"${turn.id}"}},
 "timeoutMs":15000,"retryPolicy":{"mode":"safe","maxAttempts":2,"backoffMs":0},
 "concurrencyPolicy":"parallel","revision":3,"executionHash":"h","createdAt":"c","updatedAt":"u"}`

func defWith(targetExtra string) []byte {
	return []byte(strings.Replace(membersDef, "%s", targetExtra, 1))
}

// TestUnknownMembersCorrectDefinition: a definition that uses every member
// of every shape, the read-only ones included, gets no warning, nor does a
// command hook with all its members.
func TestUnknownMembersCorrectDefinition(t *testing.T) {
	if ps := UnknownMembers(defWith(`,"version":"1.2","qualifiedName":"q"`)); ps != nil {
		t.Errorf("correct definition: %+v", ps)
	}
	cmd := `{"name":"n","eventName":"turn.completed","action":{"type":"command","hook":{"type":"process","command":"x","args":["a"],"shell":false},"title":{"const":"t"},"body":{"path":"turn.id"}}}`
	if ps := UnknownMembers([]byte(cmd)); ps != nil {
		t.Errorf("command definition: %+v", ps)
	}
}

// TestUnknownMembersAtEveryDepth: misspelt members at the top level, in the
// condition tree (nested in and/not), in value expressions, the action,
// the tool target, the command hook, inputMapping's values and retryPolicy
// are each one warning at the member's own path, naming the near miss;
// a far-off name lists the object's members instead.
func TestUnknownMembersAtEveryDepth(t *testing.T) {
	raw := `{"name":"n","eventName":"turn.completed","Description":"x","timeOutMs":1000,"hash":1,
	 "condition":{"op":"and","conditions":[{"op":"exists","left":{"path":"turn.id","tempalte":"x"}},
	   {"op":"not","condition":{"op":"eq","left":{"path":"turn.id"},"rigth":{"const":"a"}}}]},
	 "action":{"type":"tool","tilte":{"const":"x"},"target":{"sourceKind":"connector","sourceId":"x","toolName":"t","versoin":"1.2"},
	   "hook":{"type":"command","command":"x","timeoutMs":5}},
	 "inputMapping":{"channel":{"cosnt":"c"},"a.b":{"const":1,"pth":"x"}},
	 "retryPolicy":{"mode":"safe","maxAttempt":2,"backoff":1}}`
	want := map[string]string{
		"Description":                           `did you mean "description"?`,
		"timeOutMs":                             `did you mean "timeoutMs"?`,
		"hash":                                  `a definition has id, name, description`,
		"condition.conditions[0].left.tempalte": `did you mean "template"?`,
		"condition.conditions[1].condition.rigth": `did you mean "right"?`,
		"action.tilte":               `did you mean "title"?`,
		"action.target.versoin":      `did you mean "version"?`,
		"action.hook.timeoutMs":      `a command hook has type, command, args, shell`,
		"inputMapping.channel.cosnt": `did you mean "const"?`,
		"inputMapping['a.b'].pth":    `did you mean "path"?`,
		"retryPolicy.maxAttempt":     `did you mean "maxAttempts"?`,
		"retryPolicy.backoff":        `did you mean "backoffMs"?`,
	}
	ps := UnknownMembers([]byte(raw))
	got := map[string]Problem{}
	for _, p := range ps {
		got[p.Path] = p
	}
	for path, msg := range want {
		p, ok := got[path]
		switch {
		case !ok:
			t.Errorf("no warning at %s; got %+v", path, ps)
		case p.Code != CodeUnknownMember || p.Severity != SeverityWarning || !strings.Contains(p.Message, msg):
			t.Errorf("%s: %+v, want code %s, warning, message with %q", path, p, CodeUnknownMember, msg)
		case !strings.HasPrefix(p.Message, "unknown member "):
			t.Errorf("%s: message %q", path, p.Message)
		}
	}
	if len(ps) != len(want) {
		t.Errorf("%d warnings, want %d: %+v", len(ps), len(want), ps)
	}
	// Deterministic: depth first, names in order within an object.
	again := UnknownMembers([]byte(raw))
	if !slices.Equal(ps, again) {
		t.Errorf("order changed:\n%+v\n%+v", ps, again)
	}
	if ps[0].Path != "Description" || ps[len(ps)-1].Path != "timeOutMs" {
		t.Errorf("order: first %s, last %s", ps[0].Path, ps[len(ps)-1].Path)
	}
}

// TestUnknownMembersLeaveOtherProblemsAlone: a member of another kind of
// condition or action is the validator's unexpected_field, not an unknown
// member; values of the wrong type are not looked into; a const's object
// value is data, not a shape; a patch (null removing a member) and
// non-JSON give nothing.
func TestUnknownMembersLeaveOtherProblemsAlone(t *testing.T) {
	for _, raw := range []string{
		`{"condition":{"op":"eq","conditions":[],"condition":null,"left":{"const":1},"right":{"const":1}}}`,
		`{"action":{"type":"sound","target":{"sourceKind":"connector"},"hook":{"type":"process"}}}`,
		`{"condition":"yes","action":[{"bogus":1}],"inputMapping":{"x":"plain"},"retryPolicy":7}`,
		`{"condition":{"op":"eq","left":{"const":{"anything":1}},"right":{"const":[{"goes":2}]}}}`,
		`{"condition":null,"retryPolicy":null,"timeoutMs":null}`,
		`not json`, ``,
	} {
		if ps := UnknownMembers([]byte(raw)); ps != nil {
			t.Errorf("%s: %+v", raw, ps)
		}
	}
}

// TestUnknownMembersKeepTheHash: the extra members are still accepted —
// the definition decodes, validates without error — and the execution
// hash is that of the definition without them (hooks-v2-handbook §8.1),
// while the misspelt version is indeed not the version: the hash differs
// from that of the definition that spells it right.
func TestUnknownMembersKeepTheHash(t *testing.T) {
	hashOf := func(raw []byte) string {
		t.Helper()
		var d Definition
		if err := jsonexact.Unmarshal(raw, &d); err != nil {
			t.Fatalf("decode %s: %v", raw, err)
		}
		if HasErrors(Validate(&d)) {
			t.Fatalf("invalid: %+v", Validate(&d))
		}
		return ExecutionHash(&d)
	}
	plain := hashOf(defWith(""))
	typo := defWith(`,"versoin":"1.2","extra":{"x":1}`)
	if got := hashOf(typo); got != plain {
		t.Errorf("extra members changed the hash: %s vs %s", got, plain)
	}
	if hashOf(defWith(`,"version":"1.2"`)) == plain {
		t.Error("version is part of the hash")
	}
	if ps := UnknownMembers(typo); len(ps) != 2 || ps[0].Path != "action.target.extra" || ps[1].Path != "action.target.versoin" {
		t.Errorf("warnings %+v", ps)
	}
}
