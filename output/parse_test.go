package output

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/hookside/hookside/internal/hook"
)

func intp(n int) *int    { return &n }
func boolp(b bool) *bool { return &b }

func exit(code int, stdout, stderr string) ProcessResult {
	return ProcessResult{ExitCode: code, Stdout: []byte(stdout), Stderr: []byte(stderr)}
}

func TestParse(t *testing.T) {
	tests := []struct {
		name  string
		event string
		in    ProcessResult
		want  Answer
	}{
		// Outcomes.
		{"skipped_is_silent", hook.PreToolUse, ProcessResult{ExitCode: -1, Skipped: true, SkipReason: "pending_trust"},
			Answer{Outcome: OutcomeSkipped, Error: "pending_trust"}},
		{"async_has_no_answer", hook.PreToolUse, ProcessResult{ExitCode: -1, Async: true, Stdout: []byte(`{"decision":"block"}`)},
			Answer{Outcome: OutcomeStartedAsync}},
		{"spawn_error_fails_silently", hook.PreToolUse, ProcessResult{ExitCode: -1, SpawnError: "exec: \"nope\": executable file not found"},
			Answer{Outcome: OutcomeFailed, Error: "exec: \"nope\": executable file not found"}},
		{"timeout_fails_silently", hook.PreToolUse, ProcessResult{ExitCode: -1, TimedOut: true, Stdout: []byte(`{"hookSpecificOutput":{"permissionDecision":"deny"}}`)},
			Answer{Outcome: OutcomeTimedOut, Error: "timed out"}},
		{"exit_1_fails_silently", hook.PreToolUse, exit(1, `{"hookSpecificOutput":{"permissionDecision":"deny"}}`, "boom"),
			Answer{Outcome: OutcomeFailed, ExitCode: intp(1), Error: "exit code 1"}},
		{"exit_3_fails_silently", hook.UserPromptSubmit, exit(3, "context", ""),
			Answer{Outcome: OutcomeFailed, ExitCode: intp(3), Error: "exit code 3"}},
		{"signal_fails_silently", hook.Stop, exit(-1, `{"decision":"block","reason":"x"}`, ""),
			Answer{Outcome: OutcomeFailed, Error: "terminated by a signal"}},
		{"exit_0_empty_is_success", hook.PreToolUse, exit(0, "", ""),
			Answer{Outcome: OutcomeSucceeded, ExitCode: intp(0)}},

		// Exit 0 stdout.
		{"plain_text_is_context_on_SessionStart", hook.SessionStart, exit(0, "  hello\n", ""),
			Answer{Outcome: OutcomeSucceeded, ExitCode: intp(0), AdditionalContext: []string{"hello"}}},
		{"plain_text_is_context_on_UserPromptSubmit", hook.UserPromptSubmit, exit(0, "note", ""),
			Answer{Outcome: OutcomeSucceeded, ExitCode: intp(0), AdditionalContext: []string{"note"}}},
		{"plain_text_ignored_on_PreToolUse", hook.PreToolUse, exit(0, "note", ""),
			Answer{Outcome: OutcomeSucceeded, ExitCode: intp(0)}},
		{"plain_text_ignored_on_Stop", hook.Stop, exit(0, "note", ""),
			Answer{Outcome: OutcomeSucceeded, ExitCode: intp(0)}},
		{"blank_plain_text_is_no_context", hook.SessionStart, exit(0, " \n\t\u00a0", ""),
			Answer{Outcome: OutcomeSucceeded, ExitCode: intp(0)}},
		{"json_array_is_plain_text", hook.SessionStart, exit(0, `["a"]`, ""),
			Answer{Outcome: OutcomeSucceeded, ExitCode: intp(0), AdditionalContext: []string{`["a"]`}}},
		{"broken_json_is_plain_text", hook.SessionStart, exit(0, `{"a":`, ""),
			Answer{Outcome: OutcomeSucceeded, ExitCode: intp(0), AdditionalContext: []string{`{"a":`}}},
		{"json_is_trimmed_including_bom", hook.PreToolUse, exit(0, "\ufeff \n{\"decision\":\"approve\"}\n", ""),
			Answer{Outcome: OutcomeSucceeded, ExitCode: intp(0), Decision: "allow"}},

		// JSON fields.
		{"common_fields", hook.PostToolUse, exit(0, `{"continue":false,"stopReason":"halt","suppressOutput":true,"systemMessage":"hi"}`, ""),
			Answer{Outcome: OutcomeSucceeded, ExitCode: intp(0), Continue: boolp(false), StopReason: "halt", SuppressOutput: true, SystemMessage: "hi"}},
		{"permissionDecision_deny_blocks", hook.PreToolUse, exit(0, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no rm"}}`, ""),
			Answer{Outcome: OutcomeSucceeded, ExitCode: intp(0), Decision: "deny", DecisionReason: "no rm", Block: true, BlockReason: "no rm"}},
		{"permissionDecision_ask", hook.PermissionRequest, exit(0, `{"hookSpecificOutput":{"permissionDecision":"ask"}}`, ""),
			Answer{Outcome: OutcomeSucceeded, ExitCode: intp(0), Decision: "ask"}},
		{"unknown_permissionDecision_ignored", hook.PreToolUse, exit(0, `{"hookSpecificOutput":{"permissionDecision":"maybe"}}`, ""),
			Answer{Outcome: OutcomeSucceeded, ExitCode: intp(0)}},
		{"decision_approve_maps_to_allow", hook.PreToolUse, exit(0, `{"decision":"approve","reason":"ok"}`, ""),
			Answer{Outcome: OutcomeSucceeded, ExitCode: intp(0), Decision: "allow", DecisionReason: "ok"}},
		{"decision_block_maps_to_deny", hook.PermissionRequest, exit(0, `{"decision":"block","reason":"no"}`, ""),
			Answer{Outcome: OutcomeSucceeded, ExitCode: intp(0), Decision: "deny", DecisionReason: "no", Block: true, BlockReason: "no"}},
		{"permissionDecision_wins_over_decision", hook.PreToolUse, exit(0, `{"decision":"block","reason":"r","hookSpecificOutput":{"permissionDecision":"allow"}}`, ""),
			Answer{Outcome: OutcomeSucceeded, ExitCode: intp(0), Decision: "allow", DecisionReason: "r"}},
		{"decision_ignored_on_PostToolUse", hook.PostToolUse, exit(0, `{"hookSpecificOutput":{"permissionDecision":"deny"}}`, ""),
			Answer{Outcome: OutcomeSucceeded, ExitCode: intp(0)}},
		{"decision_block_on_UserPromptSubmit_blocks", hook.UserPromptSubmit, exit(0, `{"decision":"block","reason":"secret in prompt"}`, ""),
			Answer{Outcome: OutcomeSucceeded, ExitCode: intp(0), Block: true, BlockReason: "secret in prompt"}},
		{"updatedInput_object_kept", hook.PreToolUse, exit(0, `{"hookSpecificOutput":{"updatedInput":{"command":"ls"}}}`, ""),
			Answer{Outcome: OutcomeSucceeded, ExitCode: intp(0), UpdatedInput: json.RawMessage(`{"command":"ls"}`)}},
		{"updatedInput_non_object_ignored", hook.PreToolUse, exit(0, `{"hookSpecificOutput":{"updatedInput":"ls"}}`, ""),
			Answer{Outcome: OutcomeSucceeded, ExitCode: intp(0)}},
		{"updatedInput_ignored_on_PostToolUse", hook.PostToolUse, exit(0, `{"hookSpecificOutput":{"updatedInput":{"a":1}}}`, ""),
			Answer{Outcome: OutcomeSucceeded, ExitCode: intp(0)}},
		{"hookSpecificOutput_context_before_top_level", hook.PostToolUse, exit(0, `{"additionalContext":"top","hookSpecificOutput":{"additionalContext":"hso"}}`, ""),
			Answer{Outcome: OutcomeSucceeded, ExitCode: intp(0), AdditionalContext: []string{"hso", "top"}}},
		{"hookSpecificOutput_without_event_name_accepted", hook.SessionStart, exit(0, `{"hookSpecificOutput":{"additionalContext":"c"}}`, ""),
			Answer{Outcome: OutcomeSucceeded, ExitCode: intp(0), AdditionalContext: []string{"c"}}},
		{"hookSpecificOutput_for_other_event_ignored", hook.PreToolUse, exit(0, `{"hookSpecificOutput":{"hookEventName":"PostToolUse","permissionDecision":"deny","additionalContext":"c"}}`, ""),
			Answer{Outcome: OutcomeSucceeded, ExitCode: intp(0)}},
		{"unknown_fields_ignored", hook.PreToolUse, exit(0, `{"foo":1,"decision":"approve","bar":{"x":[1]}}`, ""),
			Answer{Outcome: OutcomeSucceeded, ExitCode: intp(0), Decision: "allow"}},
		{"keys_are_case_sensitive", hook.PreToolUse, exit(0, `{"Decision":"block","CONTINUE":false}`, ""),
			Answer{Outcome: OutcomeSucceeded, ExitCode: intp(0)}},
		{"wrong_field_type_ignores_only_that_field", hook.PreToolUse, exit(0, `{"continue":"no","systemMessage":42,"decision":"approve","hookSpecificOutput":"x"}`, ""),
			Answer{Outcome: OutcomeSucceeded, ExitCode: intp(0), Decision: "allow"}},
		{"null_fields_ignored", hook.PreToolUse, exit(0, `{"continue":null,"decision":null,"hookSpecificOutput":null}`, ""),
			Answer{Outcome: OutcomeSucceeded, ExitCode: intp(0)}},
		{"escaped_strings_decoded", hook.SessionStart, exit(0, `{"additionalContext":"a\n\u00e9\"b"}`, ""),
			Answer{Outcome: OutcomeSucceeded, ExitCode: intp(0), AdditionalContext: []string{"a\né\"b"}}},
		{"blank_context_dropped", hook.SessionStart, exit(0, `{"additionalContext":"  "}`, ""),
			Answer{Outcome: OutcomeSucceeded, ExitCode: intp(0)}},

		{"duplicate_keys_last_wins", hook.PreToolUse, exit(0, `{"decision":"block","decision":"approve"}`, ""),
			Answer{Outcome: OutcomeSucceeded, ExitCode: intp(0), Decision: "allow"}},
		{"escaped_key_is_decoded", hook.PreToolUse, exit(0, `{"\u0064ecision":"approve"}`, ""),
			Answer{Outcome: OutcomeSucceeded, ExitCode: intp(0), Decision: "allow"}},
		{"nested_values_are_skipped", hook.PreToolUse, exit(0, `{"x":{"decision":"block","y":[1,"}",{"z":"\"}]"}]},"n":-1.5e3,"t":true,"decision":"approve"}`, ""),
			Answer{Outcome: OutcomeSucceeded, ExitCode: intp(0), Decision: "allow"}},
		{"whitespace_between_tokens", hook.PreToolUse, exit(0, "{ \"decision\" :\n\t\"approve\" , \"reason\" : \"ok\" }", ""),
			Answer{Outcome: OutcomeSucceeded, ExitCode: intp(0), Decision: "allow", DecisionReason: "ok"}},
		{"empty_object_is_an_empty_answer", hook.SessionStart, exit(0, "{}", ""),
			Answer{Outcome: OutcomeSucceeded, ExitCode: intp(0)}},

		// Exit 2.
		{"exit_2_reason_is_stderr", hook.UserPromptSubmit, exit(2, "", "  no secrets\n"),
			Answer{Outcome: OutcomeBlocked, ExitCode: intp(2), Block: true, BlockReason: "no secrets"}},
		{"exit_2_reason_prefers_json_reason", hook.UserPromptSubmit, exit(2, `{"reason":"json reason"}`, "stderr reason"),
			Answer{Outcome: OutcomeBlocked, ExitCode: intp(2), Block: true, BlockReason: "json reason"}},
		{"exit_2_ignores_other_json_fields", hook.UserPromptSubmit, exit(2, `{"additionalContext":"c","systemMessage":"m"}`, "r"),
			Answer{Outcome: OutcomeBlocked, ExitCode: intp(2), Block: true, BlockReason: "r"}},
		{"exit_2_on_PreToolUse_denies", hook.PreToolUse, exit(2, "", "dangerous"),
			Answer{Outcome: OutcomeBlocked, ExitCode: intp(2), Block: true, BlockReason: "dangerous", Decision: "deny", DecisionReason: "dangerous"}},
		{"exit_2_on_PermissionRequest_denies", hook.PermissionRequest, exit(2, "", "no"),
			Answer{Outcome: OutcomeBlocked, ExitCode: intp(2), Block: true, BlockReason: "no", Decision: "deny", DecisionReason: "no"}},
		{"exit_2_on_PostToolUse_only_marks_run", hook.PostToolUse, exit(2, "", "late"),
			Answer{Outcome: OutcomeBlocked, ExitCode: intp(2), Block: true, BlockReason: "late"}},

		// Stop.
		{"Stop_exit_2_requests_continuation_with_stderr_context", hook.Stop, exit(2, "", "run the tests\n"),
			Answer{Outcome: OutcomeBlocked, ExitCode: intp(2), Block: true, BlockReason: "run the tests", ContinueRequested: true, AdditionalContext: []string{"run the tests"}}},
		{"Stop_decision_block_reason_is_context", hook.Stop, exit(0, `{"decision":"block","reason":"fix lint"}`, ""),
			Answer{Outcome: OutcomeSucceeded, ExitCode: intp(0), Block: true, BlockReason: "fix lint", ContinueRequested: true, AdditionalContext: []string{"fix lint"}}},
		{"Stop_continue_true_requests_continuation", hook.Stop, exit(0, `{"continue":true,"hookSpecificOutput":{"additionalContext":"more"}}`, ""),
			Answer{Outcome: OutcomeSucceeded, ExitCode: intp(0), Continue: boolp(true), ContinueRequested: true, AdditionalContext: []string{"more"}}},
		{"Stop_continue_false_is_no_request", hook.Stop, exit(0, `{"continue":false}`, ""),
			Answer{Outcome: OutcomeSucceeded, ExitCode: intp(0), Continue: boolp(false)}},

		// Robustness.
		{"invalid_utf8_plain_text_replaced", hook.SessionStart, exit(0, "a\xffb", ""),
			Answer{Outcome: OutcomeSucceeded, ExitCode: intp(0), AdditionalContext: []string{"a\uFFFDb"}}},
		{"invalid_utf8_in_json_string_replaced", hook.SessionStart, exit(0, "{\"additionalContext\":\"a\xffb\"}", ""),
			Answer{Outcome: OutcomeSucceeded, ExitCode: intp(0), AdditionalContext: []string{"a\uFFFDb"}}},
		{"invalid_utf8_stderr_replaced", hook.UserPromptSubmit, exit(2, "", "bad\xfe"),
			Answer{Outcome: OutcomeBlocked, ExitCode: intp(2), Block: true, BlockReason: "bad\uFFFD"}},
		{"invalid_utf8_updatedInput_replaced", hook.PreToolUse, exit(0, "{\"hookSpecificOutput\":{\"updatedInput\":{\"a\":\"\xff\"}}}", ""),
			Answer{Outcome: OutcomeSucceeded, ExitCode: intp(0), UpdatedInput: json.RawMessage("{\"a\":\"\uFFFD\"}")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Parse(tt.event, tt.in)
			got.Warnings = nil // TestParseWarnings covers them
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Parse(%s, …)\n got  %+v\n want %+v", tt.event, dump(got), dump(tt.want))
			}
		})
	}
}

