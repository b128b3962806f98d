// Package output turns what one hook process printed into that hook's
// answer (Parse), merges the answers of every hook of an event (Merge),
// decides Stop continuation (DecideStop) and formats the context handed to
// the model (ModelContext), per lifecycle-hooks-and-workspace-trust.zh.txt
// §"进程钩子的协议", §"Stop 与续跑上限", §"钩子输出怎样进模型上下文" and
// PROTOCOL.md §3, with hookside's deliberate differences from
// spec/README.md (exit codes; Stop reasons count as continuation context).
//
// The package is pure: no I/O, no goroutines, no package state.
package output

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/internal/jsonexact"
	"github.com/hookside/hookside/internal/jsonpos"
	"github.com/hookside/hookside/internal/jsonscan"
)

// Outcome is how one hook run ended, as reported in Merged.Runs (PROTOCOL §3
// `runs[].outcome`).
type Outcome string

// The six outcomes.
const (
	OutcomeSucceeded    Outcome = "succeeded"     // exit 0
	OutcomeBlocked      Outcome = "blocked"       // exit 2
	OutcomeFailed       Outcome = "failed"        // any other exit, signal, spawn error
	OutcomeTimedOut     Outcome = "timed_out"     // killed at its deadline
	OutcomeSkipped      Outcome = "skipped"       // not run (admission, disabled …)
	OutcomeStartedAsync Outcome = "started_async" // `async: true`: no answer awaited
)

// Decisions a hook can give on PreToolUse and PermissionRequest
// (hookSpecificOutput.permissionDecision); they rank deny > ask > allow.
const (
	DecisionAllow = "allow"
	DecisionAsk   = "ask"
	DecisionDeny  = "deny"
)

// ProcessResult is what the runner observed for one hook process. Parse
// reads the fields in this order: Skipped, Async, SpawnError, TimedOut,
// then ExitCode.
type ProcessResult struct {
	// ExitCode is the exit status, or -1 when the process was killed by a
	// signal or never started.
	ExitCode int
	// Stdout and Stderr are the captured bytes, already capped at the hook's
	// maxOutputBytes by the runner; they may hold invalid UTF-8.
	Stdout, Stderr []byte
	// StdoutTruncated and StderrTruncated report that the cap was hit.
	StdoutTruncated, StderrTruncated bool
	// TimedOut reports that the runner killed the process at its deadline.
	TimedOut bool
	// SpawnError is non-empty when the process could not start (ENOENT,
	// EACCES, configuration error such as ${ZCODE_SKILL_DIR}).
	SpawnError string
	// Async reports that the hook was started in the background
	// (`async: true`): its output takes part in no decision.
	Async bool
	// QueuedRunID is the V2 run an async hook was queued as ("" when it
	// was started in the background by the session).
	QueuedRunID string
	// Skipped reports that the hook was not run at all; SkipReason says why
	// (e.g. "blocked_untrusted").
	Skipped    bool
	SkipReason string
}

// Answer is one hook's parsed contribution to an event. Strings are valid
// UTF-8. Only the fields meaningful for the event are set (see Parse).
type Answer struct {
	Outcome Outcome
	// Warnings name parts of the answer that were ignored because they
	// were malformed (a permissionDecision of the wrong case, JSON that
	// does not parse, hookSpecificOutput for another event, a member whose
	// name misspells one Parse reads: see nearMiss); at most one per kind
	// (per misspelt name and level for near misses).
	Warnings []string
	// ExitCode is the exit status; nil when the process did not exit by
	// itself with a status (not started, skipped, async, signal).
	ExitCode *int
	// Decision is "", "allow", "ask" or "deny" (PreToolUse and
	// PermissionRequest only); DecisionReason goes with it.
	Decision       string
	DecisionReason string
	// Block is set when the hook asked the host not to proceed: exit 2,
	// decision:"block", or a deny decision, on any event. What it means for
	// the event is Merge's business (e.g. nothing on PostToolUse; on Stop it
	// is a continuation request, see ContinueRequested).
	Block       bool
	BlockReason string
	// UpdatedInput is hookSpecificOutput.updatedInput, a JSON object, or nil
	// (PreToolUse and PermissionRequest only).
	UpdatedInput json.RawMessage
	// AdditionalContext lists the non-blank contexts this hook gave, in
	// order: hookSpecificOutput.additionalContext, top-level
	// additionalContext, plain-text stdout (SessionStart, UserPromptSubmit),
	// the block reason (Stop).
	AdditionalContext []string
	// Continue is the JSON `continue` value, nil when absent.
	Continue       *bool
	StopReason     string
	SuppressOutput bool
	SystemMessage  string
	// ContinueRequested is set on Stop when the hook asked for one more
	// step: continue:true, decision:"block" or exit 2.
	ContinueRequested bool
	// Error says why the hook failed ("exit code 1", "timed out", the spawn
	// error) or was skipped; empty otherwise.
	Error string
}

