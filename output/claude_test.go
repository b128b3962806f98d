package output

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// res builds a process result: exit code, stdout, stderr.
func res(code int, stdout, stderr string) ProcessResult {
	return ProcessResult{ExitCode: code, Stdout: []byte(stdout), Stderr: []byte(stderr)}
}

func merge1(event, match string, rs ...ProcessResult) ClaudeMerged {
	var as []ClaudeAnswer
	for _, r := range rs {
		as = append(as, ParseClaude(event, r))
	}
	return MergeClaude(event, match, as)
}

func str(p *string) string {
	if p == nil {
		return "<nil>"
	}
	return *p
}

// Each case cites the section of https://code.claude.com/docs/en/hooks it
// checks.
func TestClaudePreToolUse(t *testing.T) {
	hso := func(d, reason string) string {
		return `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"` + d + `","permissionDecisionReason":"` + reason + `"}}`
	}
	cases := []struct {
		name, cite string
		in         []ProcessResult
		decision   string
		reason     string
		blocked    bool
	}{
		{"deny wins over allow", "#pretooluse-decision-control", []ProcessResult{res(0, hso("allow", "ok"), ""), res(0, hso("deny", "no db writes"), "")}, "deny", "no db writes", true},
		{"deny > defer > ask > allow", "#pretooluse-decision-control", []ProcessResult{res(0, hso("ask", "a"), ""), res(0, hso("defer", ""), ""), res(0, hso("allow", ""), "")}, "defer", "<nil>", false},
		{"ask over allow", "#pretooluse-decision-control", []ProcessResult{res(0, hso("allow", "x"), ""), res(0, hso("ask", "confirm"), "")}, "ask", "confirm", false},
		{"exit 2 routes like deny, stderr is the reason", "#exit-code-2", []ProcessResult{res(2, "", "Blocked: rm\n")}, "deny", "Blocked: rm", true},
		{"exit 2 beats a JSON allow", "#exit-code-2", []ProcessResult{res(2, hso("allow", "fine"), "nope")}, "deny", "nope", true},
		{"exit 2 with a JSON deny: the JSON reason", "#exit-code-2", []ProcessResult{res(2, hso("deny", "json reason"), "stderr reason")}, "deny", "json reason", true},
		{"deprecated approve = allow", "#pretooluse-decision-control", []ProcessResult{res(0, `{"decision":"approve","reason":"r"}`, "")}, "allow", "r", false},
		{"deprecated block = deny", "#pretooluse-decision-control", []ProcessResult{res(0, `{"decision":"block","reason":"r"}`, "")}, "deny", "r", true},
		{"exit 1 with valid JSON: the JSON decides", "#other-exit-codes", []ProcessResult{res(1, hso("deny", "via json"), "oops")}, "deny", "via json", true},
		{"exit 1 without JSON: non-blocking", "#other-exit-codes", []ProcessResult{res(1, "text", "boom\nmore")}, "<nil>", "<nil>", false},
		{"wrong case fails validation", "#exit-code-0", []ProcessResult{res(0, hso("Deny", "x"), "")}, "<nil>", "<nil>", false},
		{"timeout renders no decision", "#timeouts", []ProcessResult{{TimedOut: true, ExitCode: -1}}, "<nil>", "<nil>", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := merge1("PreToolUse", "Bash", c.in...)
			if str(m.PermissionDecision) != c.decision || str(m.PermissionDecisionReason) != c.reason || m.Blocked != c.blocked {
				t.Errorf("%s: decision %s reason %s blocked %v; want %s %s %v", c.cite,
					str(m.PermissionDecision), str(m.PermissionDecisionReason), m.Blocked, c.decision, c.reason, c.blocked)
			}
		})
	}
}

