package output

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/internal/jsonexact"
)

// PreToolUse permission decisions beyond allow/ask/deny: "defer" pauses a
// non-interactive run at the tool call
// (https://code.claude.com/docs/en/hooks#defer-a-tool-call-for-later).
const DecisionDefer = "defer"

// ClaudePermission is a PermissionRequest hook's
// hookSpecificOutput.decision
// (https://code.claude.com/docs/en/hooks#permissionrequest-decision-control):
// Behavior "allow" or "deny"; UpdatedInput (an object) and
// UpdatedPermissions (an array of permission update entries) go with
// allow; Message and Interrupt with deny.
type ClaudePermission struct {
	Behavior           string          `json:"behavior"`
	UpdatedInput       json.RawMessage `json:"updatedInput,omitempty"`
	UpdatedPermissions json.RawMessage `json:"updatedPermissions,omitempty"`
	Message            string          `json:"message,omitempty"`
	Interrupt          bool            `json:"interrupt,omitempty"`
}

// ClaudeElicitation is an Elicitation or ElicitationResult hook's answer:
// Action "accept", "decline" or "cancel", Content the form values.
type ClaudeElicitation struct {
	Action  string          `json:"action"`
	Content json.RawMessage `json:"content,omitempty"`
}

// ClaudeAnswer is one handler's parsed contribution to a Claude Code event
// (ParseClaude). Strings are valid UTF-8; only the fields the event honours
// are set.
type ClaudeAnswer struct {
	Outcome  Outcome
	ExitCode *int
	// Error says why the hook failed or was skipped; Warnings name parts
	// of the answer that were ignored (at most 8).
	Error    string
	Warnings []string
	// HookError is the non-blocking error notice Claude Code shows the
	// user ("Failed with non-blocking status code: <first stderr line>",
	// a validation failure, exit-2 stderr on events where it reaches the
	// user only); empty when there is none.
	HookError string
	// CapNotice says that stdout or stderr reached the hook's output cap
	// and was cut (CodeOutputTruncated, naming the cap in bytes; see
	// capNotice); MergeClaude adds it to HookErrors. Empty when neither
	// stream reached it.
	CapNotice string
	// Block: the hook blocked the event's action (exit 2 or a blocking
	// JSON decision on an event that can block; every non-zero exit on
	// WorktreeCreate). BlockReason is the message.
	Block       bool
	BlockReason string
	// Feedback is text for Claude next to a tool result: PostToolUse and
	// PostToolUseFailure decision:"block" reason or exit-2 stderr.
	Feedback string
	// PermissionDecision is PreToolUse's allow|deny|ask|defer, with its
	// reason and UpdatedInput (an object).
	PermissionDecision       string
	PermissionDecisionReason string
	UpdatedInput             json.RawMessage
	// Permission is PermissionRequest's decision object.
	Permission *ClaudePermission
	// UpdatedToolOutput and UpdatedMCPToolOutput replace a PostToolUse
	// result (any JSON value); ClassifierContext is the auto-mode note.
	UpdatedToolOutput    json.RawMessage
	UpdatedMCPToolOutput json.RawMessage
	ClassifierContext    string
	// AdditionalContext: hookSpecificOutput.additionalContext and, on the
	// events that take it, plain-text stdout.
	AdditionalContext []string
	Continue          *bool
	StopReason        string
	SuppressOutput    bool
	SystemMessage     string
	TerminalSequence  string
	// SessionStart and UserPromptSubmit extras.
	SessionTitle           *string
	InitialUserMessage     string
	SuppressOriginalPrompt bool
	ReloadSkills           bool
	// WatchPaths (SessionStart, CwdChanged, FileChanged): nil when not
	// given; an empty non-nil slice clears the dynamic watch list.
	WatchPaths []string
	// Retry is PermissionDenied's hookSpecificOutput.retry.
	Retry bool
	// DisplayContent is MessageDisplay's replacement text.
	DisplayContent *string
	// WorktreePath is WorktreeCreate's path.
	WorktreePath string
	// Elicitation is the Elicitation / ElicitationResult override.
	Elicitation *ClaudeElicitation
}

