package expr

import (
	"errors"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

var pathRE = regexp.MustCompile(PathPattern)

func TestPathSyntax(t *testing.T) {
	tests := []struct {
		path string
		want bool
	}{
		{"payload.message", true},
		{"workspaces.1.name", true},    // later segments may be all digits
		{"_private", true},             // first segment may start with _
		{"__proto__", true},            // the regex allows it; the whitelist rejects it
		{"constructor", true},          // same
		{"a.__proto__", true},          // same
		{"$foo", false},                // first segment must start with a letter or _
		{"1abc", false},                // first segment must not start with a digit
		{"0", false},                   // nor be a number
		{"", false},                    // at least one character
		{"payload..message", false},    // empty segment
		{"payload.", false},            // trailing dot
		{".payload", false},            // leading dot
		{"payload.message\n", false},   // $ is end of input, not before a newline
		{"payload.mess-age", false},    // no dashes
		{"payload.nachricht_ä", false}, // ASCII only
		{"payload.questions.0.title", true},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			if got := ValidPathSyntax(tt.path); got != tt.want {
				t.Fatalf("ValidPathSyntax(%q) = %v, want %v", tt.path, got, tt.want)
			}
			if re := pathRE.MatchString(tt.path); re != tt.want {
				t.Fatalf("the handbook regex says %v for %q, the test wants %v", re, tt.path, tt.want)
			}
		})
	}
}

func TestPathWhitelist(t *testing.T) {
	tests := []struct {
		name, event, path string
		want              error
	}{
		{"common_field_on_any_event", EventTurnStarted, "session.title", nil},
		{"common_whole_object", EventTurnStarted, "workspaces", nil},
		{"common_subfield_not_regular", EventTurnFailed, "session.owner", ErrPathNotAllowed},
		{"turn_started_cannot_read_payload", EventTurnStarted, "payload", ErrPathNotAllowed},
		{"turn_started_cannot_read_payload_message", EventTurnStarted, "payload.message", ErrPathNotAllowed},
		{"turn_failed_allows_payload_message", EventTurnFailed, "payload.message", nil},
		{"turn_completed_allows_payload_message", EventTurnCompleted, "payload.message", nil},
		{"turn_cancelled_allows_payload_message", EventTurnCancelled, "payload.message", nil},
		{"payload_list_is_per_event", EventResponseCommitted, "payload.message", ErrPathNotAllowed},
		{"response_final_text", EventResponseCommitted, "payload.response.finalText", nil},
		{"response_message_id", EventResponseCommitted, "payload.response.messageId", nil},
		{"response_whole_object", EventResponseCommitted, "payload.response", nil},
		{"permission_fields", EventPermissionRequested, "payload.riskLevel", nil},
		{"permission_tool_name", EventPermissionRequested, "payload.toolName", nil},
		{"question_questions_array", EventQuestionRequested, "payload.questions", nil},
		{"question_has_no_request_id_path", EventQuestionRequested, "payload.requestId", ErrPathNotAllowed},
		{"workspace_index_pattern", EventTurnStarted, "workspaces.9.name", nil},
		{"workspace_index_pattern_leading_zeros", EventTurnStarted, "workspaces.007.id", nil},
		{"workspace_index_whole_element_not_allowed", EventTurnFailed, "workspaces.0", ErrPathNotAllowed},
		{"workspace_index_other_field_not_allowed", EventTurnFailed, "workspaces.0.path", ErrPathNotAllowed},
		{"question_index_pattern_ignores_event", EventTurnStarted, "payload.questions.0.title", nil},
		{"question_index_pattern_label", EventTurnFailed, "payload.questions.3.label", nil},
		{"question_index_pattern_description", EventQuestionRequested, "payload.questions.0.description", nil},
		{"legal_prefix_unknown_child_is_not_allowed", EventTurnFailed, "payload.nil", ErrPathNotAllowed},
		{"proto_rejected_by_whitelist", EventTurnFailed, "__proto__", ErrPathNotAllowed},
		{"constructor_rejected_by_whitelist", EventTurnFailed, "constructor", ErrPathNotAllowed},
		{"dollar_rejected_by_syntax", EventTurnFailed, "$foo", ErrPathSyntax},
		{"unknown_event_has_only_common_paths", "turn.exploded", "payload.message", ErrPathNotAllowed},
		{"unknown_event_common_ok", "turn.exploded", "turn.id", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckPath(tt.event, tt.path)
			if tt.want == nil && err != nil || tt.want != nil && !errors.Is(err, tt.want) {
				t.Fatalf("CheckPath(%s, %q) = %v, want %v", tt.event, tt.path, err, tt.want)
			}
			if PathAllowed(tt.event, tt.path) != (tt.want == nil) {
				t.Fatalf("PathAllowed disagrees with CheckPath")
			}
		})
	}
}