func TestClaudePreToolUseUpdatedInputAndDefer(t *testing.T) {
	// #pretooluse-decision-control: updatedInput replaces the input; with
	// defer, updatedInput and additionalContext are ignored.
	m := merge1("PreToolUse", "Bash",
		res(0, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"ls"},"additionalContext":"ctx"}}`, ""))
	if string(m.UpdatedInput) != `{"command":"ls"}` || len(m.AdditionalContext) != 1 {
		t.Fatalf("allow: %s %v", m.UpdatedInput, m.AdditionalContext)
	}
	m = merge1("PreToolUse", "Bash",
		res(0, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"ls"},"additionalContext":"ctx"}}`, ""),
		res(0, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"defer"}}`, ""))
	if m.UpdatedInput != nil || len(m.AdditionalContext) != 0 || str(m.PermissionDecision) != "defer" {
		t.Fatalf("defer: %s %v %s", m.UpdatedInput, m.AdditionalContext, str(m.PermissionDecision))
	}
}

func TestClaudePermissionRequest(t *testing.T) {
	allow := `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedInput":{"command":"npm run lint"},"updatedPermissions":[{"type":"setMode","mode":"acceptEdits","destination":"session"}]}}}`
	deny := `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"not on prod","interrupt":true}}}`

	m := merge1("PermissionRequest", "Bash", res(0, allow, ""))
	if m.Permission == nil || m.Permission.Behavior != "allow" || string(m.Permission.UpdatedInput) != `{"command":"npm run lint"}` ||
		!strings.Contains(string(m.Permission.UpdatedPermissions), "setMode") || m.Blocked {
		t.Fatalf("allow: %+v", m.Permission)
	}
	m = merge1("PermissionRequest", "Bash", res(0, allow, ""), res(0, deny, ""))
	if m.Permission.Behavior != "deny" || m.Permission.Message != "not on prod" || !m.Permission.Interrupt || !m.Blocked || str(m.BlockReason) != "not on prod" {
		t.Fatalf("deny wins: %+v blocked %v", m.Permission, m.Blocked)
	}
	// #exit-code-2-behavior-per-event: exit 2 is not honoured; the flow is
	// unchanged and stderr discarded.
	m = merge1("PermissionRequest", "Bash", res(2, "", "go away"))
	if m.Permission != nil || m.Blocked || len(m.Feedback) != 0 || len(m.HookErrors) != 0 {
		t.Fatalf("exit 2: %+v", m)
	}
	// ... but a decision object printed with exit 2 still decides.
	m = merge1("PermissionRequest", "Bash", res(2, deny, "x"))
	if m.Permission == nil || m.Permission.Behavior != "deny" {
		t.Fatalf("exit 2 + decision: %+v", m.Permission)
	}
	// hookside's lifecycle permissionDecision is not Claude Code's shape.
	m = merge1("PermissionRequest", "Bash", res(0, `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","permissionDecision":"allow"}}`, ""))
	if m.Permission != nil {
		t.Fatalf("permissionDecision read on PermissionRequest: %+v", m.Permission)
	}
}

func TestClaudePostToolUse(t *testing.T) {
	// #posttooluse-decision-control and #exit-code-2-behavior-per-event.
	m := merge1("PostToolUse", "Write",
		res(0, `{"decision":"block","reason":"lint failed: 3 errors"}`, ""),
		res(2, "", "format check failed"),
		res(0, `{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"generated file","updatedToolOutput":{"stdout":"[redacted]","stderr":"","interrupted":false,"isImage":false}}}`, ""),
		res(0, `{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedMCPToolOutput":[{"type":"text","text":"x"}]}}`, ""))
	if m.Blocked {
		t.Error("PostToolUse never blocks: the tool already ran")
	}
	if len(m.Feedback) != 2 || m.Feedback[0] != "lint failed: 3 errors" || m.Feedback[1] != "format check failed" {
		t.Errorf("feedback = %q", m.Feedback)
	}
	if len(m.AdditionalContext) != 1 || !strings.Contains(string(m.UpdatedToolOutput), "[redacted]") || !strings.HasPrefix(string(m.UpdatedMCPToolOutput), "[") {
		t.Errorf("context %q output %s mcp %s", m.AdditionalContext, m.UpdatedToolOutput, m.UpdatedMCPToolOutput)
	}
	m = merge1("PostToolUseFailure", "Bash", res(2, "", "retry with --force"))
	if len(m.Feedback) != 1 || m.Feedback[0] != "retry with --force" {
		t.Errorf("PostToolUseFailure exit 2: %q", m.Feedback)
	}
	// exit 0 stderr goes to the debug log only (#exit-code-0).
	m = merge1("PostToolUse", "Write", res(0, "", "warning"))
	if len(m.Feedback) != 0 || len(m.HookErrors) != 0 {
		t.Errorf("exit 0 stderr surfaced: %+v", m)
	}
}