func (a *ClaudeAnswer) warn(msg string) {
	if len(a.Warnings) < 8 {
		a.Warnings = append(a.Warnings, msg)
	}
}

// nearMiss warns that member key of level misspells name (addNearMiss).
func (a *ClaudeAnswer) nearMiss(level, key, name string) {
	if len(a.Warnings) < 8 {
		a.Warnings = addNearMiss(a.Warnings, level, key, name)
	}
}

// ParseClaude interprets one command handler's process result for event
// under Claude Code's contract (https://code.claude.com/docs/en/hooks#exit-code-output):
//
//   - skipped / async: outcome skipped / started_async, nothing said.
//   - spawn error, timeout: failed / timed_out; a timeout renders no
//     decision, a spawn error is a non-blocking error notice.
//   - stdout whose first non-blank character is "{" and that parses as a
//     JSON object is the JSON output; anything else is plain text.
//   - exit 0: the JSON output, or plain text (context on SessionStart,
//     UserPromptSubmit and UserPromptExpansion only).
//   - exit 2: the event's exit-2 effect (block, feedback to Claude, a
//     user notice, or nothing); the JSON output is still read, and the
//     block message is the JSON blocking reason when the JSON blocks,
//     else stderr.
//   - other exits: a valid JSON output decides alone (outcome succeeded,
//     with a warning); otherwise a non-blocking error notice with the
//     first stderr line.
//
// A member whose name misspells one the event reads at its level (other
// ASCII case, "_" or "-" added or dropped: permission_decision) is ignored
// as every unknown member, with a warning naming the member it resembles
// (claudeNearMisses).
//
// A JSON output whose known fields have the wrong type fails validation:
// nothing of it is honoured and HookError carries the message (on exit 2
// the block stands with stderr as reason). JSON null counts as absent.
// WorktreeCreate reads the path from the last non-empty stdout line.
func ParseClaude(event string, r ProcessResult) ClaudeAnswer {
	var a ClaudeAnswer
	if o, e, ok := notRan(r); ok {
		a.Outcome, a.Error = o, e
		if o == OutcomeFailed {
			a.HookError = "Failed with non-blocking status code: " + a.Error
		}
		return a
	}
	a.ExitCode = exitCodeOf(r)
	rule := claudeRules[event]
	if r.TimedOut {
		a.Outcome, a.Error = OutcomeTimedOut, "timed out"
		a.HookError = "hook timed out; its output was discarded"
		if rule.anyNonZeroFails {
			a.Block, a.BlockReason = true, a.HookError
		}
		return a
	}
	if r.ExitCode == 0 && cutJSONAnswer(r) {
		a.Outcome, a.Error = OutcomeFailed, truncatedAnswerError(r)
		a.HookError = a.Error
		if rule.anyNonZeroFails {
			a.Block, a.BlockReason = true, a.HookError
		}
		return a
	}
	a.CapNotice = capNotice(r)
	out := trim(r.Stdout)
	fields, isJSON := claudeObject(out)
	var schemaErr string
	if isJSON {
		schemaErr = claudeValidate(event, fields)
	}
	stderr := validString(string(trim(r.Stderr)))

	a.Outcome, a.Error = exitOutcome(r.ExitCode)
	if rule.ignoreAll {
		if isJSON && schemaErr == "" {
			a.TerminalSequence, _ = claudeString(fields["terminalSequence"])
		}
		return a
	}
	if event == hook.WorktreeCreate && !isJSON && r.ExitCode == 0 {
		a.WorktreePath = lastLine(out)
	}

	jsonOK := isJSON && schemaErr == ""
	if isJSON && schemaErr != "" {
		a.HookError = "hook output failed validation: " + schemaErr
	}
	switch {
	case r.ExitCode == 0:
		if jsonOK {
			applyClaudeJSON(event, rule, fields, &a, false)
		} else if !isJSON {
			if len(out) > 0 && out[0] == '{' {
				if w := severalValues(out); w != "" {
					a.warn(w)
				} else if w := trailingText(r.Stdout, out); w != "" {
					a.warn(w)
				} else {
					a.warn("stdout starts with \"{\" but is not a JSON object: " + whyNotObject(r.Stdout, out) + ": treated as plain text")
				}
			} else if w := jsonAfterText(out); w != "" {
				a.warn(w)
			}
			if rule.plainContext {
				text := validString(string(out))
				if r.StdoutTruncated {
					text += CutMarker(len(r.Stdout))
				}
				addClaudeContext(&a, text)
			}
		}
	case r.ExitCode == 2:
		if jsonOK {
			applyClaudeJSON(event, rule, fields, &a, true)
		}
		applyExit2(event, rule, stderr, &a)
	default:
		if jsonOK {
			a.Outcome, a.Error = OutcomeSucceeded, ""
			a.warn(fmt.Sprintf("exit code %d with a valid JSON output: the JSON decides", r.ExitCode))
			applyClaudeJSON(event, rule, fields, &a, false)
		} else if a.HookError == "" {
			a.HookError = "Failed with non-blocking status code: " + firstLine(stderr)
		}
	}
	if isJSON {
		if w := duplicateMember(out); w != "" {
			a.Warnings = append(a.Warnings, w)
		}
		claudeNearMisses(event, fields, &a)
	}
	if rule.anyNonZeroFails {
		switch {
		case r.ExitCode != 0:
			a.Block, a.Outcome = true, OutcomeBlocked
			a.BlockReason = firstNonBlank(a.BlockReason, stderr, a.HookError, a.Error)
		case a.WorktreePath == "":
			a.Block = true
			a.BlockReason = "the hook gave no worktree path"
		}
	}
	return a
}