func TestResolve(t *testing.T) {
	env := SampleEnvelope(EventQuestionRequested)
	env.Payload["extra"] = map[string]any{"n": nil, "list": []any{"a", map[string]any{"b": 2.0}}}
	noAgent := env
	noAgent.Agent = nil
	noAgent.Session.Title = ""
	noAgent.PrimaryWorkspaceID = ""
	tests := []struct {
		name      string
		env       *Envelope
		path      string
		want      any
		wantFound bool
	}{
		{"schema_version_is_number", &env, "schemaVersion", 1.0, true},
		{"event_name", &env, "eventName", EventQuestionRequested, true},
		{"session_object_passes_through", &env, "session", map[string]any{"id": "sample-session", "title": "Sample session"}, true},
		{"session_id", &env, "session.id", "sample-session", true},
		{"turn_object", &env, "turn", map[string]any{"id": "sample-turn"}, true},
		{"agent_name", &env, "agent.name", "Sample agent", true},
		{"absent_agent_is_undefined", &noAgent, "agent", nil, false},
		{"absent_agent_field_is_undefined", &noAgent, "agent.id", nil, false},
		{"absent_title_is_undefined", &noAgent, "session.title", nil, false},
		{"absent_primary_workspace_is_undefined", &noAgent, "primaryWorkspaceId", nil, false},
		{"workspaces_array", &env, "workspaces", []any{map[string]any{"id": "sample-workspace", "name": "sample-project"}}, true},
		{"workspace_by_index", &env, "workspaces.0.name", "sample-project", true},
		{"workspace_index_out_of_range", &env, "workspaces.1.name", nil, false},
		{"workspace_index_leading_zero", &env, "workspaces.00.name", nil, false},
		{"workspace_element", &env, "workspaces.0", map[string]any{"id": "sample-workspace", "name": "sample-project"}, true},
		{"payload_question_title", &env, "payload.questions.0.title", "Which option?", true},
		{"payload_null_is_found", &env, "payload.extra.n", nil, true},
		{"payload_nested_array", &env, "payload.extra.list.1.b", 2.0, true},
		{"payload_string_has_no_fields", &env, "payload.questionId.length", nil, false},
		{"scalar_has_no_fields", &env, "eventName.length", nil, false},
		{"unknown_top_level", &env, "nothing", nil, false},
		{"malformed_path", &env, "payload..x", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, found := Resolve(tt.env, tt.path)
			if found != tt.wantFound || !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("Resolve(%q) = %#v, %v; want %#v, %v", tt.path, got, found, tt.want, tt.wantFound)
			}
		})
	}
}

// TestResolveMatchesView checks the typed fast path against a plain walk of
// the generic JSON view for every whitelisted path of every sample envelope.
func TestResolveMatchesView(t *testing.T) {
	for _, ev := range Events() {
		env := SampleEnvelope(ev)
		view := env.View()
		paths := []string{"workspaces.0.id", "workspaces.0.name", "workspaces.3.id", "payload.questions.0.label", "payload.questions.1.title"}
		for p := range commonPaths {
			paths = append(paths, p)
		}
		paths = append(paths, payloadPaths[ev]...)
		for _, p := range paths {
			got, found := Resolve(&env, p)
			want, wantFound := walk(view, p)
			if found != wantFound || !reflect.DeepEqual(got, want) {
				t.Errorf("%s %s: Resolve = %#v,%v; view = %#v,%v", ev, p, got, found, want, wantFound)
			}
		}
	}
}

func TestSampleEnvelopeResolvesEveryPayloadPath(t *testing.T) {
	for _, ev := range Events() {
		env := SampleEnvelope(ev)
		if env.EventName != ev || !strings.HasPrefix(env.EventID, "hev_") {
			t.Errorf("%s: bad header %+v", ev, env)
		}
		for _, p := range payloadPaths[ev] {
			if _, ok := Resolve(&env, p); !ok {
				t.Errorf("%s: sample has no %s", ev, p)
			}
		}
	}
}

func TestSourceID(t *testing.T) {
	tests := []struct {
		name, event, turn string
		payload           map[string]any
		want              string
		ok                bool
	}{
		{"turn_started_uses_turn_id", EventTurnStarted, "t1", nil, "t1", true},
		{"turn_completed_uses_turn_id", EventTurnCompleted, "t1", nil, "t1", true},
		{"turn_failed_uses_turn_id", EventTurnFailed, "t1", map[string]any{"message": "m"}, "t1", true},
		{"turn_cancelled_uses_turn_id", EventTurnCancelled, "t1", nil, "t1", true},
		{"turn_without_id_needs_uuid", EventTurnStarted, "", nil, "", false},
		{"response_uses_message_id", EventResponseCommitted, "t1", map[string]any{"response": map[string]any{"messageId": "m1"}}, "m1", true},
		{"response_without_message_id_needs_uuid", EventResponseCommitted, "t1", map[string]any{"response": map[string]any{}}, "", false},
		{"permission_uses_request_id", EventPermissionRequested, "unknown", map[string]any{"requestId": "r1"}, "r1", true},
		{"question_uses_question_id", EventQuestionRequested, "t1", map[string]any{"questionId": "q1", "requestId": "r1"}, "q1", true},
		{"question_falls_back_to_request_id", EventQuestionRequested, "t1", map[string]any{"requestId": "r1"}, "r1", true},
		{"question_empty_question_id_falls_back", EventQuestionRequested, "t1", map[string]any{"questionId": "", "requestId": "r1"}, "r1", true},
		{"question_without_ids_needs_uuid", EventQuestionRequested, "t1", map[string]any{}, "", false},
		{"non_string_id_does_not_count", EventPermissionRequested, "t1", map[string]any{"requestId": 7.0}, "", false},
		{"unknown_event_needs_uuid", "turn.exploded", "t1", nil, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := SourceID(tt.event, tt.turn, tt.payload)
			if got != tt.want || ok != tt.ok {
				t.Fatalf("SourceID = %q,%v; want %q,%v", got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestEventID(t *testing.T) {
	// printf 'turn.failed:t1' | sha256sum
	const want = "hev_99ec6fc9844b47b2b3841f06ca83a840207dd288524ef96f711e962dd91812b0"
	if got := EventID(EventTurnFailed, "t1"); got != want {
		t.Fatalf("EventID = %s, want %s", got, want)
	}
}