func TestClaudeUserPromptSubmit(t *testing.T) {
	// #userpromptsubmit-decision-control.
	m := merge1("UserPromptSubmit", "",
		res(0, "plain context line\n", ""),
		res(0, `{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"json ctx","sessionTitle":"Fix login"}}`, ""))
	if m.Blocked || len(m.AdditionalContext) != 2 || str(m.SessionTitle) != "Fix login" {
		t.Fatalf("context: %+v", m)
	}
	m = merge1("UserPromptSubmit", "", res(0, `{"decision":"block","reason":"secrets in prompt","suppressOriginalPrompt":true}`, ""))
	if !m.Blocked || str(m.BlockReason) != "secrets in prompt" || !m.SuppressOriginalPrompt {
		t.Fatalf("block: %+v", m)
	}
	m = merge1("UserPromptSubmit", "", res(2, "", "no"))
	if !m.Blocked || str(m.BlockReason) != "no" {
		t.Fatalf("exit 2: %+v", m)
	}
}

func TestClaudeStop(t *testing.T) {
	// #stop-decision-control, #stop-input: block or additionalContext
	// continues; at most 8 consecutive blocks.
	as := []ClaudeAnswer{ParseClaude("Stop", res(0, `{"decision":"block","reason":"run the tests"}`, ""))}
	m := MergeClaude("Stop", "", as)
	if m.Stop == nil || !m.Stop.ContinueTurn || str(m.Stop.Continuation) != "run the tests" || m.Blocked {
		t.Fatalf("block: %+v", m.Stop)
	}
	for granted, want := range map[int]bool{0: true, 7: true, 8: false, 9: false} {
		st := DecideClaudeStop(m, as, granted)
		if st.ContinueTurn != want || st.Limit != 8 {
			t.Errorf("granted %d: continue %v, want %v", granted, st.ContinueTurn, want)
		}
	}
	ctx := []ClaudeAnswer{ParseClaude("Stop", res(0, `{"hookSpecificOutput":{"hookEventName":"Stop","additionalContext":"please run lint"}}`, ""))}
	if st := DecideClaudeStop(MergeClaude("Stop", "", ctx), ctx, 0); !st.ContinueTurn || str(st.Continuation) != "please run lint" {
		t.Errorf("additionalContext continues: %+v", st)
	}
	ex := []ClaudeAnswer{ParseClaude("SubagentStop", res(2, "", "keep going"))}
	if st := DecideClaudeStop(MergeClaude("SubagentStop", "Explore", ex), ex, 0); !st.ContinueTurn || str(st.Continuation) != "keep going" {
		t.Errorf("SubagentStop exit 2: %+v", st)
	}
	stop := []ClaudeAnswer{
		ParseClaude("Stop", res(0, `{"decision":"block","reason":"x"}`, "")),
		ParseClaude("Stop", res(0, `{"continue":false,"stopReason":"build broken"}`, "")),
	}
	if m := MergeClaude("Stop", "", stop); m.Stop.ContinueTurn || m.Continue || str(m.StopReason) != "build broken" {
		t.Errorf("continue:false wins: %+v", m)
	}
	if m := merge1("Stop", "", res(0, "plain text", "")); m.Stop.ContinueTurn {
		t.Error("plain stdout is not context on Stop")
	}
}