// applyExit2 applies the exit-2 effect of event's row.
func applyExit2(event string, rule claudeRule, stderr string, a *ClaudeAnswer) {
	switch rule.exit2 {
	case exit2Block:
		a.Block = true
		if isBlank(a.BlockReason) {
			a.BlockReason = stderr
		}
		if event == hook.PreToolUse {
			// Exit 2 routes like "deny", whatever the JSON decided.
			if a.PermissionDecision != DecisionDeny || isBlank(a.PermissionDecisionReason) {
				a.PermissionDecisionReason = a.BlockReason
			}
			a.PermissionDecision = DecisionDeny
		}
	case exit2Feedback:
		if !isBlank(stderr) {
			a.Feedback = joinNonBlank(a.Feedback, stderr)
		}
	case exit2Notice:
		a.HookError = firstNonBlank(stderr, a.HookError)
	}
}

// applyClaudeJSON reads the fields event honours from a validated JSON
// output. exit2 reports that the hook exited 2 (Elicitation and
// ElicitationResult then ignore hookSpecificOutput).
func applyClaudeJSON(event string, rule claudeRule, f map[string]json.RawMessage, a *ClaudeAnswer, exit2 bool) {
	if v, ok := claudeBool(f["continue"]); ok && !rule.dropContinue {
		a.Continue = &v
		a.StopReason, _ = claudeString(f["stopReason"])
	}
	a.SuppressOutput, _ = claudeBool(f["suppressOutput"])
	if !rule.dropSystemMessage {
		a.SystemMessage, _ = claudeString(f["systemMessage"])
	}
	a.TerminalSequence, _ = claudeString(f["terminalSequence"])
	if _, ok := f["additionalContext"]; ok {
		a.warn("top-level additionalContext is not read by Claude Code (it belongs in hookSpecificOutput): ignored")
	}
	decision, _ := claudeString(f["decision"])
	reason, _ := claudeString(f["reason"])

	hso := claudeHSO(event, f, a)
	if exit2 && (event == hook.Elicitation || event == hook.ElicitationResult) {
		hso = nil
	}
	if rule.context {
		if s, ok := claudeString(hso["additionalContext"]); ok {
			addClaudeContext(a, s)
		}
	}

	switch event {
	case hook.PreToolUse:
		pd, _ := claudeString(hso["permissionDecision"])
		a.PermissionDecisionReason, _ = claudeString(hso["permissionDecisionReason"])
		if pd == "" { // the deprecated top-level form
			switch decision {
			case "approve":
				pd = DecisionAllow
			case "block":
				pd = DecisionDeny
			}
			if pd != "" && isBlank(a.PermissionDecisionReason) {
				a.PermissionDecisionReason = reason
			}
		}
		a.PermissionDecision = pd
		if v := hso["updatedInput"]; isObject(v) {
			a.UpdatedInput = copyJSON(v)
		}
		if pd == DecisionDeny {
			a.Block, a.BlockReason = true, a.PermissionDecisionReason
		}
	case hook.PermissionRequest:
		if d := hso["decision"]; isObject(d) {
			var raw map[string]json.RawMessage
			_ = jsonexact.Unmarshal(d, &raw)
			p := &ClaudePermission{}
			p.Behavior, _ = claudeString(raw["behavior"])
			if p.Behavior == "allow" {
				if v := raw["updatedInput"]; isObject(v) {
					p.UpdatedInput = copyJSON(v)
				}
				if v := raw["updatedPermissions"]; len(v) > 0 && v[0] == '[' {
					p.UpdatedPermissions = copyJSON(v)
				}
			} else {
				p.Message, _ = claudeString(raw["message"])
				p.Interrupt, _ = claudeBool(raw["interrupt"])
			}
			a.Permission = p
		}
	case hook.PermissionDenied:
		a.Retry, _ = claudeBool(hso["retry"])
	case hook.PostToolUse, hook.PostToolUseFailure:
		if decision == "block" {
			a.Feedback = joinNonBlank(a.Feedback, reason)
		}
		if event == hook.PostToolUse {
			if v := hso["updatedToolOutput"]; len(v) > 0 && string(v) != "null" {
				a.UpdatedToolOutput = copyJSON(v)
			}
			if v := hso["updatedMCPToolOutput"]; len(v) > 0 && string(v) != "null" {
				a.UpdatedMCPToolOutput = copyJSON(v)
			}
			a.ClassifierContext, _ = claudeString(hso["classifierContext"])
		}
	case hook.UserPromptSubmit:
		if s, ok := claudeString(firstPresent(hso["sessionTitle"], f["sessionTitle"])); ok {
			a.SessionTitle = &s
		}
		a.SuppressOriginalPrompt, _ = claudeBool(firstPresent(hso["suppressOriginalPrompt"], f["suppressOriginalPrompt"]))
	case hook.SessionStart:
		if s, ok := claudeString(hso["sessionTitle"]); ok {
			a.SessionTitle = &s
		}
		a.InitialUserMessage, _ = claudeString(hso["initialUserMessage"])
		a.ReloadSkills, _ = claudeBool(hso["reloadSkills"])
		a.WatchPaths = claudeStrings(hso["watchPaths"])
	case hook.CwdChanged, hook.FileChanged:
		a.WatchPaths = claudeStrings(hso["watchPaths"])
	case hook.MessageDisplay:
		if s, ok := claudeString(hso["displayContent"]); ok {
			a.DisplayContent = &s
		}
	case hook.WorktreeCreate:
		a.WorktreePath, _ = claudeString(hso["worktreePath"])
	case hook.Elicitation, hook.ElicitationResult:
		if act, ok := claudeString(hso["action"]); ok {
			e := &ClaudeElicitation{Action: act}
			if v := hso["content"]; isObject(v) {
				e.Content = copyJSON(v)
			}
			a.Elicitation = e
		}
	}
	if rule.blockDecision && decision == "block" {
		a.Block, a.BlockReason = true, reason
	} else if decision == "block" && event != hook.PreToolUse && event != hook.PostToolUse && event != hook.PostToolUseFailure {
		a.warn(fmt.Sprintf("decision \"block\" has no effect on %s", event))
	}
}