// Parse interprets one hook's process result for event, per
// lifecycle-hooks-and-workspace-trust §"进程钩子的协议" and PROTOCOL §3:
//
//   - skipped / async / spawn error / timeout: outcome skipped,
//     started_async, failed, timed_out; the hook says nothing.
//   - exit 0: stdout, trimmed (JavaScript trim: Unicode spaces and BOM), is
//     the answer when it is a JSON object; any other stdout is plain text,
//     which is additional context on SessionStart and UserPromptSubmit and
//     ignored elsewhere.
//   - exit 2: outcome blocked, Block set; the reason is the JSON `reason` of
//     a stdout JSON object, else trimmed stderr. On PreToolUse and
//     PermissionRequest it is also a deny decision; on Stop it requests a
//     continuation and the reason is additional context. Other stdout
//     fields are ignored.
//   - any other exit code (or -1, a signal): outcome failed, silent.
//   - exit 0 with stdout cut at maxOutputBytes inside a JSON answer
//     (cutJSONAnswer): outcome failed, Error "output_truncated: …", silent.
//
// JSON answer fields: continue, stopReason, suppressOutput, systemMessage,
// decision ("block"|"approve"), reason, additionalContext (string; an
// extension), hookSpecificOutput {hookEventName, permissionDecision
// allow|ask|deny, permissionDecisionReason, updatedInput (object),
// additionalContext}. Keys are case-sensitive; unknown keys, and keys whose
// value has the wrong JSON type, are ignored; an unknown key that differs
// from one of these (at its level; on exit 2, from `reason`) only in ASCII
// case, "_" and "-" is still ignored, with a warning naming the key it
// resembles (nearMiss). hookSpecificOutput is ignored
// when its hookEventName is a non-empty string other than event.
// permissionDecision wins over decision; "approve"/"block" map to
// allow/deny on PreToolUse and PermissionRequest. DecisionReason is
// permissionDecisionReason, else `reason`. decision:"block" sets
// Block (with `reason` as BlockReason) on every event; on Stop it also
// requests a continuation, as does continue:true.
//
// Parse never fails and never panics: invalid UTF-8 becomes U+FFFD.
func Parse(event string, r ProcessResult) Answer {
	var a Answer
	if o, e, ok := notRan(r); ok {
		a.Outcome, a.Error = o, e
		return a
	}
	a.ExitCode = exitCodeOf(r)
	switch {
	case r.TimedOut:
		a.Outcome, a.Error = OutcomeTimedOut, "timed out"
	case r.ExitCode == 0 && cutJSONAnswer(r):
		a.Outcome, a.Error = OutcomeFailed, truncatedAnswerError(r)
	default:
		a.Outcome, a.Error = exitOutcome(r.ExitCode)
		switch r.ExitCode {
		case 0:
			parseStdout(event, r.Stdout, &a)
		case 2:
			parseExit2(event, r, &a)
		}
	}
	return a
}