func TestClaudeSessionStart(t *testing.T) {
	// #sessionstart-decision-control.
	out := `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"branch: main","initialUserMessage":"hi","sessionTitle":"auth","watchPaths":["/p/.envrc"],"reloadSkills":true}}`
	m := merge1("SessionStart", "startup", res(0, out, ""), res(0, "plain ctx", ""))
	if len(m.AdditionalContext) != 2 || str(m.InitialUserMessage) != "hi" || str(m.SessionTitle) != "auth" ||
		len(m.WatchPaths) != 1 || !m.ReloadSkills {
		t.Fatalf("%+v", m)
	}
	if m := merge1("SessionStart", "compact", res(0, out, "")); m.SessionTitle != nil {
		t.Error("sessionTitle applies on startup, resume and fork only")
	}
	// exit 2: stderr to the user only; the session proceeds.
	m = merge1("SessionStart", "startup", res(2, "", "setup failed"))
	if m.Blocked || len(m.HookErrors) != 1 || m.HookErrors[0] != "setup failed" || len(m.AdditionalContext) != 0 {
		t.Fatalf("exit 2: %+v", m)
	}
	// Setup: plain stdout goes to the debug log.
	if m := merge1("Setup", "init", res(0, "installed", "")); len(m.AdditionalContext) != 0 {
		t.Error("Setup plain stdout became context")
	}
}

func TestClaudeCommonFields(t *testing.T) {
	// #json-output: continue, stopReason, systemMessage; discarded by some events.
	out := `{"continue":false,"stopReason":"stop now","systemMessage":"careful","suppressOutput":true,"terminalSequence":"\u001b]9;hi\u0007"}`
	m := merge1("PostToolUse", "Bash", res(0, out, ""))
	if m.Continue || str(m.StopReason) != "stop now" || len(m.SystemMessages) != 1 || len(m.TerminalSequences) != 1 {
		t.Fatalf("%+v", m)
	}
	m = merge1("Notification", "idle_prompt", res(0, out, ""))
	if !m.Continue || len(m.SystemMessages) != 0 || len(m.TerminalSequences) != 1 {
		t.Fatalf("Notification discards systemMessage and continue, keeps terminalSequence: %+v", m)
	}
	// StopFailure ignores everything but terminalSequence.
	m = merge1("StopFailure", "rate_limit", res(2, out, "x"))
	if !m.Continue || len(m.HookErrors) != 0 || len(m.TerminalSequences) != 1 {
		t.Fatalf("StopFailure: %+v", m)
	}
	// TaskCreated ignores continue:false.
	if m := merge1("TaskCreated", "", res(0, `{"continue":false}`, "")); !m.Continue {
		t.Error("TaskCreated honoured continue:false")
	}
}

func TestClaudeBlockingEvents(t *testing.T) {
	// #exit-code-2-behavior-per-event, #decision-control.
	cases := []struct {
		event, match, stdout, stderr string
		code                         int
		blocked                      bool
		reason                       string
	}{
		{"TaskCreated", "", "", "subject needs a ticket", 2, true, "subject needs a ticket"},
		{"TaskCreated", "", `{"decision":"block","reason":"dup"}`, "", 0, true, "dup"},
		{"TaskCompleted", "", "", "tests fail", 2, true, "tests fail"},
		{"TaskCompleted", "", `{"decision":"block","reason":"x"}`, "", 0, false, ""},
		{"TeammateIdle", "", "", "build first", 2, true, "build first"},
		{"ConfigChange", "project_settings", `{"decision":"block","reason":"admin only"}`, "", 0, true, "admin only"},
		{"ConfigChange", "policy_settings", `{"decision":"block","reason":"admin only"}`, "", 0, false, ""},
		{"PreCompact", "auto", "", "not now", 2, true, "not now"},
		{"PostToolBatch", "", `{"decision":"block","reason":"stop the loop"}`, "", 0, true, "stop the loop"},
		{"UserPromptExpansion", "deploy", "", "no approval file", 2, true, "no approval file"},
		{"Notification", "permission_prompt", "", "x", 2, false, ""},
		{"PermissionDenied", "Bash", "", "x", 2, false, ""},
		{"InstructionsLoaded", "session_start", `{"decision":"block"}`, "", 2, false, ""},
		{"WorktreeCreate", "", "", "svn failed", 1, true, "svn failed"},
		{"Elicitation", "srv", "", "", 2, true, ""},
	}
	for _, c := range cases {
		m := merge1(c.event, c.match, res(c.code, c.stdout, c.stderr))
		if m.Blocked != c.blocked || (c.blocked && c.reason != "" && str(m.BlockReason) != c.reason) {
			t.Errorf("%s exit %d %q: blocked %v reason %s; want %v %q", c.event, c.code, c.stdout, m.Blocked, str(m.BlockReason), c.blocked, c.reason)
		}
		if ClaudeCanBlock(c.event) != (c.event != "Notification" && c.event != "PermissionDenied" && c.event != "InstructionsLoaded") {
			t.Errorf("ClaudeCanBlock(%s)", c.event)
		}
	}
}