// claudeHSO returns hookSpecificOutput's members, or nil when it is absent
// or names another event (a warning).
func claudeHSO(event string, f map[string]json.RawMessage, a *ClaudeAnswer) map[string]json.RawMessage {
	v := f["hookSpecificOutput"]
	if !isObject(v) {
		return nil
	}
	var m map[string]json.RawMessage
	if jsonexact.Unmarshal(v, &m) != nil {
		return nil
	}
	if name, _ := claudeString(m["hookEventName"]); name != "" && name != event {
		a.warn(fmt.Sprintf("hookSpecificOutput.hookEventName %q is not %q: hookSpecificOutput ignored", name, event))
		return nil
	}
	return m
}

func addClaudeContext(a *ClaudeAnswer, s string) {
	if !isBlank(s) {
		a.AdditionalContext = append(a.AdditionalContext, s)
	}
}

// claudeObject parses out as one JSON object when its first character is
// "{" (out is already trimmed); keys are exact (case-sensitive), the last
// of duplicate keys wins.
func claudeObject(out []byte) (map[string]json.RawMessage, bool) {
	if len(out) == 0 || out[0] != '{' || !json.Valid(out) {
		return nil, false
	}
	var m map[string]json.RawMessage
	if jsonexact.Unmarshal(bytes.ToValidUTF8(out, []byte("\uFFFD")), &m) != nil {
		return nil, false
	}
	return m, true
}

