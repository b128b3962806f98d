package expr

import (
	"bytes"
	"encoding/json"
	"errors"
	"regexp"
	"testing"
)

// FuzzCondition decodes arbitrary JSON as a condition and checks that
// Validate and Evaluate never panic, that a condition Validate accepts
// evaluates without error, that a "never matches" warning is never wrong,
// that the JSON form round-trips to the same stable text, and that the
// re-encoded form has no unknown member (the decoder keeps only members of
// the shape, so what UnknownMembers reports is exactly what it dropped).
func FuzzCondition(f *testing.F) {
	for _, s := range []string{
		`{"op":"eq","left":{"const":null},"right":{"const":null}}`,
		`{"op":"and","conditions":[{"op":"exists","left":{"path":"payload.message"}},{"op":"not","condition":{"op":"contains","left":{"path":"session.title"},"right":{"const":1}}}]}`,
		`{"op":"or","conditions":[]}`,
		`{"op":"startsWith","left":{"template":"${ turn.id }-${payload.questions.0.title}"},"right":{"const":"t"}}`,
		`{"op":"notEq","left":{"path":"workspaces.0.id"},"right":{"path":"primaryWorkspaceId"}}`,
		`{"op":"gt","left":{"const":1}}`,
		`{"op":"not"}`,
		`{"op":"and","conditions":[{"op":"eq","left":{"path":"turn.id"},"rigth":{"const":"a"}},{"op":"not","Condition":{"op":"exists","left":{"pth":"x"}}}]}`,
	} {
		f.Add([]byte(s), uint8(0))
	}
	f.Fuzz(func(t *testing.T, data []byte, ev uint8) {
		var cond Condition
		if json.Unmarshal(data, &cond) != nil {
			return
		}
		event := Events()[int(ev)%7]
		def := &Definition{Name: "f", EventName: event, Action: Action{Type: ActionSound}, Condition: &cond}
		problems := Validate(def)
		valid := !HasErrors(problems)
		never := hasProblem(problems, "condition", CodeNeverMatches, SeverityWarning)
		ExecutionHash(def)
		for _, payload := range []map[string]any{nil, {}, {"message": nil}, {"message": []any{1.0}}, {"message": 1.0}} {
			env := SampleEnvelope(event)
			if payload != nil {
				env.Payload = payload
			}
			got, err := Evaluate(&cond, &env)
			if valid && err != nil {
				t.Fatalf("valid condition failed to evaluate: %v\n%s", err, data)
			}
			if err != nil && !errors.Is(err, ErrMalformedCondition) && !errors.Is(err, ErrConditionTooDeep) {
				t.Fatalf("unexpected error %v", err)
			}
			if valid && never && got {
				t.Fatalf("validator said never matches, but it matched on %v\n%s", payload, data)
			}
		}
		out, err := json.Marshal(&cond)
		if err != nil {
			t.Fatalf("marshal: %v", err)
		}
		for _, p := range unknownIn(shapeCondition, data) {
			if p.Code != CodeUnknownMember || p.Severity != SeverityWarning || p.Path == "" {
				t.Fatalf("unknown member problem %+v", p)
			}
		}
		if ps := unknownIn(shapeCondition, out); ps != nil {
			t.Fatalf("re-encoded %s has unknown members %+v", out, ps)
		}
		var again Condition
		if err := json.Unmarshal(out, &again); err != nil {
			t.Fatalf("re-decode %s: %v", out, err)
		}
		if StableStringify(&again) != StableStringify(&cond) || StableStringify(json.RawMessage(out)) != StableStringify(&cond) {
			t.Fatalf("round trip changed %s", out)
		}
	})
}

var placeholderRE = regexp.MustCompile(`\$\{([^}]+)\}`)

// FuzzPath checks the path checker against the handbook regex, that
// Resolve and the whitelist never panic and agree, and that RenderTemplate
// splits placeholders exactly like the handbook's /\$\{([^}]+)\}/g.
func FuzzPath(f *testing.F) {
	for _, s := range []string{"payload.message", "workspaces.01.name", "__proto__", "$foo", "a..b", "payload.questions.9.title",
		"${payload.message}", "\\${eventId}", "${}", "${ turn.id }${", "session.title\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if ValidPathSyntax(s) != pathRE.MatchString(s) {
			t.Fatalf("ValidPathSyntax(%q) disagrees with the regex", s)
		}
		for _, ev := range Events() {
			env := SampleEnvelope(ev)
			allowed := PathAllowed(ev, s)
			if (CheckPath(ev, s) == nil) != allowed {
				t.Fatalf("CheckPath disagrees with PathAllowed for %q", s)
			}
			v, found := Resolve(&env, s)
			if !ValidPathSyntax(s) && found {
				t.Fatalf("malformed path %q resolved", s)
			}
			if want, wantFound := walk(env.View(), s); ValidPathSyntax(s) && (found != wantFound || StableStringify(v) != StableStringify(want)) {
				t.Fatalf("Resolve(%q) = %v,%v; view %v,%v", s, v, found, want, wantFound)
			}
			// Reference template rendering with the handbook's regex.
			want := placeholderRE.ReplaceAllStringFunc(s, func(m string) string {
				p := JSTrim(m[2 : len(m)-1])
				if !PathAllowed(ev, p) {
					return ""
				}
				v, _ := Resolve(&env, p)
				var b bytes.Buffer
				writeText(&b, v)
				return b.String()
			})
			if got := RenderTemplate(s, &env); got != want {
				t.Fatalf("RenderTemplate(%q) = %q, regex reference %q", s, got, want)
			}
		}
	})
}