func dump(a Answer) string {
	b, _ := json.Marshal(a)
	return string(b)
}

func TestParseDoesNotAliasInput(t *testing.T) {
	in := exit(0, `{"hookSpecificOutput":{"updatedInput":{"a":1}}}`, "")
	a := Parse(hook.PreToolUse, in)
	for i := range in.Stdout {
		in.Stdout[i] = 'x'
	}
	if string(a.UpdatedInput) != `{"a":1}` {
		t.Errorf("UpdatedInput aliases the stdout buffer: %s", a.UpdatedInput)
	}
}

func TestParseWarnings(t *testing.T) {
	for _, tc := range []struct{ name, stdout, want string }{
		{"permission_decision_wrong_case", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"Deny"}}`, `permissionDecision "Deny"`},
		{"hook_event_name_mismatch", `{"hookSpecificOutput":{"hookEventName":"pretooluse","permissionDecision":"deny"}}`, `"pretooluse" is not "PreToolUse"`},
		{"truncated_json", `{"hookSpecificOutput":{`, `not a JSON object`},
		{"unknown_decision", `{"decision":"deny"}`, `decision "deny"`},
		{"array_is_not_an_object", `[1,2]`, `not a JSON object`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := Parse("PreToolUse", ProcessResult{Stdout: []byte(tc.stdout)})
			if a.Outcome != OutcomeSucceeded || a.Decision != "" || len(a.Warnings) != 1 || !strings.Contains(a.Warnings[0], tc.want) {
				t.Fatalf("outcome %s decision %q warnings %q", a.Outcome, a.Decision, a.Warnings)
			}
		})
	}
	for _, ok := range []string{`{"hookSpecificOutput":{"permissionDecision":"deny"}}`, "all good", "", "1 test failed"} {
		if a := Parse("PreToolUse", ProcessResult{Stdout: []byte(ok)}); len(a.Warnings) != 0 {
			t.Fatalf("stdout %q has warnings: %q", ok, a.Warnings)
		}
	}
	all := Parse("PreToolUse", ProcessResult{Stdout: []byte(`{"decision":"nope","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"DENY"}}`)})
	if len(all.Warnings) != 2 {
		t.Fatalf("two bad fields gave warnings %q", all.Warnings)
	}
}

func TestJSONString(t *testing.T) {
	for _, tc := range []struct {
		raw  string
		want string
		ok   bool
	}{
		{`""`, "", true},
		{`"a"`, "a", true},
		{`"\u0041\n"`, "A\n", true},
		{"\"\xff\"", "\uFFFD", true},
		{`1`, "", false},
		{`"`, "", false},
		{``, "", false},
		{`null`, "", false},
	} {
		if got, ok := jsonString([]byte(tc.raw)); got != tc.want || ok != tc.ok {
			t.Errorf("jsonString(%q) = %q, %v; want %q, %v", tc.raw, got, ok, tc.want, tc.ok)
		}
	}
	for _, tc := range []struct {
		key, name string
		want      bool
	}{
		{`""`, "", true},
		{`"reason"`, "reason", true},
		{`"re\u0061son"`, "reason", true},
		{`"Reason"`, "reason", false},
		{`"`, "", false},
		{``, "", false},
	} {
		if got := keyIs([]byte(tc.key), tc.name); got != tc.want {
			t.Errorf("keyIs(%q, %q) = %v, want %v", tc.key, tc.name, got, tc.want)
		}
	}
}

// TestParseStopContinueFalseWarns: on Stop, continue:false is not read
// (PROTOCOL.md §3) and says so in Warnings; continue:true and the other
// events' continue:false give none.
func TestParseStopContinueFalseWarns(t *testing.T) {
	a := Parse("Stop", ProcessResult{Stdout: []byte(`{"continue":false,"stopReason":"enough"}`)})
	if a.Outcome != OutcomeSucceeded || a.ContinueRequested || len(a.Warnings) != 1 || !strings.Contains(a.Warnings[0], "continue:false (and stopReason) is not read on Stop") {
		t.Fatalf("outcome %s continueRequested %v warnings %q", a.Outcome, a.ContinueRequested, a.Warnings)
	}
	if m := Merge("Stop", []Answer{a}); !m.Continue || m.StopReason != nil {
		t.Fatalf("merged continue %v stopReason %v; want true, null", m.Continue, m.StopReason)
	}
	for _, c := range []struct{ event, stdout string }{{"Stop", `{"continue":true}`}, {"UserPromptSubmit", `{"continue":false,"stopReason":"x"}`}} {
		if a := Parse(c.event, ProcessResult{Stdout: []byte(c.stdout)}); len(a.Warnings) != 0 {
			t.Fatalf("%s %s: warnings %q", c.event, c.stdout, a.Warnings)
		}
	}
}