func claudeString(raw json.RawMessage) (string, bool) {
	if len(raw) == 0 || raw[0] != '"' {
		return "", false
	}
	var s string
	if jsonexact.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

func claudeBool(raw json.RawMessage) (bool, bool) { return jsonBool(raw) }

// claudeStrings returns a JSON array of strings (nil when raw is not one).
func claudeStrings(raw json.RawMessage) []string {
	if len(raw) == 0 || raw[0] != '[' {
		return nil
	}
	out := []string{}
	if jsonexact.Unmarshal(raw, &out) != nil {
		return nil
	}
	return out
}

func isObject(raw json.RawMessage) bool { return len(raw) > 0 && raw[0] == '{' }

func copyJSON(raw json.RawMessage) json.RawMessage {
	return append(json.RawMessage(nil), raw...)
}

func firstPresent(vals ...json.RawMessage) json.RawMessage {
	for _, v := range vals {
		if len(v) > 0 && string(v) != "null" {
			return v
		}
	}
	return nil
}

func firstNonBlank(vals ...string) string {
	for _, v := range vals {
		if !isBlank(v) {
			return v
		}
	}
	return ""
}

func joinNonBlank(a, b string) string {
	switch {
	case isBlank(a):
		return b
	case isBlank(b):
		return a
	}
	return a + "\n" + b
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return strings.TrimRight(s[:i], "\r")
	}
	return s
}

// lastLine returns the last non-empty line of out with ANSI escape
// sequences removed (WorktreeCreate's path,
// https://code.claude.com/docs/en/hooks#worktreecreate-output).
func lastLine(out []byte) string {
	lines := strings.Split(stripANSI(validString(string(out))), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if l := strings.TrimSpace(lines[i]); l != "" {
			return l
		}
	}
	return ""
}

// stripANSI removes CSI (ESC [ … final byte) and OSC (ESC ] … BEL or ESC \)
// sequences.
func stripANSI(s string) string {
	if !strings.Contains(s, "\x1b") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != 0x1b || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		switch s[i+1] {
		case '[':
			j := i + 2
			for j < len(s) && (s[j] < 0x40 || s[j] > 0x7e) {
				j++
			}
			i = j
		case ']':
			j := i + 2
			for j < len(s) && s[j] != 0x07 && !(s[j] == 0x1b && j+1 < len(s) && s[j+1] == '\\') {
				j++
			}
			if j < len(s) && s[j] == 0x1b {
				j++
			}
			i = j
		default:
			i++
		}
	}
	return b.String()
}
