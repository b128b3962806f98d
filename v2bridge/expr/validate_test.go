package expr

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/hookside/hookside/internal/hook"
)

func validDef() *Definition {
	return &Definition{
		Name: "Notify on failure", EventName: EventTurnFailed,
		Action: Action{Type: ActionNotification, Title: c("Failed"), Body: tmpl("${payload.message}")},
	}
}

func hasProblem(ps []Problem, path, code, severity string) bool {
	for _, p := range ps {
		if p.Path == path && p.Code == code && p.Severity == severity {
			return true
		}
	}
	return false
}

func TestValidate(t *testing.T) {
	long := strings.Repeat("x", 121)
	deep := leaf(OpExists, path("turn.id"), nil)
	for range MaxConditionDepth {
		deep = &Condition{Op: OpNot, Condition: deep}
	}
	seventeen := make([]*Condition, 17)
	for i := range seventeen {
		seventeen[i] = leaf(OpExists, path("turn.id"), nil)
	}
	tool := func(t ToolTarget) Action { return Action{Type: ActionTool, Target: &t} }
	tests := []struct {
		name            string
		mut             func(d *Definition)
		path, code, sev string
	}{
		{"name_required", func(d *Definition) { d.Name = "" }, "name", CodeRequired, SeverityError},
		{"name_at_most_120", func(d *Definition) { d.Name = long }, "name", CodeOutOfRange, SeverityError},
		{"name_counts_utf16_units", func(d *Definition) { d.Name = strings.Repeat("😀", 61) }, "name", CodeOutOfRange, SeverityError},
		{"description_at_most_2000", func(d *Definition) { d.Description = strings.Repeat("x", 2001) }, "description", CodeOutOfRange, SeverityError},
		{"event_must_be_known", func(d *Definition) { d.EventName = "turn.exploded" }, "eventName", CodeUnknownEvent, SeverityError},
		{"timeout_at_least_1000", func(d *Definition) { d.TimeoutMs = new(999) }, "timeoutMs", CodeOutOfRange, SeverityError},
		{"timeout_at_most_120000", func(d *Definition) { d.TimeoutMs = new(120001) }, "timeoutMs", CodeOutOfRange, SeverityError},
		{"explicit_zero_timeout_rejected", func(d *Definition) { d.TimeoutMs = new(0) }, "timeoutMs", CodeOutOfRange, SeverityError},
		{"retry_mode_enum", func(d *Definition) { d.RetryPolicy = &RetryPolicy{Mode: "always"} }, "retryPolicy.mode", CodeInvalidEnum, SeverityError},
		{"max_attempts_at_least_1", func(d *Definition) { d.RetryPolicy = &RetryPolicy{MaxAttempts: new(0)} }, "retryPolicy.maxAttempts", CodeOutOfRange, SeverityError},
		{"max_attempts_at_most_10", func(d *Definition) { d.RetryPolicy = &RetryPolicy{MaxAttempts: new(11)} }, "retryPolicy.maxAttempts", CodeOutOfRange, SeverityError},
		{"backoff_not_negative", func(d *Definition) { d.RetryPolicy = &RetryPolicy{BackoffMs: new(-1)} }, "retryPolicy.backoffMs", CodeOutOfRange, SeverityError},
		{"backoff_at_most_600000", func(d *Definition) { d.RetryPolicy = &RetryPolicy{BackoffMs: new(600001)} }, "retryPolicy.backoffMs", CodeOutOfRange, SeverityError},
		{"concurrency_enum", func(d *Definition) { d.ConcurrencyPolicy = "serial" }, "concurrencyPolicy", CodeInvalidEnum, SeverityError},
		{"action_type_required", func(d *Definition) { d.Action = Action{} }, "action.type", CodeRequired, SeverityError},
		{"action_type_enum", func(d *Definition) { d.Action = Action{Type: "webhook"} }, "action.type", CodeInvalidEnum, SeverityError},
		{"sound_takes_no_title", func(d *Definition) { d.Action = Action{Type: ActionSound, Title: c("x")} }, "action.title", CodeUnexpectedField, SeverityError},
		{"tool_needs_target", func(d *Definition) { d.Action = Action{Type: ActionTool} }, "action.target", CodeRequired, SeverityError},
		{"tool_source_kind_required", func(d *Definition) { d.Action = tool(ToolTarget{SourceID: "s", ToolName: "t"}) }, "action.target.sourceKind", CodeRequired, SeverityError},
		{"tool_source_kind_enum", func(d *Definition) { d.Action = tool(ToolTarget{SourceKind: "mcp", SourceID: "s", ToolName: "t"}) }, "action.target.sourceKind", CodeInvalidEnum, SeverityError},
		{"tool_source_id_required", func(d *Definition) { d.Action = tool(ToolTarget{SourceKind: SourceConnector, ToolName: "t"}) }, "action.target.sourceId", CodeRequired, SeverityError},
		{"tool_needs_tool_name_or_qualified_name", func(d *Definition) { d.Action = tool(ToolTarget{SourceKind: SourceConnector, SourceID: "s"}) }, "action.target.toolName", CodeRequired, SeverityError},
		{"command_needs_hook", func(d *Definition) { d.Action = Action{Type: ActionCommand} }, "action.hook", CodeRequired, SeverityError},
		{"command_hook_type_enum", func(d *Definition) {
			d.Action = Action{Type: ActionCommand, Hook: &CommandHook{Type: "shell", Command: "x"}}
		}, "action.hook.type", CodeInvalidEnum, SeverityError},
		{"command_hook_command_required", func(d *Definition) { d.Action = Action{Type: ActionCommand, Hook: &CommandHook{Type: "process"}} }, "action.hook.command", CodeRequired, SeverityError},
		{"process_hook_has_no_shell", func(d *Definition) {
			d.Action = Action{Type: ActionCommand, Hook: &CommandHook{Type: "process", Command: "x", Shell: hook.ShellOfTrue}}
		}, "action.hook.shell", CodeUnexpectedField, SeverityError},
		{"command_hook_has_no_args", func(d *Definition) {
			d.Action = Action{Type: ActionCommand, Hook: &CommandHook{Type: "command", Command: "x", Args: []string{}}}
		}, "action.hook.args", CodeUnexpectedField, SeverityError},
		{"notification_title_path_whitelisted", func(d *Definition) { d.Action.Title = path("payload.nil") }, "action.title.path", CodePathNotAllowed, SeverityError},
		{"notification_body_template_path_whitelisted", func(d *Definition) { d.Action.Body = tmpl("${payload.response.finalText}") }, "action.body.template", CodePathNotAllowed, SeverityError},
		{"value_needs_exactly_one_kind", func(d *Definition) { d.Action.Title = &Value{} }, "action.title", CodeValueNotOne, SeverityError},
		{"value_with_two_kinds", func(d *Definition) { d.Action.Title = &Value{HasConst: true, Template: new("x")} }, "action.title", CodeValueNotOne, SeverityError},
		{"const_must_be_scalar", func(d *Definition) { d.Action.Title = c([]any{1.0}) }, "action.title.const", CodeInvalidConst, SeverityError},
		{"template_at_least_one_char", func(d *Definition) { d.Action.Title = tmpl("") }, "action.title.template", CodeEmptyTemplate, SeverityError},
		{"template_placeholder_syntax", func(d *Definition) { d.Action.Title = tmpl("${$foo}") }, "action.title.template", CodeInvalidPath, SeverityError},
		{"mapping_param_name_at_least_1", func(d *Definition) { toolDef(d); d.InputMapping = map[string]Value{"": *c("x")} }, "inputMapping['']", CodeOutOfRange, SeverityError},
		{"mapping_param_name_at_most_120", func(d *Definition) { toolDef(d); d.InputMapping = map[string]Value{long: *c("x")} }, "inputMapping." + long, CodeOutOfRange, SeverityError},
		{"mapping_path_syntax", func(d *Definition) { toolDef(d); d.InputMapping = map[string]Value{"p": *path("payload..m")} }, "inputMapping.p.path", CodeInvalidPath, SeverityError},
		{"mapping_path_whitelist_per_event", func(d *Definition) { toolDef(d); d.InputMapping = map[string]Value{"p": *path("payload.requestId")} }, "inputMapping.p.path", CodePathNotAllowed, SeverityError},
		{"mapping_question_index_on_other_event_warns", func(d *Definition) {
			toolDef(d)
			d.InputMapping = map[string]Value{"p": *path("payload.questions.0.title")}
		}, "inputMapping.p.path", CodeStaticallyMissing, SeverityWarning},
		{"mapping_ignored_by_notification", func(d *Definition) { d.InputMapping = map[string]Value{"p": *c("x")} }, "inputMapping", CodeMappingIgnored, SeverityWarning},
		{"unknown_op", func(d *Definition) { d.Condition = leaf("gt", c(1.0), c(2.0)) }, "condition.op", CodeUnknownOp, SeverityError},
		{"op_required", func(d *Definition) { d.Condition = &Condition{} }, "condition.op", CodeRequired, SeverityError},
		{"and_needs_at_least_one", func(d *Definition) { d.Condition = &Condition{Op: OpAnd} }, "condition.conditions", CodeChildCount, SeverityError},
		{"or_at_most_16", func(d *Definition) { d.Condition = &Condition{Op: OpOr, Conditions: seventeen} }, "condition.conditions", CodeChildCount, SeverityError},
		{"and_null_child", func(d *Definition) { d.Condition = &Condition{Op: OpAnd, Conditions: []*Condition{nil}} }, "condition.conditions[0]", CodeRequired, SeverityError},
		{"not_needs_condition", func(d *Definition) { d.Condition = &Condition{Op: OpNot} }, "condition.condition", CodeRequired, SeverityError},
		{"depth_limit", func(d *Definition) { d.Condition = deep }, strings.TrimSuffix("condition"+strings.Repeat(".condition", MaxConditionDepth), ""), CodeTooDeep, SeverityError},
		{"leaf_needs_left", func(d *Definition) { d.Condition = &Condition{Op: OpEq, Right: c(1.0)} }, "condition.left", CodeRequired, SeverityError},
		{"eq_needs_right", func(d *Definition) { d.Condition = leaf(OpEq, path("turn.id"), nil) }, "condition.right", CodeRequired, SeverityError},
		{"leaf_with_conditions", func(d *Definition) {
			d.Condition = &Condition{Op: OpEq, Left: c(1.0), Right: c(1.0), Conditions: []*Condition{}}
		}, "condition", CodeUnexpectedField, SeverityError},
		{"composite_with_left", func(d *Definition) {
			d.Condition = &Condition{Op: OpAnd, Left: c(1.0), Conditions: []*Condition{leaf(OpExists, path("turn.id"), nil)}}
		}, "condition", CodeUnexpectedField, SeverityError},
		{"exists_needs_path_on_left", func(d *Definition) { d.Condition = leaf(OpExists, c("x"), nil) }, "condition.left", CodeExistsNeedsPath, SeverityError},
		{"exists_right_ignored", func(d *Definition) { d.Condition = leaf(OpExists, path("payload.message"), c("x")) }, "condition.right", CodeUnexpectedField, SeverityWarning},
		{"condition_path_whitelist", func(d *Definition) {
			d.Condition = leaf(OpExists, path("payload"), nil)
			d.EventName = EventTurnStarted
		}, "condition.left.path", CodePathNotAllowed, SeverityError},
		{"condition_proto_rejected", func(d *Definition) { d.Condition = leaf(OpEq, path("__proto__"), c("x")) }, "condition.left.path", CodePathNotAllowed, SeverityError},

		// Warnings: conditions that can never (or always) match by the §4.2 table.
		{"eq_null_const_never_matches", func(d *Definition) { d.Condition = leaf(OpEq, path("payload.message"), c(nil)) }, "condition", CodeNeverMatches, SeverityWarning},
		{"eq_null_const_leaf_always_false", func(d *Definition) { d.Condition = leaf(OpEq, path("payload.message"), c(nil)) }, "condition", CodeAlwaysFalse, SeverityWarning},
		{"notEq_null_const_always_true", func(d *Definition) { d.Condition = leaf(OpNotEq, path("payload.message"), c(nil)) }, "condition", CodeAlwaysTrue, SeverityWarning},
		{"eq_object_path_never_matches", func(d *Definition) { d.Condition = leaf(OpEq, path("session"), c("x")) }, "condition", CodeNeverMatches, SeverityWarning},
		{"eq_schema_version_vs_string_never_matches", func(d *Definition) { d.Condition = leaf(OpEq, path("schemaVersion"), c("1")) }, "condition", CodeNeverMatches, SeverityWarning},
		{"eq_template_vs_number_never_matches", func(d *Definition) { d.Condition = leaf(OpEq, tmpl("${payload.message}"), c(1.0)) }, "condition", CodeNeverMatches, SeverityWarning},
		{"eq_other_event_name_never_matches", func(d *Definition) { d.Condition = leaf(OpEq, path("eventName"), c(EventTurnCompleted)) }, "condition", CodeNeverMatches, SeverityWarning},
		{"contains_null_never_matches", func(d *Definition) { d.Condition = leaf(OpContains, path("payload.message"), c(nil)) }, "condition", CodeNeverMatches, SeverityWarning},
		{"startsWith_workspaces_array_never_matches", func(d *Definition) { d.Condition = leaf(OpStartsWith, path("workspaces"), c("a")) }, "condition", CodeNeverMatches, SeverityWarning},
		{"exists_question_on_other_event_never_matches", func(d *Definition) { d.Condition = leaf(OpExists, path("payload.questions.0.title"), nil) }, "condition", CodeNeverMatches, SeverityWarning},
		{"unknown_op_never_matches", func(d *Definition) { d.Condition = leaf("gt", c(1.0), c(2.0)) }, "condition", CodeNeverMatches, SeverityWarning},
		{"and_with_dead_child_never_matches", func(d *Definition) {
			d.Condition = &Condition{Op: OpAnd, Conditions: []*Condition{leaf(OpExists, path("payload.message"), nil), leaf(OpEq, c(nil), c(nil))}}
		}, "condition", CodeNeverMatches, SeverityWarning},
		{"not_of_always_true_never_matches", func(d *Definition) {
			d.Condition = &Condition{Op: OpNot, Condition: leaf(OpNotEq, path("payload.message"), c(nil))}
		}, "condition", CodeNeverMatches, SeverityWarning},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := validDef()
			tt.mut(d)
			ps := Validate(d)
			if !hasProblem(ps, tt.path, tt.code, tt.sev) {
				t.Fatalf("want %s %s at %q; got %+v", tt.sev, tt.code, tt.path, ps)
			}
			if tt.sev == SeverityError && !HasErrors(ps) {
				t.Fatalf("HasErrors = %v with %+v", HasErrors(ps), ps)
			}
		})
	}
}