// notRan returns the outcome and Error of a run whose process gave
// nothing to read — skipped, started async, or not spawned (outcome
// failed) — and ok; ok is false when the process ran.
func notRan(r ProcessResult) (o Outcome, err string, ok bool) {
	switch {
	case r.Skipped:
		return OutcomeSkipped, r.SkipReason, true
	case r.Async:
		return OutcomeStartedAsync, "", true
	case r.SpawnError != "":
		return OutcomeFailed, validString(r.SpawnError), true
	}
	return "", "", false
}

// exitCodeOf returns r's exit status, nil when it is negative (the process
// was killed by a signal).
func exitCodeOf(r ProcessResult) *int {
	if r.ExitCode < 0 {
		return nil
	}
	code := r.ExitCode
	return &code
}

// exitOutcome returns the outcome and Error of a process that exited with
// code: 0 succeeded, 2 blocked, negative (a signal) and any other code
// failed.
func exitOutcome(code int) (Outcome, string) {
	switch {
	case code == 0:
		return OutcomeSucceeded, ""
	case code == 2:
		return OutcomeBlocked, ""
	case code < 0:
		return OutcomeFailed, "terminated by a signal"
	}
	return OutcomeFailed, "exit code " + strconv.Itoa(code)
}

// CodeCancelled starts the Error of a failed run whose hook was killed (or
// kept from starting) because its request was cancelled — by the host
// ($/cancelRequest) or by the server's shutdown — rather than failing by
// itself: "cancelled: <reason>" (set by the runner, which knows why).
const CodeCancelled = "cancelled"

// CodeOutputTruncated starts the Error of a run whose JSON answer was cut
// at maxOutputBytes (see cutJSONAnswer).
const CodeOutputTruncated = "output_truncated"

// cutJSONAnswer reports that stdout hit the maxOutputBytes cap while it
// held a JSON answer (it starts with "{") that the cut left unparsable. Read
// as plain text, a deny would silently become "no opinion"; such a run is
// failed instead (outcome failed, Error CodeOutputTruncated…): a failed hook
// says nothing, as every failed hook (lifecycle-hooks-and-workspace-trust
// §"进程钩子的协议": stdout and stderr are captured up to maxOutputBytes;
// 钩子失败…这个钩子等于没说话), but the run and the failure warning say why.
func cutJSONAnswer(r ProcessResult) bool {
	if !r.StdoutTruncated {
		return false
	}
	out := trim(r.Stdout)
	if len(out) == 0 || out[0] != '{' {
		return false
	}
	_, ok := parseObject(out)
	return !ok
}

// capNotice is the notice of a run whose stdout or stderr reached the
// output cap ("" when neither did): "output_truncated: stdout reached the
// output cap of N bytes (maxOutputBytes); the rest was discarded" (both
// streams named when both did). A stream that reached the cap holds
// exactly the cap's bytes, so N is its length.
func capNotice(r ProcessResult) string {
	var parts []string
	if r.StdoutTruncated {
		parts = append(parts, fmt.Sprintf("stdout reached the output cap of %d bytes", len(r.Stdout)))
	}
	if r.StderrTruncated {
		parts = append(parts, fmt.Sprintf("stderr reached the output cap of %d bytes", len(r.Stderr)))
	}
	if parts == nil {
		return ""
	}
	return CodeOutputTruncated + ": " + strings.Join(parts, " and ") + " (maxOutputBytes); the rest was discarded"
}

func truncatedAnswerError(r ProcessResult) string {
	return fmt.Sprintf("%s: stdout reached maxOutputBytes (%d bytes kept) inside its JSON answer; the answer is ignored — raise the hook's maxOutputBytes", CodeOutputTruncated, len(r.Stdout))
}

