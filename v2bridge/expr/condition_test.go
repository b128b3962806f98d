package expr

import (
	"encoding/json"
	"errors"
	"testing"
)

// testEnv is a turn.failed envelope whose payload.message is replaced per
// test, plus extra payload fields that hold arrays and objects.
func testEnv(payload map[string]any) *Envelope {
	env := SampleEnvelope(EventTurnFailed)
	if payload != nil {
		env.Payload = payload
	}
	return &env
}

func leaf(op string, l, r *Value) *Condition { return &Condition{Op: op, Left: l, Right: r} }

var (
	c    = ConstValue
	path = PathValue
	tmpl = TemplateValue
)

// TestTruthTable has one case per row of hooks-v2-handbook §4.2, then the
// rules the table implies (missing paths, text conversion, composites).
func TestTruthTable(t *testing.T) {
	arr := map[string]any{"message": []any{1.0, 2.0}}
	obj := map[string]any{"message": map[string]any{"a": 1.0}}
	tests := []struct {
		name    string
		cond    *Condition
		payload map[string]any
		want    bool
	}{
		// The handbook's table, row by row.
		{"eq_scalars_strict_equal_numbers", leaf(OpEq, c(0.0), c(0.0)), nil, true},
		{"eq_scalars_strict_equal_booleans", leaf(OpEq, c(false), c(false)), nil, true},
		{"eq_no_coercion_string_vs_number", leaf(OpEq, c("0"), c(0.0)), nil, false},
		{"eq_no_coercion_bool_vs_number", leaf(OpEq, c(true), c(1.0)), nil, false},
		{"eq_null_null_is_false_typeof_null_is_object", leaf(OpEq, c(nil), c(nil)), nil, false},
		{"notEq_null_null_is_true", leaf(OpNotEq, c(nil), c(nil)), nil, true},
		{"eq_arrays_are_objects", leaf(OpEq, path("payload.message"), path("payload.message")), arr, false},
		{"eq_objects_are_objects", leaf(OpEq, path("payload.message"), path("payload.message")), obj, false},
		{"contains_number_is_stringified", leaf(OpContains, c("a1b"), c(1.0)), nil, true},
		{"contains_array_has_no_comparable_text", leaf(OpContains, path("payload.message"), c(1.0)), arr, false},
		{"startsWith_number_is_string_prefix", leaf(OpStartsWith, c(12.0), c(1.0)), nil, true},
		{"exists_path_with_value", leaf(OpExists, path("payload.message"), nil), nil, true},
		{"exists_missing_path", leaf(OpExists, path("agent.missing"), nil), nil, false},
		{"exists_const_left_is_false", leaf(OpExists, c("x"), nil), nil, false},
		{"unknown_operator_is_false", leaf("gt", c(2.0), c(1.0)), nil, false},

		// Rules implied by the table.
		{"eq_strings_equal", leaf(OpEq, path("payload.message"), c("Sample failure message")), nil, true},
		{"eq_strings_case_sensitive", leaf(OpEq, path("eventName"), c("Turn.Failed")), nil, false},
		{"eq_zero_equals_negative_zero", leaf(OpEq, c(0.0), c(-0.0)), nil, true},
		{"eq_json_number_equals_float", leaf(OpEq, path("payload.message"), c(1.5)), map[string]any{"message": json.Number("1.50")}, true},
		{"eq_null_const_vs_value_is_false", leaf(OpEq, path("payload.message"), c(nil)), nil, false},
		{"notEq_null_const_vs_value_is_true", leaf(OpNotEq, path("payload.message"), c(nil)), nil, true},
		{"eq_missing_path_is_false", leaf(OpEq, path("payload.message"), c("x")), map[string]any{}, false},
		{"notEq_missing_path_is_true", leaf(OpNotEq, path("payload.message"), c("x")), map[string]any{}, true},
		{"notEq_both_missing_is_true", leaf(OpNotEq, path("workspaces.5.id"), path("workspaces.6.id")), nil, true},
		{"eq_template_is_a_string", leaf(OpEq, tmpl("${schemaVersion}"), c("1")), nil, true},
		{"eq_template_never_equals_number", leaf(OpEq, tmpl("${schemaVersion}"), c(1.0)), nil, false},
		{"eq_schemaVersion_is_a_number", leaf(OpEq, path("schemaVersion"), c(1.0)), nil, true},
		{"contains_plain_substring", leaf(OpContains, path("payload.message"), c("failure")), nil, true},
		{"contains_empty_string_always_contained", leaf(OpContains, c("abc"), c("")), nil, true},
		{"contains_boolean_is_stringified", leaf(OpContains, c("is true"), c(true)), nil, true},
		{"contains_null_right_is_false", leaf(OpContains, c("null"), c(nil)), nil, false},
		{"contains_missing_left_is_false", leaf(OpContains, path("payload.message"), c("")), map[string]any{}, false},
		{"contains_object_left_is_false", leaf(OpContains, path("session"), c("id")), nil, false},
		{"contains_number_formatting_like_javascript", leaf(OpContains, c(1e21), c("e+21")), nil, true},
		{"contains_integer_float_has_no_fraction", leaf(OpEq, tmpl("${payload.message}"), c("3")), map[string]any{"message": 3.0}, true},
		{"startsWith_string_prefix", leaf(OpStartsWith, path("payload.message"), c("Sample")), nil, true},
		{"startsWith_not_prefix", leaf(OpStartsWith, path("payload.message"), c("failure")), nil, false},
		{"startsWith_missing_is_false", leaf(OpStartsWith, path("payload.message"), c("")), map[string]any{}, false},
		{"exists_null_value_is_false", leaf(OpExists, path("payload.message"), nil), map[string]any{"message": nil}, false},
		{"exists_empty_string_is_true", leaf(OpExists, path("payload.message"), nil), map[string]any{"message": ""}, true},
		{"exists_false_is_true", leaf(OpExists, path("payload.message"), nil), map[string]any{"message": false}, true},
		{"exists_out_of_range_index_is_false", leaf(OpExists, path("workspaces.9.name"), nil), nil, false},
		{"exists_template_left_is_false", leaf(OpExists, tmpl("x"), nil), nil, false},
		{"path_outside_whitelist_reads_as_null", leaf(OpExists, path("payload.nil"), nil), map[string]any{"nil": "here"}, false},
		{"index_pattern_reads_workspace", leaf(OpEq, path("workspaces.0.id"), c("sample-workspace")), nil, true},
		{"index_with_leading_zero_is_undefined", leaf(OpExists, path("workspaces.00.id"), nil), nil, false},
		{"and_all_true", &Condition{Op: OpAnd, Conditions: []*Condition{leaf(OpEq, c(1.0), c(1.0)), leaf(OpExists, path("turn.id"), nil)}}, nil, true},
		{"and_one_false", &Condition{Op: OpAnd, Conditions: []*Condition{leaf(OpEq, c(1.0), c(1.0)), leaf(OpEq, c(nil), c(nil))}}, nil, false},
		{"and_empty_is_true_like_every", &Condition{Op: OpAnd, Conditions: []*Condition{}}, nil, true},
		{"or_one_true", &Condition{Op: OpOr, Conditions: []*Condition{leaf(OpEq, c(nil), c(nil)), leaf(OpNotEq, c(nil), c(nil))}}, nil, true},
		{"or_empty_is_false_like_some", &Condition{Op: OpOr}, nil, false},
		{"not_negates", &Condition{Op: OpNot, Condition: leaf(OpEq, c(nil), c(nil))}, nil, true},
		{"and_short_circuits_before_malformed_child", &Condition{Op: OpAnd, Conditions: []*Condition{leaf(OpEq, c(1.0), c(2.0)), nil}}, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Evaluate(tt.cond, testEnv(tt.payload))
			if err != nil {
				t.Fatalf("Evaluate: %v", err)
			}
			if got != tt.want {
				t.Fatalf("Evaluate = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestEvaluateErrors(t *testing.T) {
	deep := leaf(OpExists, path("turn.id"), nil)
	for range MaxConditionDepth {
		deep = &Condition{Op: OpNot, Condition: deep}
	}
	tests := []struct {
		name string
		cond *Condition
		want error
	}{
		{"not_without_condition", &Condition{Op: OpNot}, ErrMalformedCondition},
		{"and_with_null_child", &Condition{Op: OpAnd, Conditions: []*Condition{nil}}, ErrMalformedCondition},
		{"eq_without_right", leaf(OpEq, c(1.0), nil), ErrMalformedCondition},
		{"value_with_two_kinds", leaf(OpEq, &Value{HasConst: true, Path: new("turn.id")}, c(1.0)), ErrMalformedCondition},
		{"deeper_than_limit", deep, ErrConditionTooDeep},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Evaluate(tt.cond, testEnv(nil))
			if !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
		})
	}
	if ok, err := Evaluate(nil, testEnv(nil)); !ok || err != nil {
		t.Fatalf("absent condition: %v %v, want match", ok, err)
	}
}

func TestConditionJSON(t *testing.T) {
	src := `{"op":"and","conditions":[{"op":"eq","left":{"path":"payload.message"},"right":{"const":null}},{"op":"not","condition":{"op":"exists","left":{"path":"agent.id"}}}]}`
	var cond Condition
	if err := json.Unmarshal([]byte(src), &cond); err != nil {
		t.Fatal(err)
	}
	if r := cond.Conditions[0].Right; r == nil || !r.HasConst || r.Const != nil {
		t.Fatalf("const null lost: %+v", r)
	}
	if got := StableStringify(&cond); got != StableStringify(json.RawMessage(src)) {
		t.Fatalf("round trip:\n got %s\nwant %s", got, StableStringify(json.RawMessage(src)))
	}
}

func BenchmarkEvaluate(b *testing.B) {
	env := testEnv(nil)
	cond := &Condition{Op: OpAnd, Conditions: []*Condition{
		leaf(OpEq, path("eventName"), c(EventTurnFailed)),
		leaf(OpContains, path("payload.message"), c("failure")),
		{Op: OpNot, Condition: leaf(OpStartsWith, path("workspaces.0.name"), c("tmp"))},
		leaf(OpExists, path("session.id"), nil),
	}}
	b.ReportAllocs()
	for b.Loop() {
		if ok, err := Evaluate(cond, env); !ok || err != nil {
			b.Fatal(ok, err)
		}
	}
}