func TestClaudeSpecialEvents(t *testing.T) {
	// #worktreecreate-output: the last non-empty stdout line, ANSI stripped.
	m := merge1("WorktreeCreate", "", res(0, "banner\n\x1b[32m/tmp/wt/feature\x1b[0m\n\n", ""))
	if str(m.WorktreePath) != "/tmp/wt/feature" || m.Blocked {
		t.Errorf("worktree: %s %v", str(m.WorktreePath), m.Blocked)
	}
	if m := merge1("WorktreeCreate", "", res(0, "", "")); !m.Blocked {
		t.Error("no path fails the creation")
	}
	// #permissiondenied-decision-control
	if m := merge1("PermissionDenied", "Bash", res(0, `{"hookSpecificOutput":{"hookEventName":"PermissionDenied","retry":true}}`, "")); !m.Retry {
		t.Error("retry")
	}
	// #messagedisplay-output
	if m := merge1("MessageDisplay", "", res(0, `{"hookSpecificOutput":{"hookEventName":"MessageDisplay","displayContent":"plain"}}`, "")); str(m.DisplayContent) != "plain" {
		t.Error("displayContent")
	}
	// #elicitation-output; exit 2 ignores hookSpecificOutput.
	acc := `{"hookSpecificOutput":{"hookEventName":"Elicitation","action":"accept","content":{"username":"alice"}}}`
	if m := merge1("Elicitation", "srv", res(0, acc, "")); m.Elicitation == nil || m.Elicitation.Action != "accept" {
		t.Errorf("elicitation: %+v", m.Elicitation)
	}
	if m := merge1("Elicitation", "srv", res(2, acc, "")); m.Elicitation != nil || !m.Blocked {
		t.Errorf("elicitation exit 2: %+v", m.Elicitation)
	}
	res2 := `{"hookSpecificOutput":{"hookEventName":"ElicitationResult","action":"accept"}}`
	if m := merge1("ElicitationResult", "srv", res(2, res2, "")); m.Elicitation == nil || m.Elicitation.Action != "decline" {
		t.Errorf("ElicitationResult exit 2 declines: %+v", m.Elicitation)
	}
	// #cwdchanged-output: an empty array clears the list.
	if m := merge1("CwdChanged", "", res(0, `{"hookSpecificOutput":{"hookEventName":"CwdChanged","watchPaths":[]}}`, "")); m.WatchPaths == nil || len(m.WatchPaths) != 0 {
		t.Errorf("watchPaths [] = %#v", m.WatchPaths)
	}
}

