package output

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/hookside/hookside/internal/hook"
)

func TestNearMiss(t *testing.T) {
	for _, tc := range []struct {
		name, key string
		known     map[string]bool
		want      string
	}{
		{"snake_case_is_a_near_miss", "permission_decision", hsoNames, "permissionDecision"},
		{"pascal_case_is_a_near_miss", "PermissionDecision", hsoNames, "permissionDecision"},
		{"kebab_case_is_a_near_miss", "hook-specific-output", answerNames, "hookSpecificOutput"},
		{"trailing_underscore_is_a_near_miss", "continue_", answerNames, "continue"},
		{"lower_case_is_a_near_miss", "suppressoutput", answerNames, "suppressOutput"},
		{"upper_snake_is_a_near_miss", "PERMISSION_DECISION_REASON", hsoNames, "permissionDecisionReason"},
		{"separators_anywhere", "_u-p_d-a_t-e_d_input_", hsoNames, "updatedInput"},
		{"exact_name_is_known_not_a_miss", "permissionDecision", hsoNames, ""},
		{"a_name_no_level_has_is_not_a_miss", "decision_reason", answerNames, ""},
		{"decision_reason_is_not_permission_decision_reason", "decision_reason", hsoNames, ""},
		{"other_level_names_do_not_count", "permission_decision", answerNames, ""},
		{"an_extra_letter_is_not_a_miss", "permissionDecisions", hsoNames, ""},
		{"a_dropped_letter_is_not_a_miss", "permisionDecision", hsoNames, ""},
		{"only_separators_is_not_a_miss", "_-_", answerNames, ""},
		{"empty_is_not_a_miss", "", answerNames, ""},
		{"non_ascii_case_is_not_folded", "\u212Aeason", exit2Names, ""}, // KELVIN SIGN, lowercases to k in Unicode
		{"other_separators_are_not_dropped", "stop.reason", answerNames, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := nearMiss(tc.key, tc.known); got != tc.want {
				t.Fatalf("nearMiss(%q) = %q, want %q", tc.key, got, tc.want)
			}
			if got := nearMiss([]byte(tc.key), tc.known); got != tc.want {
				t.Fatalf("nearMiss([]byte %q) = %q, want %q", tc.key, got, tc.want)
			}
		})
	}
}

// TestNearMissLevelsFoldApart: no two names of one level fold alike, so
// nearMiss's answer is the same whatever the map's order.
func TestNearMissLevelsFoldApart(t *testing.T) {
	levels := map[string][]string{
		"answer": slices.Collect(maps.Keys(answerNames)), "hso": slices.Collect(maps.Keys(hsoNames)),
		"exit2":       slices.Collect(maps.Keys(exit2Names)),
		"claude top":  append(slices.Collect(maps.Keys(claudeTopFields)), slices.Collect(maps.Keys(claudePromptTopFields))...),
		"claude dec.": slices.Collect(maps.Keys(claudeDecisionFields)),
	}
	for e, m := range claudeHSOFields {
		levels["claude hso "+e] = append(slices.Collect(maps.Keys(m)), "hookEventName")
	}
	for level, names := range levels {
		for i, a := range names {
			for _, b := range names[i+1:] {
				if foldEqual(a, b) {
					t.Errorf("%s: %q and %q fold alike", level, a, b)
				}
			}
		}
	}
}