func parseExit2(event string, r ProcessResult, a *Answer) {
	var reason string
	out := trim(r.Stdout)
	if obj, ok := parseObject(out); ok {
		if w := duplicateMember(out); w != "" {
			a.warn(w)
		}
		for it := obj; ; {
			key, val, ok := it.Next()
			if !ok {
				break
			}
			if keyIs(key, "reason") {
				reason, _ = jsonString(val)
			} else if name, k := rawNearMiss(key, exit2Names); name != "" {
				a.Warnings = addNearMiss(a.Warnings, levelAnswer, k, name)
			}
		}
	}
	if isBlank(reason) {
		reason = validString(string(trim(r.Stderr)))
	}
	a.Block, a.BlockReason = true, reason
	switch event {
	case hook.PreToolUse, hook.PermissionRequest:
		a.Decision, a.DecisionReason = DecisionDeny, reason
	case hook.Stop:
		a.ContinueRequested = true
		a.addContext(reason)
	}
}

// answerFields holds the raw JSON values of the answer keys Parse reads.
type answerFields struct {
	cont, stopReason, suppressOutput, systemMessage, decision, reason, additionalContext []byte
	// hookSpecificOutput members
	hookEventName, permissionDecision, permissionDecisionReason, updatedInput, hsoContext []byte
}