func TestClaudeValidationAndText(t *testing.T) {
	// #exit-code-0: a parsed object that fails validation is a non-blocking
	// error; an array or a string is plain text.
	m := merge1("UserPromptSubmit", "", res(0, `{"continue":"no"}`, ""))
	if len(m.HookErrors) != 1 || !strings.Contains(m.HookErrors[0], "continue: expected a boolean") || !m.Continue || len(m.AdditionalContext) != 0 {
		t.Fatalf("schema failure: %+v", m)
	}
	m = merge1("UserPromptSubmit", "", res(0, `["a"]`, ""))
	if len(m.AdditionalContext) != 1 || m.AdditionalContext[0] != `["a"]` {
		t.Fatalf("array is plain text: %q", m.AdditionalContext)
	}
	// exit 2 with invalid JSON still blocks with stderr (#exit-code-2).
	m = merge1("UserPromptSubmit", "", res(2, `{"decision":7}`, "blocked by policy"))
	if !m.Blocked || str(m.BlockReason) != "blocked by policy" {
		t.Fatalf("exit 2 + invalid JSON: %+v", m)
	}
	// other exit + plain stdout: notice with the first stderr line.
	m = merge1("PostToolUse", "Bash", res(1, "", "line one\nline two"))
	if len(m.HookErrors) != 1 || m.HookErrors[0] != "Failed with non-blocking status code: line one" {
		t.Fatalf("notice: %q", m.HookErrors)
	}
	// hookSpecificOutput for another event is ignored.
	a := ParseClaude("PostToolUse", res(0, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"x"}}`, ""))
	if len(a.AdditionalContext) != 0 || len(a.Warnings) != 1 {
		t.Fatalf("other event: %+v", a)
	}
	// keys are case-sensitive.
	if a := ParseClaude("UserPromptSubmit", res(0, `{"Decision":"block"}`, "")); a.Block {
		t.Fatal("Decision (capital D) read")
	}
}

func TestClaudeSpillOversized(t *testing.T) {
	// #add-context-for-claude: over 10,000 characters the text is saved to
	// a file and Claude gets the path and a preview.
	big := strings.Repeat("é", ClaudeOutputLimit+1)
	m := merge1("UserPromptSubmit", "", res(0, `{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"`+big+`"}}`, ""), res(0, "small", ""))
	var saved string
	m.SpillOversized(func(text string) (string, error) { saved = text; return "/s/ctx-1.txt", nil })
	if saved != big || !strings.Contains(m.AdditionalContext[0], "/s/ctx-1.txt") || JSLen(m.AdditionalContext[0]) > ClaudePreviewChars+200 || m.AdditionalContext[1] != "small" {
		t.Fatalf("spill: %d chars, %q…", JSLen(m.AdditionalContext[0]), m.AdditionalContext[0][:80])
	}
	exact := strings.Repeat("a", ClaudeOutputLimit)
	m = merge1("UserPromptSubmit", "", res(0, exact, ""))
	m.SpillOversized(func(string) (string, error) { t.Fatal("saved a text at the limit"); return "", nil })
	m = merge1("UserPromptSubmit", "", res(0, exact+"😀", ""))
	m.SpillOversized(func(string) (string, error) { return "", errors.New("disk full") })
	if m.AdditionalContext[0] != exact {
		t.Fatalf("save failed: cut to the limit without splitting a pair; got %d", JSLen(m.AdditionalContext[0]))
	}
}

func TestClaudeAsync(t *testing.T) {
	// #how-async-hooks-execute and the asyncRewake field.
	r := ClaudeAsync("PostToolUse", false, res(0, `{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"tests passed"},"systemMessage":"done","decision":"block"}`, ""))
	if len(r.AdditionalContext) != 1 || r.SystemMessage != "done" || r.Wake {
		t.Fatalf("%+v", r)
	}
	r = ClaudeAsync("PostToolUse", true, res(2, "from stdout", ""))
	if !r.Wake || r.WakeText != "from stdout" {
		t.Fatalf("rewake: %+v", r)
	}
	if r := ClaudeAsync("PostToolUse", false, res(2, "", "x")); r.Wake {
		t.Fatal("plain async woke Claude")
	}
}

func TestClaudeHTTP(t *testing.T) {
	// #http-response-handling
	ok := func(body string) HTTPResult { return HTTPResult{Status: 200, Body: []byte(body)} }
	cases := []struct {
		name     string
		r        HTTPResult
		outcome  Outcome
		hookErr  bool
		decision string
	}{
		{"2xx empty", ok(""), OutcomeSucceeded, false, "<nil>"},
		{"2xx JSON", ok(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"policy"}}`), OutcomeSucceeded, false, "deny"},
		{"2xx text", ok("hello"), OutcomeFailed, true, "<nil>"},
		{"2xx invalid schema", ok(`{"continue":1}`), OutcomeFailed, true, "<nil>"},
		{"500 with a deny body", HTTPResult{Status: 500, Body: []byte(`{"decision":"block"}`)}, OutcomeFailed, true, "<nil>"},
		{"connection refused", HTTPResult{Err: "connection refused"}, OutcomeFailed, true, "<nil>"},
		{"timeout", HTTPResult{TimedOut: true}, OutcomeTimedOut, true, "<nil>"},
		{"not allowed", HTTPResult{Skipped: true, SkipReason: "url_not_allowed"}, OutcomeSkipped, false, "<nil>"},
	}
	for _, c := range cases {
		a := ParseClaudeHTTP("PreToolUse", c.r)
		m := MergeClaude("PreToolUse", "Bash", []ClaudeAnswer{a})
		if a.Outcome != c.outcome || (a.HookError != "") != c.hookErr || str(m.PermissionDecision) != c.decision {
			t.Errorf("%s: outcome %s hookError %q decision %s", c.name, a.Outcome, a.HookError, str(m.PermissionDecision))
		}
	}
	a := ParseClaudeHTTP("WorktreeCreate", ok(`{"hookSpecificOutput":{"hookEventName":"WorktreeCreate","worktreePath":"/w"}}`))
	if a.WorktreePath != "/w" || a.Block {
		t.Errorf("worktree over http: %+v", a)
	}
	if a := ParseClaudeHTTP("WorktreeCreate", HTTPResult{Status: 503}); !a.Block {
		t.Error("a failed http WorktreeCreate fails the creation")
	}
}

