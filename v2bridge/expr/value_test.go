package expr

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestRenderTemplate(t *testing.T) {
	env := testEnv(map[string]any{"message": "boom"})
	tests := []struct {
		name, event, tmpl, want string
		payload                 map[string]any
	}{
		{"plain_text_unchanged", "", "no placeholders", "no placeholders", nil},
		{"placeholder_expanded", "", "failed: ${payload.message}", "failed: boom", nil},
		{"inner_path_trimmed", "", "${ payload.message }", "boom", nil},
		{"trim_is_javascript_trim", "", "${\u3000payload.message\ufeff}", "boom", nil},
		{"nel_is_not_trimmed", "", "${\u0085payload.message}", "", nil},
		{"several_placeholders", "", "${eventName}/${turn.id}", "turn.failed/sample-turn", nil},
		{"missing_value_is_empty_string", "", "[${workspaces.4.name}]", "[]", nil},
		{"null_value_is_empty_string", "", "[${payload.message}]", "[]", map[string]any{"message": nil}},
		{"number_uses_javascript_string", "", "${schemaVersion}", "1", nil},
		{"float_uses_javascript_string", "", "${payload.message}", "0.000001", map[string]any{"message": 1e-6}},
		{"small_float_exponent", "", "${payload.message}", "1e-7", map[string]any{"message": 1e-7}},
		{"boolean_stringified", "", "${payload.message}", "false", map[string]any{"message": false}},
		{"object_is_json", "", "${session}", `{"id":"sample-session","title":"Sample session"}`, nil},
		{"array_is_json", "", "${payload.message}", `[1,"<&>",null]`, map[string]any{"message": []any{1.0, "<&>", nil}}},
		{"no_escape_backslash_kept", "", `\${eventName}`, `\turn.failed`, nil},
		{"unclosed_is_literal", "", "a ${payload.message", "a ${payload.message", nil},
		{"empty_placeholder_is_literal", "", "a ${} b", "a ${} b", nil},
		{"empty_then_real", "", "${}${eventName}", "${}turn.failed", nil},
		{"nested_dollar_takes_up_to_first_brace", "", "${a${eventName}}", "}", nil},
		{"path_not_allowed_is_empty", "", "${payload.secret}", "", map[string]any{"secret": "s3"}},
		{"turn_started_cannot_read_payload", EventTurnStarted, "${payload.message}", "", nil},
		{"malformed_path_is_empty", "", "${not a path}", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := *env
			if tt.payload != nil {
				e.Payload = tt.payload
			}
			if tt.event != "" {
				e.EventName = tt.event
			}
			if got := RenderTemplate(tt.tmpl, &e); got != tt.want {
				t.Fatalf("RenderTemplate(%q) = %q, want %q", tt.tmpl, got, tt.want)
			}
		})
	}
}

func TestPlaceholders(t *testing.T) {
	got := Placeholders("${ a.b } ${} ${c} ${d")
	if want := []string{"a.b", "c"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("Placeholders = %q, want %q", got, want)
	}
}

func TestMap(t *testing.T) {
	env := SampleEnvelope(EventResponseCommitted)
	env.Payload["response"].(map[string]any)["extra"] = nil
	tests := []struct {
		name    string
		mapping map[string]Value
		want    map[string]any
		reason  string // MappingError.Reason; "" = success
	}{
		{"empty_mapping_is_empty_input", nil, map[string]any{}, ""},
		{"const_kept_with_type", map[string]Value{"n": *c(3.0), "b": *c(true), "z": *c(nil)}, map[string]any{"n": 3.0, "b": true, "z": nil}, ""},
		{"path_keeps_type", map[string]Value{"text": *path("payload.response.finalText")}, map[string]any{"text": "Sample final answer."}, ""},
		{"path_object_passes_through", map[string]Value{"ws": *path("workspaces")}, map[string]any{"ws": []any{map[string]any{"id": "sample-workspace", "name": "sample-project"}}}, ""},
		{"template_always_string", map[string]Value{"v": *tmpl("${schemaVersion}")}, map[string]any{"v": "1"}, ""},
		{"template_missing_is_empty", map[string]Value{"v": *tmpl("x${workspaces.3.id}")}, map[string]any{"v": "x"}, ""},
		{"path_not_allowed_fails", map[string]Value{"m": *path("payload.message")}, nil, "path_not_allowed"},
		{"legal_prefix_unknown_child_is_not_allowed", map[string]Value{"m": *path("payload.response.extra")}, nil, "path_not_allowed"},
		{"allowed_but_missing_fails", map[string]Value{"w": *path("workspaces.3.name")}, nil, "field_missing"},
		{"question_index_on_other_event_fails_missing", map[string]Value{"q": *path("payload.questions.0.title")}, nil, "field_missing"},
		{"invalid_value_fails", map[string]Value{"v": {}}, nil, "invalid_value"},
		{"one_failure_fails_all", map[string]Value{"a": *c("ok"), "b": *path("payload.nope")}, nil, "path_not_allowed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Map(tt.mapping, &env)
			if tt.reason == "" {
				if err != nil || !reflect.DeepEqual(got, tt.want) {
					t.Fatalf("Map = %#v, %v; want %#v", got, err, tt.want)
				}
				return
			}
			var me *MappingError
			if !errors.As(err, &me) || me.Reason != tt.reason || !errors.Is(err, ErrMappingFailed) || got != nil {
				t.Fatalf("Map = %#v, %v; want a %s mapping error", got, err, tt.reason)
			}
			if me.Param == "" || err.Error() == "" {
				t.Fatalf("error lacks the field name: %v", err)
			}
		})
	}
}