func toolDef(d *Definition) {
	d.Action = Action{Type: ActionTool, Target: &ToolTarget{SourceKind: SourceCustomTool, SourceID: "s", QualifiedName: "s.t"}}
}

func TestValidateAcceptsValidDefinitions(t *testing.T) {
	tests := map[string]*Definition{
		"notification":   validDef(),
		"tool_with_hash": baseDef(),
		"sound_turn_started": {Name: "beep", EventName: EventTurnStarted, Action: Action{Type: ActionSound},
			Condition: leaf(OpEq, path("workspaces.0.name"), c("proj"))},
		"command_process": {Name: "x", EventName: EventTurnCompleted, TimeoutMs: new(120000),
			RetryPolicy:  &RetryPolicy{Mode: RetryKeyed, MaxAttempts: new(10), BackoffMs: new(0)},
			Action:       Action{Type: ActionCommand, Hook: &CommandHook{Type: "process", Command: "notify-send", Args: []string{"done"}}},
			InputMapping: map[string]Value{"msg": *path("payload.message")}},
		"command_shell": {Name: "x", EventName: EventPermissionRequested, ConcurrencyPolicy: ConcurrencyParallel,
			Action: Action{Type: ActionCommand, Hook: &CommandHook{Type: "command", Command: "echo hi", Shell: hook.ShellProgram("/bin/sh")}},
			Condition: &Condition{Op: OpOr, Conditions: []*Condition{
				leaf(OpEq, path("payload.riskLevel"), c("high-write")),
				{Op: OpNot, Condition: leaf(OpStartsWith, path("payload.toolName"), c("Read"))},
			}}},
		"question_paths": {Name: "q", EventName: EventQuestionRequested, Action: Action{Type: ActionNotification,
			Title: tmpl("${payload.questions.0.title} (${ payload.questionId })")}},
	}
	for name, d := range tests {
		t.Run(name, func(t *testing.T) {
			if ps := Validate(d); len(ps) != 0 {
				t.Fatalf("problems: %+v", ps)
			}
		})
	}
}

func TestValidateFromJSON(t *testing.T) {
	src := `{"name":"n","eventName":"turn.failed","action":{"type":"notification"},
	  "condition":{"op":"eq","left":{"path":"payload.message"},"right":{"const":null}}}`
	var d Definition
	if err := json.Unmarshal([]byte(src), &d); err != nil {
		t.Fatal(err)
	}
	ps := Validate(&d)
	if HasErrors(ps) || !hasProblem(ps, "condition", CodeNeverMatches, SeverityWarning) {
		t.Fatalf("problems: %+v", ps)
	}
}