func TestParseNearMiss(t *testing.T) {
	for _, tc := range []struct {
		name, event, stdout string
		code                int
		want                []string
	}{
		{"hso_member", hook.PreToolUse, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permission_decision":"deny"}}`, 0,
			[]string{`unknown member "permission_decision" in hookSpecificOutput: did you mean "permissionDecision"?`}},
		{"hso_pascal_case", hook.PreToolUse, `{"hookSpecificOutput":{"PermissionDecision":"deny","permissionDecision_reason":"x"}}`, 0,
			[]string{`unknown member "PermissionDecision" in hookSpecificOutput: did you mean "permissionDecision"?`,
				`unknown member "permissionDecision_reason" in hookSpecificOutput: did you mean "permissionDecisionReason"?`}},
		{"top_level_members", hook.Stop, `{"continue_":true,"suppressoutput":true,"hook-specific-output":{}}`, 0,
			[]string{`unknown member "continue_" in the answer: did you mean "continue"?`,
				`unknown member "suppressoutput" in the answer: did you mean "suppressOutput"?`,
				`unknown member "hook-specific-output" in the answer: did you mean "hookSpecificOutput"?`}},
		{"escaped_key", hook.PreToolUse, `{"Decisio\u006e":"block"}`, 0,
			[]string{`unknown member "Decision" in the answer: did you mean "decision"?`}},
		{"one_warning_per_name", hook.PreToolUse, `{"Reason":"a","REASON":"b","Reason":"c"}`, 0,
			[]string{`duplicate member "Reason" in the answer: the name appears twice in one object; the last value is used`, `unknown member "Reason" in the answer: did you mean "reason"?`}},
		{"exit2_reason", hook.PreToolUse, `{"Reason":"not read","decision_":"x"}`, 2,
			[]string{`unknown member "Reason" in the answer: did you mean "reason"?`}},
		{"hso_of_another_event_says_nothing_of_its_members", hook.PreToolUse, `{"hookSpecificOutput":{"hookEventName":"PostToolUse","permission_decision":"deny"}}`, 0,
			[]string{`hookSpecificOutput.hookEventName "PostToolUse" is not "PreToolUse": hookSpecificOutput ignored`}},
		{"unknown_but_not_near_is_silent", hook.PreToolUse, `{"decision_reason":"x","myField":1,"hookSpecificOutput":{"extra":true}}`, 0, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := Parse(tc.event, exit(tc.code, tc.stdout, "err"))
			if !slices.Equal(a.Warnings, tc.want) {
				t.Fatalf("warnings\n%q\nwant\n%q", a.Warnings, tc.want)
			}
			if tc.code == 0 && (a.Decision != "" || a.Block || a.Continue != nil || a.SuppressOutput) {
				t.Fatalf("a misspelt member was honoured: %s", dump(a))
			}
			if tc.code == 2 && a.BlockReason != "err" {
				t.Fatalf("exit 2 reason %q, want stderr", a.BlockReason)
			}
		})
	}
}