func TestClaudeMergedJSON(t *testing.T) {
	m := merge1("Notification", "idle_prompt", res(0, "", ""))
	b, _ := json.Marshal(m)
	for _, k := range []string{`"additionalContext":[]`, `"systemMessages":[]`, `"hookErrors":[]`, `"runs":[]`, `"continue":true`} {
		if !strings.Contains(string(b), k) {
			t.Errorf("%s missing in %s", k, b)
		}
	}
	if strings.Contains(string(b), "permission") {
		t.Errorf("event-specific fields not omitted: %s", b)
	}
}

func FuzzParseClaude(f *testing.F) {
	f.Add("PreToolUse", 0, []byte(`{"hookSpecificOutput":{"permissionDecision":"deny"}}`), []byte(""))
	f.Add("PermissionRequest", 2, []byte(`{"hookSpecificOutput":{"decision":{"behavior":"allow","updatedPermissions":[1]}}}`), []byte("x"))
	f.Add("WorktreeCreate", 0, []byte("\x1b]0;t\x07/p\n"), []byte(""))
	f.Add("Stop", 1, []byte(`{"decision":"block","reason":null}`), []byte("\xff"))
	f.Fuzz(func(t *testing.T, event string, code int, stdout, stderr []byte) {
		a := ParseClaude(event, ProcessResult{ExitCode: code, Stdout: stdout, Stderr: stderr})
		m := MergeClaude(event, "", []ClaudeAnswer{a, a})
		m.SpillOversized(func(string) (string, error) { return "/p", nil })
		if _, err := json.Marshal(m); err != nil {
			t.Fatal(err)
		}
		_ = ParseClaudeHTTP(event, HTTPResult{Status: 200 + code%300, Body: stdout})
		_ = ClaudeAsync(event, true, ProcessResult{ExitCode: code, Stdout: stdout, Stderr: stderr})
	})
}