// parseStdout reads the stdout of a hook that exited 0 (see Parse).
func parseStdout(event string, stdout []byte, a *Answer) {
	out := trim(stdout)
	obj, ok := parseObject(out)
	if !ok {
		if len(out) > 0 && (out[0] == '{' || out[0] == '[') {
			if w := severalValues(out); w != "" {
				a.warn(w)
			} else if w := trailingText(stdout, out); w != "" {
				a.warn(w)
			} else {
				a.warn("stdout looks like JSON but is not a JSON object: " + whyNotObject(stdout, out) + ": treated as plain text")
			}
		} else if w := jsonAfterText(out); w != "" {
			a.warn(w)
		}
		if event == hook.SessionStart || event == hook.UserPromptSubmit {
			a.addContext(validString(string(out)))
		}
		return
	}
	if w := duplicateMember(out); w != "" {
		a.warn(w)
	}
	var f answerFields
	var hso []byte
	for {
		key, val, ok := obj.Next()
		if !ok {
			break
		}
		switch { // duplicate keys: the last wins, as in JSON.parse
		case keyIs(key, "continue"):
			f.cont = val
		case keyIs(key, "stopReason"):
			f.stopReason = val
		case keyIs(key, "suppressOutput"):
			f.suppressOutput = val
		case keyIs(key, "systemMessage"):
			f.systemMessage = val
		case keyIs(key, "decision"):
			f.decision = val
		case keyIs(key, "reason"):
			f.reason = val
		case keyIs(key, "additionalContext"):
			f.additionalContext = val
		case keyIs(key, "hookSpecificOutput"):
			hso = val
		default:
			if name, k := rawNearMiss(key, answerNames); name != "" {
				a.Warnings = addNearMiss(a.Warnings, levelAnswer, k, name)
			}
		}
	}
	if len(hso) > 0 && hso[0] == '{' {
		nWarnings := len(a.Warnings)
		for it, _ := jsonscan.Object(hso); ; {
			key, val, ok := it.Next()
			if !ok {
				break
			}
			switch {
			case keyIs(key, "hookEventName"):
				f.hookEventName = val
			case keyIs(key, "permissionDecision"):
				f.permissionDecision = val
			case keyIs(key, "permissionDecisionReason"):
				f.permissionDecisionReason = val
			case keyIs(key, "updatedInput"):
				f.updatedInput = val
			case keyIs(key, "additionalContext"):
				f.hsoContext = val
			default:
				if name, k := rawNearMiss(key, hsoNames); name != "" {
					a.Warnings = addNearMiss(a.Warnings, levelHSO, k, name)
				}
			}
		}
		// hookSpecificOutput for another event is ignored as a whole (its
		// members' names too).
		if name, _ := jsonString(f.hookEventName); name != "" && name != event {
			a.Warnings = a.Warnings[:nWarnings]
			a.warn(fmt.Sprintf("hookSpecificOutput.hookEventName %q is not %q: hookSpecificOutput ignored", name, event))
			f.permissionDecision, f.permissionDecisionReason, f.updatedInput, f.hsoContext = nil, nil, nil, nil
		}
	}

	for _, m := range [...]struct {
		name, want string
		raw        []byte
	}{
		{"continue", "a boolean", f.cont}, {"suppressOutput", "a boolean", f.suppressOutput},
		{"stopReason", "a string", f.stopReason}, {"systemMessage", "a string", f.systemMessage},
		{"reason", "a string", f.reason}, {"additionalContext", "a string", f.additionalContext},
		{"hookSpecificOutput.permissionDecisionReason", "a string", f.permissionDecisionReason},
		{"hookSpecificOutput.additionalContext", "a string", f.hsoContext},
		{"hookSpecificOutput.updatedInput", "an object", f.updatedInput},
	} {
		if got := jsonpos.ValueKindName(m.raw); m.raw != nil && got != m.want && got != "null" {
			a.warn(fmt.Sprintf("%s must be %s, got %s: ignored", m.name, m.want, got))
		}
	}
	if v, ok := jsonBool(f.cont); ok {
		a.Continue = &v
	}
	a.StopReason, _ = jsonString(f.stopReason)
	a.SuppressOutput, _ = jsonBool(f.suppressOutput)
	a.SystemMessage, _ = jsonString(f.systemMessage)
	decision, _ := jsonString(f.decision)
	reason, _ := jsonString(f.reason)
	permission, _ := jsonString(f.permissionDecision)
	if f.decision != nil && string(f.decision) != "null" && decision != "approve" && decision != "block" {
		a.warn(fmt.Sprintf("decision %s is not \"approve\" or \"block\": ignored", validString(string(f.decision))))
	}
	if f.permissionDecision != nil && string(f.permissionDecision) != "null" && permission != DecisionAllow && permission != DecisionAsk && permission != DecisionDeny {
		a.warn(fmt.Sprintf("permissionDecision %s is not \"allow\", \"ask\" or \"deny\" (case matters): ignored", validString(string(f.permissionDecision))))
	}
	if ctx, ok := jsonString(f.hsoContext); ok {
		a.addContext(ctx)
	}
	if ctx, ok := jsonString(f.additionalContext); ok {
		a.addContext(ctx)
	}

	tool := event == hook.PreToolUse || event == hook.PermissionRequest
	if event == hook.PostToolUse || event == hook.PostToolUseFailure {
		// PROTOCOL.md §3: decision approve/block on tool events maps to
		// allow/deny. After the tool ran it blocks nothing (Merge); the
		// decision and reason are reported to the host.
		switch decision {
		case "approve":
			a.Decision, a.DecisionReason = DecisionAllow, reason
		case "block":
			a.Decision, a.DecisionReason = DecisionDeny, reason
		}
	}
	if tool {
		switch {
		case permission == DecisionAllow || permission == DecisionAsk || permission == DecisionDeny:
			a.Decision = permission
			a.DecisionReason, _ = jsonString(f.permissionDecisionReason)
			if isBlank(a.DecisionReason) {
				a.DecisionReason = reason
			}
		case decision == "approve":
			a.Decision, a.DecisionReason = DecisionAllow, reason
		case decision == "block":
			a.Decision, a.DecisionReason = DecisionDeny, reason
		}
		if len(f.updatedInput) > 0 && f.updatedInput[0] == '{' {
			// A copy: f aliases the runner's stdout buffer.
			a.UpdatedInput = bytes.ToValidUTF8(f.updatedInput, []byte("\uFFFD"))
		}
	}
	switch {
	case tool:
		// The decision (permissionDecision first) is the whole verdict.
		if a.Decision == DecisionDeny {
			a.Block, a.BlockReason = true, a.DecisionReason
		}
	case decision == "block":
		a.Block, a.BlockReason = true, reason
	}
	if event == hook.Stop {
		if decision == "block" || (a.Continue != nil && *a.Continue) {
			a.ContinueRequested = true
		}
		if decision == "block" { // spec/README.md: the reason is continuation context
			a.addContext(reason)
		}
		if a.Continue != nil && !*a.Continue {
			// PROTOCOL.md §3: continue/stopReason apply to the events
			// other than Stop, whose turn ends unless a hook asks for a
			// continuation; the answer is kept as the spec has it, and
			// the hook's author learns it was not read.
			a.warn("continue:false (and stopReason) is not read on Stop: the turn ends anyway unless a hook asks to continue (continue:true or decision \"block\"); ignored")
		}
	}
}