func TestClaudeNearMiss(t *testing.T) {
	for _, tc := range []struct {
		name, event, stdout string
		want                []string
	}{
		{"hso_member", hook.PreToolUse, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permission_decision":"deny","permissionDecisionReason":"r"}}`,
			[]string{`unknown member "permission_decision" in hookSpecificOutput: did you mean "permissionDecision"?`}},
		{"hso_event_name", hook.PreToolUse, `{"hookSpecificOutput":{"hook_event_name":"PreToolUse","Permission_Decision":"deny"}}`,
			[]string{`unknown member "hook_event_name" in hookSpecificOutput: did you mean "hookEventName"?`,
				`unknown member "Permission_Decision" in hookSpecificOutput: did you mean "permissionDecision"?`}},
		{"top_level_in_name_order", hook.PreToolUse, `{"suppressoutput":true,"continue_":false,"hook-specific-output":{"permissionDecision":"deny"}}`,
			[]string{`unknown member "continue_" in the answer: did you mean "continue"?`,
				`unknown member "hook-specific-output" in the answer: did you mean "hookSpecificOutput"?`,
				`unknown member "suppressoutput" in the answer: did you mean "suppressOutput"?`}},
		{"hso_names_are_per_event", hook.PostToolUse, `{"hookSpecificOutput":{"permission_decision":"deny","updated_tool_output":"x"}}`,
			[]string{`unknown member "updated_tool_output" in hookSpecificOutput: did you mean "updatedToolOutput"?`}},
		{"prompt_top_level_extras", hook.UserPromptSubmit, `{"session_title":"t"}`,
			[]string{`unknown member "session_title" in the answer: did you mean "sessionTitle"?`}},
		{"session_title_is_unknown_at_top_level_elsewhere", hook.SessionStart, `{"session_title":"t"}`, nil},
		{"permission_request_decision", hook.PermissionRequest, `{"hookSpecificOutput":{"decision":{"behavior":"allow","updated_input":{"a":1}}}}`,
			[]string{`unknown member "updated_input" in hookSpecificOutput.decision: did you mean "updatedInput"?`}},
		{"hso_of_another_event_says_nothing_of_its_members", hook.PreToolUse, `{"hookSpecificOutput":{"hookEventName":"PostToolUse","permission_decision":"deny"}}`,
			[]string{`hookSpecificOutput.hookEventName "PostToolUse" is not "PreToolUse": hookSpecificOutput ignored`}},
		{"unknown_but_not_near_is_silent", hook.PreToolUse, `{"decision_reason":"x","hookSpecificOutput":{"extra":1}}`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := ParseClaude(tc.event, res(0, tc.stdout, ""))
			if !slices.Equal(a.Warnings, tc.want) {
				t.Fatalf("warnings\n%q\nwant\n%q", a.Warnings, tc.want)
			}
			if a.PermissionDecision != "" || a.Block || a.Continue != nil || a.SuppressOutput || a.SessionTitle != nil || a.UpdatedToolOutput != nil ||
				(a.Permission != nil && a.Permission.UpdatedInput != nil) {
				t.Fatalf("a misspelt member was honoured: %+v", a)
			}
		})
	}
	// A failed validation still names the misspelt member.
	a := ParseClaude(hook.PreToolUse, res(0, `{"continue":"yes","stop_reason":"x"}`, ""))
	if a.HookError == "" || !slices.Equal(a.Warnings, []string{`unknown member "stop_reason" in the answer: did you mean "stopReason"?`}) {
		t.Fatalf("hookError %q warnings %q", a.HookError, a.Warnings)
	}
}

// TestNearMissCostsNothingOnAWellFormedAnswer: an answer with only known
// members, or unknown members that resemble none, allocates no more than
// without them; the Claude check (on the already decoded output) does
// not allocate.
func TestNearMissCostsNothingOnAWellFormedAnswer(t *testing.T) {
	plain := `{"continue":true,"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"ok"}}`
	extra := `{"continue":true,"x_custom":1,"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"ok","y-custom":2}}`
	zc := func(s string) float64 {
		r := exit(0, s, "")
		return testing.AllocsPerRun(100, func() { Parse(hook.PreToolUse, r) })
	}
	switch p, e := zc(plain), zc(extra); {
	case !raceEnabled && e != p:
		t.Errorf("Parse: %v allocs with unknown members, %v without", e, p)
	case raceEnabled && (e > p+1 || p > e+1):
		t.Errorf("Parse: %v allocs with unknown members, %v without (race build: ±1 allowed)", e, p)
	case raceEnabled:
		t.Logf("race build: sync.Pool drops at random, so the counts (%v with unknown members, %v without) are compared within ±1; the exact check runs without -race", e, p)
	}
	f, _ := claudeObject([]byte(extra))
	fp, _ := claudeObject([]byte(`{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","x":1}}}`))
	key := []byte(`"permissionDecision"`)
	if n := testing.AllocsPerRun(100, func() {
		nearMiss("permission_decision", hsoNames)
		rawNearMiss(key, hsoNames)
		var a ClaudeAnswer
		claudeNearMisses(hook.PreToolUse, f, &a)
		claudeNearMisses(hook.PermissionRequest, fp, &a)
		if a.Warnings != nil {
			t.Fatalf("warnings %q", a.Warnings)
		}
	}); n != 0 {
		t.Errorf("the near-miss check allocates %v times on an answer without near misses", n)
	}
}

// foldRef is the near-miss folding written plainly: ASCII letters
// lowercased, "_" and "-" dropped.
func foldRef(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '_' || r == '-':
			return -1
		case 'A' <= r && r <= 'Z':
			return r + 'a' - 'A'
		}
		return r
	}, s)
}