func TestMapNullValueIsPassed(t *testing.T) {
	env := testEnv(map[string]any{"message": nil})
	got, err := Map(map[string]Value{"m": *path("payload.message")}, env)
	if err != nil || !reflect.DeepEqual(got, map[string]any{"m": nil}) {
		t.Fatalf("Map = %#v, %v", got, err)
	}
}

func TestValueJSON(t *testing.T) {
	tests := []struct {
		name, in string
		kinds    int
		wantErr  bool
	}{
		{"const_null", `{"const":null}`, 1, false},
		{"const_number", `{"const":1.5}`, 1, false},
		{"path", `{"path":"turn.id"}`, 1, false},
		{"template", `{"template":"x"}`, 1, false},
		{"none", `{}`, 0, false},
		{"two", `{"const":"a","path":"turn.id"}`, 2, false},
		{"path_not_string", `{"path":1}`, 0, true},
		{"path_null", `{"path":null}`, 0, true},
		{"not_object", `"x"`, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var v Value
			err := json.Unmarshal([]byte(tt.in), &v)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v", err)
			}
			if err != nil {
				return
			}
			if v.kinds() != tt.kinds {
				t.Fatalf("kinds = %d, want %d", v.kinds(), tt.kinds)
			}
			out, _ := json.Marshal(v)
			if StableStringify(json.RawMessage(out)) != StableStringify(json.RawMessage(tt.in)) {
				t.Fatalf("round trip %s → %s", tt.in, out)
			}
		})
	}
}

func TestRenderedOutputCapped(t *testing.T) {
	env := &Envelope{EventName: "response.committed", Payload: map[string]any{"response": map[string]any{"finalText": strings.Repeat("x", 1<<20)}}}
	tmpl := strings.Repeat("${payload.response.finalText}", 200)
	_, err := Map(map[string]Value{"t": {Template: &tmpl}}, env)
	var me *MappingError
	if !errors.As(err, &me) || me.Reason != "too_large" || !strings.Contains(err.Error(), "renders to more than") {
		t.Fatalf("%v", err)
	}
	if s := RenderTemplate(tmpl, env); len(s) > MaxRenderedBytes {
		t.Fatalf("RenderTemplate gave %d bytes", len(s))
	}
	half := "${payload.response.finalText}"
	small := strings.Repeat("y", 900<<10)
	env.Payload["response"].(map[string]any)["finalText"] = small
	m := map[string]Value{}
	for _, k := range []string{"a", "b", "c", "d", "e"} {
		m[k] = Value{Template: &half}
	}
	if _, err := Map(m, env); !errors.As(err, &me) || !strings.Contains(err.Error(), "in total") {
		t.Fatalf("total: %v", err)
	}
	long := strings.Repeat("a", MaxTemplateBytes+1)
	d := &Definition{Name: "n", EventName: "turn.failed", Action: Action{Type: ActionCommand}, InputMapping: map[string]Value{"x": {Template: &long}}}
	found := false
	for _, p := range Validate(d) {
		found = found || (p.Code == CodeOutOfRange && strings.HasSuffix(p.Path, ".template"))
	}
	if !found {
		t.Fatalf("long template accepted: %v", Validate(d))
	}
}