// warn records a problem with the hook's answer that made hookside ignore
// part of it (the hook still succeeded; the host sees it in runs[].warnings).
func (a *Answer) warn(msg string) {
	a.Warnings = append(a.Warnings, msg)
}

func (a *Answer) addContext(s string) {
	if !isBlank(s) {
		a.AdditionalContext = append(a.AdditionalContext, s)
	}
}

// trim removes what JavaScript's String.prototype.trim removes: Unicode
// white space and U+FEFF.
func trim(b []byte) []byte {
	return bytes.TrimFunc(b, isJSSpace)
}

func isJSSpace(r rune) bool { return unicode.IsSpace(r) || r == '\uFEFF' }

func isBlank(s string) bool { return strings.TrimFunc(s, isJSSpace) == "" }

func validString(s string) string { return strings.ToValidUTF8(s, "\uFFFD") }

// parseObject returns an iterator over the members of b when b is exactly
// one JSON object (internal/jsonscan; validity checked here).
func parseObject(b []byte) (jsonscan.Members, bool) {
	if len(b) == 0 || b[0] != '{' || !json.Valid(b) {
		return jsonscan.Members{}, false
	}
	return jsonscan.Object(b)
}

// keyIs reports whether the raw JSON string key decodes to name (exact,
// case-sensitive). It does not allocate for keys without escapes.
func keyIs(key []byte, name string) bool {
	if len(key) < 2 {
		return false
	}
	inner := key[1 : len(key)-1]
	if bytes.IndexByte(inner, '\\') < 0 {
		return string(inner) == name
	}
	s, ok := jsonString(key)
	return ok && s == name
}

// jsonString returns raw as a string when it is a JSON string.
func jsonString(raw json.RawMessage) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	inner := raw[1 : len(raw)-1]
	if bytes.IndexByte(inner, '\\') < 0 && utf8.Valid(inner) {
		return string(inner), true
	}
	var s string // escapes or invalid UTF-8 (decoded as U+FFFD)
	if err := jsonexact.Unmarshal(raw, &s); err != nil {
		return "", false
	}
	return s, true
}

// jsonBool returns raw as a bool when it is JSON true or false.
func jsonBool(raw json.RawMessage) (bool, bool) {
	switch string(raw) {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	return false, false
}

// duplicateMember is the run warning of a JSON answer (valid JSON) that
// names a member twice in one object, "" when none does: the last value is
// used, as JSON.parse (Claude Code's reader) uses it, but the hook's author
// or another reader of the same bytes could go by the first
// (docs/protocol.md §1 refuses such frames for that reason; an answer is
// read, with a warning). One pass; no allocation for small objects.
func duplicateMember(out []byte) string {
	if path, dup := jsonscan.Duplicate(out); dup {
		return fmt.Sprintf("duplicate member %q in the answer: the name appears twice in one object; the last value is used", path)
	}
	return ""
}

// jsonAfterText is the run warning of a plain-text stdout (out, trimmed,
// not one JSON object) that ends with a JSON object after other output
// (an echo, a shell profile's greeting; on its own lines or the same one),
// which is not read, since the answer is the whole of stdout. "" otherwise.
// The object is looked for from each of the first maxJSONStarts "{" of
// out: the work is bounded by that many passes over it.
func jsonAfterText(out []byte) string {
	const maxJSONStarts = 8
	for i, n := 0, 0; n < maxJSONStarts; n++ {
		j := bytes.IndexByte(out[i:], '{')
		if j < 0 {
			return ""
		}
		i += j
		if i > 0 && json.Valid(out[i:]) {
			return "stdout ends with a JSON object after other output: the answer is the whole of stdout, so it was read as plain text; print only the JSON (send the rest to stderr)"
		}
		i++
	}
	return ""
}