// FuzzNearMiss checks nearMiss against foldRef on every level, and that a
// member under a fuzzed name, at the top level and in hookSpecificOutput,
// is never honoured unless the name is exact, and is warned of exactly
// when it is a near miss (Parse and ParseClaude).
func FuzzNearMiss(f *testing.F) {
	for _, k := range []string{"permission_decision", "PermissionDecision", "hook-specific-output",
		"decision_reason", "continue_", "suppressoutput", "permissionDecision", "\u212Aeason", "_-", "",
		"Hook_Event_Name", "a<b&c", "\xffreason"} {
		f.Add(k)
	}
	levels := []map[string]jsonKind{claudeTopFields, claudeDecisionFields, claudeHSOFields[hook.PreToolUse], claudeEventNameField}
	f.Fuzz(func(t *testing.T, key string) {
		for _, known := range append(levels, claudeHSOFields[hook.SessionStart]) {
			want := ""
			if _, ok := known[key]; !ok {
				for name := range known {
					if foldRef(name) == foldRef(key) {
						want = name
					}
				}
			}
			if got := nearMiss(key, known); got != want {
				t.Fatalf("nearMiss(%q) = %q, want %q", key, got, want)
			}
			if got := nearMiss([]byte(key), known); got != want {
				t.Fatalf("nearMiss([]byte %q) = %q, want %q", key, got, want)
			}
		}
		if !utf8.ValidString(key) {
			return // json.Marshal would give another name
		}
		k, _ := json.Marshal(key)
		if name, decoded := rawNearMiss(k, hsoNames); decoded != "" && decoded != key || name != nearMiss(key, hsoNames) {
			t.Fatalf("rawNearMiss(%s) = %q, %q", k, name, decoded)
		}
		out := []byte(`{` + string(k) + `:"deny","hookSpecificOutput":{"hookEventName":"PreToolUse",` + string(k) + `:"deny"}}`)
		if !answerNames[key] && !hsoNames[key] {
			a := Parse(hook.PreToolUse, ProcessResult{Stdout: out})
			if a.Decision != "" || a.Block {
				t.Fatalf("%s: member %q honoured: %s", out, key, dump(a))
			}
			checkNearMissWarnings(t, a.Warnings, key, nearMiss(key, answerNames), nearMiss(key, hsoNames))
		}
		_, top := claudeTopFields[key]
		_, hso := claudeHSOFields[hook.PreToolUse][key]
		if !top && !hso && key != "hookEventName" {
			a := ParseClaude(hook.PreToolUse, ProcessResult{Stdout: out})
			if a.PermissionDecision != "" || a.Block {
				t.Fatalf("%s: member %q honoured: %+v", out, key, a)
			}
			inHSO := nearMiss(key, claudeHSOFields[hook.PreToolUse])
			if inHSO == "" {
				inHSO = nearMiss(key, claudeEventNameField)
			}
			checkNearMissWarnings(t, a.Warnings, key, nearMiss(key, claudeTopFields), inHSO)
		}
	})
}

// checkNearMissWarnings checks that warnings name key as a near miss of
// top (top level) and hso (hookSpecificOutput), and name nothing else as
// one; "" for a level where key is none.
func checkNearMissWarnings(t *testing.T, warnings []string, key, top, hso string) {
	t.Helper()
	var want []string
	if top != "" {
		want = append(want, fmt.Sprintf("unknown member %q in the answer: did you mean %q?", key, top))
	}
	if hso != "" {
		want = append(want, fmt.Sprintf("unknown member %q in hookSpecificOutput: did you mean %q?", key, hso))
	}
	var got []string
	for _, w := range warnings {
		if strings.HasPrefix(w, "unknown member ") {
			got = append(got, w)
		}
	}
	if !slices.Equal(got, want) {
		t.Fatalf("near-miss warnings %q, want %q", got, want)
	}
}

