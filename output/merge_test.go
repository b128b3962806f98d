package output

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/hookside/hookside/internal/hook"
)

func strp(s string) *string { return &s }

func TestMerge(t *testing.T) {
	deny := Answer{Decision: "deny", DecisionReason: "d", Block: true, BlockReason: "d"}
	tests := []struct {
		name    string
		event   string
		answers []Answer
		check   func(t *testing.T, m Merged)
	}{
		{"no_answers_is_neutral", hook.PreToolUse, nil, func(t *testing.T, m Merged) {
			want := Merged{Event: hook.PreToolUse, Continue: true, AdditionalContext: []string{}, SystemMessages: []string{}, Runs: []Run{}}
			if !reflect.DeepEqual(m, want) {
				t.Errorf("got %+v", m)
			}
		}},
		{"deny_beats_ask_and_allow", hook.PreToolUse, []Answer{{Decision: "allow", DecisionReason: "a"}, {Decision: "ask", DecisionReason: "q"}, deny, {Decision: "allow"}}, func(t *testing.T, m Merged) {
			eqp(t, "decision", m.Decision, strp("deny"))
			eqp(t, "decisionReason", m.DecisionReason, strp("d"))
		}},
		{"ask_beats_allow", hook.PermissionRequest, []Answer{{Decision: "allow", DecisionReason: "a"}, {Decision: "ask", DecisionReason: "q"}}, func(t *testing.T, m Merged) {
			eqp(t, "decision", m.Decision, strp("ask"))
			eqp(t, "decisionReason", m.DecisionReason, strp("q"))
			if m.Blocked {
				t.Error("ask must not block")
			}
		}},
		{"decision_reason_is_first_of_winners", hook.PreToolUse, []Answer{{Decision: "deny"}, {Decision: "deny", DecisionReason: "second"}, {Decision: "deny", DecisionReason: "third"}}, func(t *testing.T, m Merged) {
			eqp(t, "decisionReason", m.DecisionReason, strp("second"))
		}},
		{"PreToolUse_deny_blocks", hook.PreToolUse, []Answer{{Decision: "allow"}, deny}, func(t *testing.T, m Merged) {
			if !m.Blocked {
				t.Error("not blocked")
			}
			eqp(t, "blockReason", m.BlockReason, strp("d"))
		}},
		{"PreToolUse_exit_2_blocks", hook.PreToolUse, []Answer{Parse(hook.PreToolUse, exit(2, "", "stop"))}, func(t *testing.T, m Merged) {
			if !m.Blocked {
				t.Error("not blocked")
			}
			eqp(t, "blockReason", m.BlockReason, strp("stop"))
			eqp(t, "decision", m.Decision, strp("deny"))
		}},
		{"PermissionRequest_deny_blocks", hook.PermissionRequest, []Answer{Parse(hook.PermissionRequest, exit(0, `{"decision":"block","reason":"r"}`, ""))}, func(t *testing.T, m Merged) {
			if !m.Blocked {
				t.Error("not blocked")
			}
		}},
		{"UserPromptSubmit_decision_block_blocks", hook.UserPromptSubmit, []Answer{{}, Parse(hook.UserPromptSubmit, exit(0, `{"decision":"block","reason":"r"}`, ""))}, func(t *testing.T, m Merged) {
			if !m.Blocked || m.Decision != nil {
				t.Errorf("blocked=%v decision=%v", m.Blocked, m.Decision)
			}
			eqp(t, "blockReason", m.BlockReason, strp("r"))
		}},
		{"UserPromptSubmit_exit_2_blocks", hook.UserPromptSubmit, []Answer{Parse(hook.UserPromptSubmit, exit(2, "", "no"))}, func(t *testing.T, m Merged) {
			if !m.Blocked {
				t.Error("not blocked")
			}
		}},
		{"block_reason_is_first_blocking", hook.UserPromptSubmit, []Answer{{Block: true}, {Block: true, BlockReason: "one"}, {Block: true, BlockReason: "two"}}, func(t *testing.T, m Merged) {
			eqp(t, "blockReason", m.BlockReason, strp("one"))
		}},
		{"PostToolUse_exit_2_does_not_block", hook.PostToolUse, []Answer{Parse(hook.PostToolUse, exit(2, "", "x"))}, func(t *testing.T, m Merged) {
			if m.Blocked || m.BlockReason != nil || len(m.AdditionalContext) != 0 {
				t.Errorf("got %+v", m)
			}
		}},
		{"PostToolUseFailure_exit_2_does_not_block", hook.PostToolUseFailure, []Answer{Parse(hook.PostToolUseFailure, exit(2, "", "x"))}, func(t *testing.T, m Merged) {
			if m.Blocked {
				t.Error("blocked")
			}
		}},
		{"SessionStart_exit_2_does_not_block", hook.SessionStart, []Answer{Parse(hook.SessionStart, exit(2, "", "x"))}, func(t *testing.T, m Merged) {
			if m.Blocked {
				t.Error("blocked")
			}
		}},
		{"Stop_never_blocks", hook.Stop, []Answer{Parse(hook.Stop, exit(2, "", "again"))}, func(t *testing.T, m Merged) {
			if m.Blocked || m.BlockReason != nil {
				t.Errorf("got %+v", m)
			}
			if !reflect.DeepEqual(m.AdditionalContext, []string{"again"}) {
				t.Errorf("context %v", m.AdditionalContext)
			}
		}},
		{"updatedInput_last_wins", hook.PreToolUse, []Answer{{UpdatedInput: json.RawMessage(`{"a":1}`)}, {UpdatedInput: json.RawMessage(`{"a":2}`)}, {}}, func(t *testing.T, m Merged) {
			if string(m.UpdatedInput) != `{"a":2}` {
				t.Errorf("updatedInput %s", m.UpdatedInput)
			}
		}},
		{"updatedInput_only_on_tool_decision_events", hook.PostToolUse, []Answer{{UpdatedInput: json.RawMessage(`{"a":1}`)}}, func(t *testing.T, m Merged) {
			if m.UpdatedInput != nil {
				t.Errorf("updatedInput %s", m.UpdatedInput)
			}
		}},
		{"context_accumulates_in_registration_order", hook.SessionStart, []Answer{{AdditionalContext: []string{"a", "b"}}, {}, {AdditionalContext: []string{"c"}}}, func(t *testing.T, m Merged) {
			if !reflect.DeepEqual(m.AdditionalContext, []string{"a", "b", "c"}) {
				t.Errorf("context %v", m.AdditionalContext)
			}
			eqp(t, "modelContext", m.ModelContext, strp("SessionStart hook additional context:\na\nb\nc"))
		}},
		{"failed_hooks_are_silent", hook.PreToolUse, []Answer{Parse(hook.PreToolUse, exit(1, `{"hookSpecificOutput":{"permissionDecision":"deny"}}`, "")), Parse(hook.PreToolUse, ProcessResult{ExitCode: -1, TimedOut: true})}, func(t *testing.T, m Merged) {
			if m.Decision != nil || m.Blocked {
				t.Errorf("got %+v", m)
			}
		}},
		{"continue_false_wins_with_first_reason", hook.PostToolUse, []Answer{{Continue: boolp(true)}, {Continue: boolp(false)}, {Continue: boolp(false), StopReason: "first"}, {Continue: boolp(false), StopReason: "second"}}, func(t *testing.T, m Merged) {
			if m.Continue {
				t.Error("continue should be false")
			}
			eqp(t, "stopReason", m.StopReason, strp("first"))
		}},
		{"continue_false_ignored_on_Stop", hook.Stop, []Answer{{Continue: boolp(false), StopReason: "x"}}, func(t *testing.T, m Merged) {
			if !m.Continue || m.StopReason != nil {
				t.Errorf("got %+v", m)
			}
		}},
		{"system_messages_collected", hook.PreToolUse, []Answer{{SystemMessage: "one"}, {SystemMessage: " "}, {SystemMessage: "two"}}, func(t *testing.T, m Merged) {
			if !reflect.DeepEqual(m.SystemMessages, []string{"one", "two"}) {
				t.Errorf("systemMessages %v", m.SystemMessages)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := Merge(tt.event, tt.answers)
			if m.Event != tt.event || m.Stop != nil || m.Runs == nil {
				t.Errorf("event=%q stop=%v runs=%v", m.Event, m.Stop, m.Runs)
			}
			tt.check(t, m)
		})
	}
}

func eqp(t *testing.T, field string, got, want *string) {
	t.Helper()
	if (got == nil) != (want == nil) || got != nil && *got != *want {
		t.Errorf("%s = %v, want %v", field, show(got), show(want))
	}
}

func show(p *string) string {
	if p == nil {
		return "<nil>"
	}
	return `"` + *p + `"`
}

func TestMergedWireShape(t *testing.T) {
	t.Run("empty_merge_has_nulls_and_empty_lists", func(t *testing.T) {
		b, err := json.Marshal(Merge(hook.PreToolUse, nil))
		if err != nil {
			t.Fatal(err)
		}
		want := `{"event":"PreToolUse","decision":null,"decisionReason":null,"blocked":false,"blockReason":null,"updatedInput":null,"additionalContext":[],"modelContext":null,"continue":true,"stopReason":null,"systemMessages":[],"runs":[]}`
		if string(b) != want {
			t.Errorf("got  %s\nwant %s", b, want)
		}
	})
	t.Run("stop_state_is_serialised_on_Stop", func(t *testing.T) {
		m := Merge(hook.Stop, nil)
		st := DecideStop(nil, m, 0, MaxStopContinuations)
		m.Stop = &st
		b, _ := json.Marshal(m)
		if !strings.Contains(string(b), `"stop":{"continueTurn":false,"continuation":null,"limit":3,"stopHookActive":false}`) {
			t.Errorf("got %s", b)
		}
	})
}

func TestDecideStop(t *testing.T) {
	ask := Parse(hook.Stop, exit(0, `{"decision":"block","reason":"run tests"}`, ""))
	askNoContext := Parse(hook.Stop, exit(0, `{"continue":true}`, ""))
	contextOnly := Parse(hook.Stop, exit(0, `{"additionalContext":"fyi"}`, ""))
	tests := []struct {
		name           string
		answers        []Answer
		granted, limit int
		want           StopState
	}{
		{"continues_when_requested_with_context_under_limit", []Answer{ask}, 0, 3,
			StopState{ContinueTurn: true, Continuation: strp("Stop hook additional context:\nrun tests"), Limit: 3}},
		{"exit_2_stderr_is_enough", []Answer{Parse(hook.Stop, exit(2, "", "lint fails"))}, 1, 3,
			StopState{ContinueTurn: true, Continuation: strp("Stop hook additional context:\nlint fails"), Limit: 3, StopHookActive: true}},
		{"continue_true_without_context_is_ignored", []Answer{askNoContext}, 0, 3,
			StopState{Limit: 3}},
		{"context_without_request_does_not_continue", []Answer{contextOnly}, 0, 3,
			StopState{Limit: 3}},
		{"request_and_context_from_different_hooks_continue", []Answer{askNoContext, contextOnly}, 0, 3,
			StopState{ContinueTurn: true, Continuation: strp("Stop hook additional context:\nfyi"), Limit: 3}},
		{"limit_reached_stops", []Answer{ask}, 3, 3,
			StopState{Limit: 3, StopHookActive: true}},
		{"stop_hook_active_after_first_continuation", []Answer{ask}, 2, 3,
			StopState{ContinueTurn: true, Continuation: strp("Stop hook additional context:\nrun tests"), Limit: 3, StopHookActive: true}},
		{"zero_limit_grants_none", []Answer{ask}, 0, 0,
			StopState{}},
		{"failed_hook_requests_nothing", []Answer{Parse(hook.Stop, exit(1, `{"decision":"block","reason":"x"}`, "x"))}, 0, 3,
			StopState{Limit: 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := DecideStop(tt.answers, Merge(hook.Stop, tt.answers), tt.granted, tt.limit)
			if got.ContinueTurn != tt.want.ContinueTurn || got.Limit != tt.want.Limit || got.StopHookActive != tt.want.StopHookActive {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
			eqp(t, "continuation", got.Continuation, tt.want.Continuation)
		})
	}
}

func TestMergeReasonNeedsADecision(t *testing.T) {
	m := Merge(hook.PreToolUse, []Answer{{Outcome: OutcomeSucceeded, DecisionReason: "no decision given"}})
	if m.Decision != nil || m.DecisionReason != nil {
		t.Errorf("decision %v reason %v: a reason without a decision is not a decision", deref(m.Decision), deref(m.DecisionReason))
	}
}

func deref(p *string) any {
	if p == nil {
		return nil
	}
	return *p
}

func TestModelContext(t *testing.T) {
	tests := []struct {
		name     string
		event    string
		contexts []string
		want     *string
	}{
		{"no_context_is_nil", hook.PreToolUse, nil, nil},
		{"blank_contexts_are_nil", hook.Stop, []string{"", " \n"}, nil},
		{"tool_events_are_numbered", hook.PreToolUse, []string{"first", "second"}, strp("[Hook additional context]\n#1 first\n#2 second")},
		{"PostToolUse_is_tool_format", hook.PostToolUse, []string{"x"}, strp("[Hook additional context]\n#1 x")},
		{"PostToolUseFailure_is_tool_format", hook.PostToolUseFailure, []string{"x"}, strp("[Hook additional context]\n#1 x")},
		{"PermissionRequest_is_tool_format", hook.PermissionRequest, []string{"x"}, strp("[Hook additional context]\n#1 x")},
		{"numbering_skips_blank_entries", hook.PreToolUse, []string{"a", " ", "b"}, strp("[Hook additional context]\n#1 a\n#2 b")},
		{"session_events_have_event_header", hook.UserPromptSubmit, []string{"a", "b"}, strp("UserPromptSubmit hook additional context:\na\nb")},
		{"SessionStart_header", hook.SessionStart, []string{"a"}, strp("SessionStart hook additional context:\na")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			eqp(t, "ModelContext", ModelContext(tt.event, tt.contexts), tt.want)
		})
	}
	t.Run("session_context_cut_to_24000_characters", func(t *testing.T) {
		got := ModelContext(hook.Stop, []string{strings.Repeat("é", 30000)})
		if n := utf8.RuneCountInString(*got); n != 24000 {
			t.Errorf("length %d runes, want 24000", n)
		}
		if !strings.HasPrefix(*got, "Stop hook additional context:\né") || !utf8.ValidString(*got) {
			t.Error("cut lost the header or split a character")
		}
	})
	t.Run("short_session_context_not_cut", func(t *testing.T) {
		s := strings.Repeat("a", 24000-len("Stop hook additional context:\n"))
		if got := ModelContext(hook.Stop, []string{s}); len(*got) != 24000 {
			t.Errorf("length %d", len(*got))
		}
	})
	t.Run("tool_context_not_cut", func(t *testing.T) {
		got := ModelContext(hook.PreToolUse, []string{strings.Repeat("a", 30000)})
		if len(*got) < 30000 {
			t.Errorf("tool context was cut to %d", len(*got))
		}
	})
}

func TestNewRun(t *testing.T) {
	r := ProcessResult{ExitCode: 2, Stderr: []byte("nope"), StdoutTruncated: true}
	a := Parse(hook.PostToolUse, r)
	got := NewRun("run_1", "hook_1", "user", 12, r, a)
	want := Run{RunID: "run_1", HookID: "hook_1", Source: "user", Outcome: OutcomeBlocked, ExitCode: intp(2), DurationMs: 12, StdoutTruncated: true, Reason: "nope"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
	b, _ := json.Marshal(NewRun("r", "h", "user", 5, ProcessResult{ExitCode: -1, TimedOut: true}, Parse(hook.Stop, ProcessResult{ExitCode: -1, TimedOut: true})))
	if string(b) != `{"runId":"r","hookId":"h","source":"user","outcome":"timed_out","exitCode":null,"durationMs":5,"stdoutTruncated":false,"stderrTruncated":false,"error":"timed out"}` {
		t.Errorf("wire: %s", b)
	}
}

// TestSparkExit2AndDecisionBlockAreOneBlock: in the spark dialect exit 2
// and decision:"block" give the same merged result on each of the four
// spark events (hooks-v2-handbook §1.3: 即视为拦截，并携带 reason): blocked
// with the reason, a deny with that reason on the tool events; in zcode a
// PostToolUse block marks the run only.
func TestSparkExit2AndDecisionBlockAreOneBlock(t *testing.T) {
	viaExit := ProcessResult{ExitCode: 2, Stderr: []byte("no: exit\n")}
	viaJSON := ProcessResult{ExitCode: 0, Stdout: []byte(`{"decision":"block","reason":"no: exit"}`)}
	for _, event := range hook.Spark.Events {
		t.Run(event, func(t *testing.T) {
			a := MergeFor(hook.Spark, event, []Answer{Parse(event, viaExit)})
			b := MergeFor(hook.Spark, event, []Answer{Parse(event, viaJSON)})
			for name, m := range map[string]Merged{"exit 2": a, "decision:block": b} {
				if !m.Blocked {
					t.Errorf("%s: not blocked", name)
				}
				eqp(t, name+" blockReason", m.BlockReason, strp("no: exit"))
				if event == hook.PreToolUse || event == hook.PostToolUse {
					eqp(t, name+" decision", m.Decision, strp("deny"))
					eqp(t, name+" decisionReason", m.DecisionReason, strp("no: exit"))
				} else if m.Decision != nil {
					t.Errorf("%s: decision %q on %s", name, *m.Decision, event)
				}
			}
			if !reflect.DeepEqual(a, b) {
				t.Errorf("exit 2 and decision:block differ:\n%+v\n%+v", a, b)
			}
		})
	}
	if m := Merge(hook.PostToolUse, []Answer{Parse(hook.PostToolUse, viaExit)}); m.Blocked || m.BlockReason != nil {
		t.Errorf("zcode PostToolUse exit 2 blocked the merged result: %+v", m)
	}
	if m := MergeFor(nil, hook.PostToolUse, []Answer{Parse(hook.PostToolUse, viaExit)}); m.Blocked {
		t.Errorf("MergeFor(nil) is not zcode: %+v", m)
	}
}