// TestDuplicateMemberWarned: an answer naming a member twice in one object
// is read (the last value wins, as JSON.parse has it) with a warning naming
// the member's path, in every profile and on exit 2; none for distinct
// names.
func TestDuplicateMemberWarned(t *testing.T) {
	const w = `duplicate member "hookSpecificOutput.permissionDecision" in the answer: the name appears twice in one object; the last value is used`
	dup := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecision":"allow"}}`
	a := Parse(hook.PreToolUse, exit(0, dup, ""))
	if !slices.Contains(a.Warnings, w) || a.Decision != DecisionAllow {
		t.Errorf("zcode: warnings %q decision %v; want the warning and allow", a.Warnings, a.Decision)
	}
	if a := Parse(hook.PreToolUse, exit(2, `{"reason":"x","reason":"y"}`, "")); !slices.Contains(a.Warnings, `duplicate member "reason" in the answer: the name appears twice in one object; the last value is used`) {
		t.Errorf("zcode exit 2: warnings %q", a.Warnings)
	}
	c := ParseClaude(hook.PreToolUse, res(0, dup, ""))
	if !slices.Contains(c.Warnings, w) || c.PermissionDecision != DecisionAllow {
		t.Errorf("claude: warnings %q decision %q; want the warning and allow", c.Warnings, c.PermissionDecision)
	}
	if a := Parse(hook.PreToolUse, exit(0, `{"continue":true,"hookSpecificOutput":{"continue":true}}`, "")); slices.ContainsFunc(a.Warnings, func(s string) bool { return strings.HasPrefix(s, "duplicate") }) {
		t.Errorf("one name at two levels is no duplicate: %q", a.Warnings)
	}
}

// TestJSONAfterTextWarned: stdout whose last line is a JSON object after
// other output is plain text (the answer is the whole of stdout) with a
// warning saying so, in both profiles; plain text alone says nothing.
func TestJSONAfterTextWarned(t *testing.T) {
	out := "checking...\n" + `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}` + "\n"
	has := func(ws []string) bool {
		return slices.ContainsFunc(ws, func(s string) bool { return strings.HasPrefix(s, "stdout ends with a JSON object after other output") })
	}
	if a := Parse(hook.PreToolUse, exit(0, out, "")); !has(a.Warnings) || a.Decision != "" {
		t.Errorf("zcode: warnings %q decision %q", a.Warnings, a.Decision)
	}
	if c := ParseClaude(hook.PreToolUse, res(0, out, "")); !has(c.Warnings) || c.PermissionDecision != "" {
		t.Errorf("claude: warnings %q decision %q", c.Warnings, c.PermissionDecision)
	}
	for _, o := range []string{
		"checking\n{\"hookSpecificOutput\":\n {\"permissionDecision\":\"deny\"}}\n", // the JSON over two lines
		`checking... {"hookSpecificOutput":{"permissionDecision":"deny"}}`,          // on the text's line
	} {
		if a := Parse(hook.PreToolUse, exit(0, o, "")); !has(a.Warnings) {
			t.Errorf("zcode %q: warnings %q", o, a.Warnings)
		}
	}
	if a := Parse(hook.PreToolUse, exit(0, "all good\nno JSON here\n", "")); len(a.Warnings) != 0 {
		t.Errorf("plain text: warnings %q", a.Warnings)
	}
}

// TestSeveralJSONValuesWarned: stdout holding two or more JSON values and
// nothing else (one object per line, or run together) is not one JSON
// object: it is plain text, as before, and the warning says it holds
// several values (counted up to maxCountedValues), not that it is invalid
// JSON, in every profile. Stdout that is a JSON object followed by
// anything else gets the trailing-text warning (TestTrailingTextWarned);
// other stdout keeps the "not a JSON object" warning of its profile.
func TestSeveralJSONValuesWarned(t *testing.T) {
	several := func(n string) string {
		return "stdout holds " + n + " JSON values; the answer must be exactly one JSON object (the first is not read as the answer): treated as plain text; merge them into one object"
	}
	trailing := func(what string) string {
		return "stdout is a JSON object followed by other output: " + what + "; the answer must be exactly one JSON object, the whole of stdout, so it was treated as plain text; print only the JSON object (send the rest to stderr)"
	}
	zcodeBad := func(why string) string {
		return "stdout looks like JSON but is not a JSON object: " + why + ": treated as plain text"
	}
	claudeBad := func(why string) string {
		return `stdout starts with "{" but is not a JSON object: ` + why + ": treated as plain text"
	}
	deep := `{"decision":"block","x":` + strings.Repeat("[", 10001) + strings.Repeat("]", 10001) + "}"
	for _, tc := range []struct {
		name, stdout  string
		zcode, claude string // the one warning of each profile ("" none)
	}{
		{"two_lines", "{\"decision\":\"block\"}\n{\"continue\":false}\n", several("2"), several("2")},
		{"run_together", `{"a":1}{"b":2}`, several("2"), several("2")},
		{"deny_then_allow", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}} {"hookSpecificOutput":{"permissionDecision":"allow"}}`, several("2"), several("2")},
		{"object_array_string", "{\"a\":1}\r\n[2]\t\"x\" 3", several("4"), several("4")},
		{"eight_values", strings.Repeat("{}\n", 8), several("8"), several("8")},
		{"nine_values", strings.Repeat("{}\n", 9), several("at least 8"), several("at least 8")},
		{"ten_thousand_values", strings.Repeat("{\"decision\":\"block\"}\n", 10000), several("at least 8"), several("at least 8")},
		{"arrays", `[1] [2]`, several("2"), ""}, // claude: no "{", plain text without a word
		{"second_value_cut", "{\"a\":1}\n{\"b\":", trailing(`"{\"b\":" at line 2, column 1 (byte offset 8)`), trailing(`"{\"b\":" at line 2, column 1 (byte offset 8)`)},
		{"second_value_invalid", `{"a":1}{"b":tru}`, trailing(`"{\"b\":tru}" at line 1, column 8 (byte offset 7)`), trailing(`"{\"b\":tru}" at line 1, column 8 (byte offset 7)`)},
		{"text_after_the_object", "{\"a\":1}\ndone", trailing(`"done" at line 2, column 1 (byte offset 8)`), trailing(`"done" at line 2, column 1 (byte offset 8)`)},
		{"comma_between", `{"a":1},{"b":2}`, trailing(`",{\"b\":2}" at line 1, column 8 (byte offset 7)`), trailing(`",{\"b\":2}" at line 1, column 8 (byte offset 7)`)},
		{"first_value_invalid", `{"a":}{"b":2}`, zcodeBad("invalid character '}' looking for beginning of value at line 1, column 6 (byte offset 5)"), claudeBad("invalid character '}' looking for beginning of value at line 1, column 6 (byte offset 5)")},
		{"array_then_text", `[1] done`, zcodeBad("invalid character 'd' after top-level value at line 1, column 5 (byte offset 4)"), ""},
		// A raw TAB inside a string (printf of a file name), at its
		// place in the whole stdout (after a blank line).
		{"control_character", "\n  {\"decision\":\"block\",\"reason\":\"tab\there\"}", zcodeBad("invalid character '\\t' in string literal at line 2, column 36 (byte offset 36)"), claudeBad("invalid character '\\t' in string literal at line 2, column 36 (byte offset 36)")},
		{"cut_short", `{"decision":"block","reason":"r`, zcodeBad("it is cut short: it ends inside a value, at line 1, column 32 (byte offset 31)"), claudeBad("it is cut short: it ends inside a value, at line 1, column 32 (byte offset 31)")},
		{"too_deep_and_cut_short", "[" + strings.Repeat("[", 10000), zcodeBad("it nests more than 10000 levels deep (the most hookside reads) at line 1, column 10001 (byte offset 10000)"), ""},
		{"too_deep", deep, zcodeBad("it nests 10002 levels deep, more than the 10000 hookside reads"), claudeBad("it nests 10002 levels deep, more than the 10000 hookside reads")},
		{"single_quotes", `{'decision':'block'}`, zcodeBad("invalid character '\\'' looking for beginning of object key string (JSON strings take double quotes) at line 1, column 2 (byte offset 1)"), claudeBad("invalid character '\\'' looking for beginning of object key string (JSON strings take double quotes) at line 1, column 2 (byte offset 1)")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := func(w string) []string {
				if w == "" {
					return nil
				}
				return []string{w}
			}
			// zcode and spark read an answer with Parse; they differ in
			// the merge, whose result must be "no opinion" in both.
			for _, p := range []struct {
				name string
				d    *hook.Dialect
			}{{"zcode", hook.Zcode}, {"spark", hook.Spark}} {
				a := Parse(hook.PreToolUse, exit(0, tc.stdout, ""))
				if !slices.Equal(a.Warnings, want(tc.zcode)) {
					t.Errorf("%s: warnings\n%q\nwant\n%q", p.name, a.Warnings, want(tc.zcode))
				}
				if a.Outcome != OutcomeSucceeded || a.Decision != "" || a.Block || a.Continue != nil || a.AdditionalContext != nil {
					t.Errorf("%s: part of stdout was read as the answer: %s", p.name, dump(a))
				}
				if m := MergeFor(p.d, hook.PreToolUse, []Answer{a}); m.Decision != nil || m.Blocked || !m.Continue {
					t.Errorf("%s: merged decision %v blocked %v continue %v", p.name, m.Decision, m.Blocked, m.Continue)
				}
				// Plain text is context where plain text is read.
				if u := Parse(hook.UserPromptSubmit, exit(0, tc.stdout, "")); !slices.Equal(u.AdditionalContext, []string{strings.TrimSpace(tc.stdout)}) {
					t.Errorf("%s UserPromptSubmit: context %q", p.name, u.AdditionalContext)
				}
			}
			c := ParseClaude(hook.PreToolUse, res(0, tc.stdout, ""))
			if !slices.Equal(c.Warnings, want(tc.claude)) {
				t.Errorf("claude: warnings\n%q\nwant\n%q", c.Warnings, want(tc.claude))
			}
			if c.Outcome != OutcomeSucceeded || c.PermissionDecision != "" || c.Block || c.Continue != nil || c.HookError != "" {
				t.Errorf("claude: part of stdout was read as the answer: %+v", c)
			}
		})
	}
}

// TestJSONValuesCostsNothing: counting the values of a stdout does not
// allocate, and a well-formed answer never reaches the count (it runs
// only when stdout is not one JSON object).
func TestJSONValuesCostsNothing(t *testing.T) {
	two := []byte("{\"decision\":\"block\"}\n{\"continue\":false}")
	many := []byte(strings.Repeat("{}\n", 100))
	n := testing.AllocsPerRun(100, func() {
		if k, more := jsonValues(two); k != 2 || more {
			t.Fatalf("jsonValues(two) = %d, %v", k, more)
		}
		if k, more := jsonValues(many); k != maxCountedValues || !more {
			t.Fatalf("jsonValues(many) = %d, %v", k, more)
		}
	})
	switch {
	case !raceEnabled && n != 0:
		t.Errorf("jsonValues allocates %v times", n)
	case raceEnabled:
		t.Logf("race build: sync.Pool drops at random, so json.Valid's scanner is allocated anew at times (%v allocations); the exact check runs without -race", n)
	}
}

// TestWrongTypedMemberWarned: an answer member of the wrong JSON type
// (continue "false", updatedInput "rm") is ignored with a run warning
// naming it, the type it must be and the one it is; null says nothing.
func TestWrongTypedMemberWarned(t *testing.T) {
	a := Parse(hook.PreToolUse, exit(0, `{"continue":"false","systemMessage":null,"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":"rm -rf /"}}`, ""))
	want := []string{`continue must be a boolean, got a string: ignored`, `hookSpecificOutput.updatedInput must be an object, got a string: ignored`}
	if !slices.Equal(a.Warnings, want) || a.Continue != nil || a.UpdatedInput != nil || a.Decision != DecisionAllow {
		t.Errorf("warnings %q continue %v updatedInput %s decision %q", a.Warnings, a.Continue, a.UpdatedInput, a.Decision)
	}
}
