package output

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/hookside/hookside/internal/hook"
)

// ModelContextLimit is the length at which session-event model context is
// cut, in JavaScript characters (UTF-16 code units; see CutUTF16)
// (lifecycle-hooks-and-workspace-trust §"钩子输出怎样进模型上下文").
const ModelContextLimit = 24000

// ResponsePreviewLimit is the length of a Stop's responsePreview, in
// JavaScript characters (UTF-16 code units; see ResponsePreview)
// (lifecycle-hooks-and-workspace-trust §"进程钩子的协议": "截到 4000 字符").
const ResponsePreviewLimit = 4000

// MaxStopContinuations is the default number of Stop continuations granted
// per turn (MAX_STOP_HOOK_CONTINUATIONS,
// lifecycle-hooks-and-workspace-trust §"Stop 与续跑上限").
const MaxStopContinuations = 3

// Run is one hook's record in the merged result (PROTOCOL §3 `runs`).
// ExitCode is null when the process did not exit with a status; DurationMs
// is wall time in milliseconds; Reason is the block reason of an exit-2 run
// (reported, never shown to the model on PostToolUse and friends).
type Run struct {
	RunID           string  `json:"runId"`
	HookID          string  `json:"hookId"`
	Source          string  `json:"source"`
	Outcome         Outcome `json:"outcome"`
	ExitCode        *int    `json:"exitCode"`
	DurationMs      int64   `json:"durationMs"`
	StdoutTruncated bool    `json:"stdoutTruncated"`
	StderrTruncated bool    `json:"stderrTruncated"`
	Error           string  `json:"error,omitempty"`
	// Reason: why the hook was skipped, or (blocked) its block reason cut
	// to PreviewChars characters ("…" marks a cut; RunReason): the merged
	// blockReason carries the full text once.
	Reason string `json:"reason,omitempty"`
	// Warnings: parts of the hook's answer that were ignored (Answer.Warnings).
	Warnings []string `json:"warnings,omitempty"`
	// QueuedRunID: the V2 run (v2/runs/get) an async hook was queued as.
	QueuedRunID string `json:"queuedRunId,omitempty"`
}

// NewRun builds the Run record of one hook from its process result and its
// parsed answer (Reason is set for blocked runs only).
func NewRun(runID, hookID, source string, durationMs int64, r ProcessResult, a Answer) Run {
	run := Run{
		RunID: runID, HookID: hookID, Source: source,
		Outcome: a.Outcome, ExitCode: a.ExitCode, DurationMs: durationMs,
		StdoutTruncated: r.StdoutTruncated, StderrTruncated: r.StderrTruncated,
		Error: a.Error, Warnings: a.Warnings,
	}
	if a.Outcome == OutcomeBlocked {
		run.Reason = RunReason(a.BlockReason)
	}
	return run
}

// RunReason is a blocked run's Run.Reason: the block reason cut to
// PreviewChars characters, "…" appended when cut. A hook that blocks with
// megabytes of stderr is then copied whole only into the merged
// blockReason (and, on a claude-profile PreToolUse, the
// permissionDecisionReason that routes it), not once more per run.
func RunReason(blockReason string) string {
	if cut := cutRunes(blockReason, PreviewChars); len(cut) < len(blockReason) {
		return cut + "…"
	}
	return blockReason
}

// StopState is the Stop continuation verdict (PROTOCOL §3 `stop`,
// lifecycle-hooks-and-workspace-trust §"Stop 与续跑上限"). Continuation is
// the text to append to the history when ContinueTurn is true (the Stop
// ModelContext), else null. Limit is the per-turn maximum; StopHookActive is
// true once a continuation was granted in this turn.
type StopState struct {
	ContinueTurn   bool    `json:"continueTurn"`
	Continuation   *string `json:"continuation"`
	Limit          int     `json:"limit"`
	StopHookActive bool    `json:"stopHookActive"`
}

// Merged is the merged result of all hooks of one event (PROTOCOL §3, json
// tags are the wire names). Nullable fields are pointers or nil
// RawMessage; AdditionalContext, SystemMessages and Runs are never null.
type Merged struct {
	Event          string          `json:"event"`
	Decision       *string         `json:"decision"`
	DecisionReason *string         `json:"decisionReason"`
	Blocked        bool            `json:"blocked"`
	BlockReason    *string         `json:"blockReason"`
	UpdatedInput   json.RawMessage `json:"updatedInput"`
	// AdditionalContext is every non-blank context in registration order.
	AdditionalContext []string `json:"additionalContext"`
	// ModelContext is AdditionalContext formatted by ModelContext.
	ModelContext   *string    `json:"modelContext"`
	Continue       bool       `json:"continue"`
	StopReason     *string    `json:"stopReason"`
	SystemMessages []string   `json:"systemMessages"`
	Stop           *StopState `json:"stop,omitempty"`
	Runs           []Run      `json:"runs"`
	// Skipped, when set, says why no hook of the event ran at all (e.g.
	// "session_start_already_ran": SessionStart runs once per session).
	Skipped string `json:"skipped,omitempty"`
	// TrustNotice, on PreToolUse and PermissionRequest, names the workspace
	// guards that were not admitted (pending, stale, revoked or behind a
	// corrupt trust file), so the host can tell the user that what they
	// guard went unchecked and which review to run; nil when none.
	TrustNotice *TrustNotice `json:"trustNotice,omitempty"`
}

// TrustNotice is Merged.TrustNotice: a message for people, the hooks not
// admitted, the shell command and the method that review them.
type TrustNotice struct {
	Message       string        `json:"message"`
	Hooks         []NoticedHook `json:"hooks"`
	ReviewCommand string        `json:"reviewCommand"`
	ReviewMethod  string        `json:"reviewMethod"`
}

// NoticedHook is one hook of a TrustNotice: its id, declaration digest and
// trust state with the reason.
type NoticedHook struct {
	HookID     string `json:"hookId"`
	Digest     string `json:"digest"`
	TrustState string `json:"trustState"`
	Reason     string `json:"reason,omitempty"`
}

// Merge combines the answers of one event, given in registration order, per
// lifecycle-hooks-and-workspace-trust §"配置格式与默认值" (合并) and PROTOCOL §3:
//
//   - Decision: deny > ask > allow over all answers; DecisionReason is the
//     first non-blank reason among the answers holding the winning decision.
//   - Blocked: PreToolUse when any answer blocks (deny, exit 2,
//     decision:"block"); PermissionRequest when any answer denies;
//     UserPromptSubmit when any answer blocks (exit 2, decision:"block").
//     Never on other events: an exit 2 on PostToolUse, PostToolUseFailure
//     or SessionStart only marks its run blocked, and on Stop it is a
//     continuation request (see DecideStop). BlockReason is the first
//     non-blank reason among the blocking answers.
//   - UpdatedInput: the last answer that gave one (PreToolUse and
//     PermissionRequest only), else null.
//   - AdditionalContext: every non-blank context, registration order;
//     ModelContext is its ModelContext(event, …).
//   - Continue: false when any answer said continue:false (not on Stop);
//     StopReason is the first non-blank stopReason among those.
//   - SystemMessages: every non-blank systemMessage.
//
// Runs is left empty for the runner to fill (see NewRun); Stop is left nil
// (see DecideStop).
func Merge(event string, answers []Answer) Merged {
	return MergeFor(hook.Zcode, event, answers)
}

// MergeFor is Merge with the block rule of dialect d. When
// d.BlockOnEveryEvent (spark, hooks-v2-handbook §1.3) an answer that blocks
// (exit 2, decision:"block", a deny) makes the merged result blocked on
// every event, with its reason as BlockReason, and on the tool events
// (isToolEvent: PreToolUse, PermissionRequest, PostToolUse,
// PostToolUseFailure) a block is a deny with that reason, so exit 2
// and decision:"block" give the same merged result. A nil d is zcode.
func MergeFor(d *hook.Dialect, event string, answers []Answer) Merged {
	every := d != nil && d.BlockOnEveryEvent
	m := Merged{
		Event:             event,
		Continue:          true,
		AdditionalContext: []string{},
		SystemMessages:    []string{},
		Runs:              []Run{},
	}
	var decision, decisionReason, blockReason, stopReason string
	rank := 0
	for i := range answers {
		a := &answers[i]
		dec, dr := a.Decision, a.DecisionReason
		if every && a.Block && isToolEvent(event) {
			dec, dr = DecisionDeny, a.BlockReason
		}
		if r := decisionRank(dec); r > rank {
			rank, decision, decisionReason = r, dec, dr
		} else if r == rank && r > 0 && isBlank(decisionReason) {
			decisionReason = dr
		}
		if blocks(event, a, every) {
			m.Blocked = true
			if isBlank(blockReason) {
				blockReason = a.BlockReason
			}
		}
		if a.UpdatedInput != nil && (event == hook.PreToolUse || event == hook.PermissionRequest) {
			m.UpdatedInput = a.UpdatedInput
		}
		for _, c := range a.AdditionalContext {
			if !isBlank(c) {
				m.AdditionalContext = append(m.AdditionalContext, c)
			}
		}
		if event != hook.Stop && a.Continue != nil && !*a.Continue {
			m.Continue = false
			if isBlank(stopReason) {
				stopReason = a.StopReason
			}
		}
		if !isBlank(a.SystemMessage) {
			m.SystemMessages = append(m.SystemMessages, a.SystemMessage)
		}
	}
	if rank > 0 {
		m.Decision = &decision
		m.DecisionReason = nonBlank(decisionReason)
	}
	if m.Blocked {
		m.BlockReason = nonBlank(blockReason)
	}
	m.StopReason = nonBlank(stopReason)
	m.ModelContext = ModelContext(event, m.AdditionalContext)
	return m
}

func decisionRank(d string) int {
	switch d {
	case DecisionAllow:
		return 1
	case DecisionAsk:
		return 2
	case DecisionDeny:
		return 3
	}
	return 0
}

// blocks reports whether answer a stops the host on event (PROTOCOL §3
// `blocked`); with every (Dialect.BlockOnEveryEvent) any block or deny
// does, on every event.
func blocks(event string, a *Answer, every bool) bool {
	if every {
		return a.Block || a.Decision == DecisionDeny
	}
	switch event {
	case hook.PreToolUse:
		return a.Block || a.Decision == DecisionDeny
	case hook.PermissionRequest:
		return a.Decision == DecisionDeny
	case hook.UserPromptSubmit:
		return a.Block
	}
	return false
}

func nonBlank(s string) *string {
	if isBlank(s) {
		return nil
	}
	return &s
}

// DecideStop applies the three Stop conditions of
// lifecycle-hooks-and-workspace-trust §"Stop 与续跑上限": some answer has
// ContinueRequested, merged.AdditionalContext is non-empty (with hookside's
// rule that a decision:"block" reason and exit-2 stderr count, see Parse),
// and granted < limit, where granted is the number of continuations already
// granted in this turn (sessionId+turnId) and limit the per-turn maximum
// (MaxStopContinuations by default; limit <= 0 grants none). Continuation is
// ModelContext(Stop, merged.AdditionalContext) when the turn continues, else
// nil. StopHookActive is granted > 0.
func DecideStop(answers []Answer, merged Merged, granted, limit int) StopState {
	st := StopState{Limit: limit, StopHookActive: granted > 0}
	if granted >= limit {
		return st
	}
	for i := range answers {
		if answers[i].ContinueRequested {
			if c := ModelContext(hook.Stop, merged.AdditionalContext); c != nil {
				st.ContinueTurn, st.Continuation = true, c
			}
			break
		}
	}
	return st
}

// ModelContext formats contexts (blank entries skipped) as the text handed to
// the model, per lifecycle-hooks-and-workspace-trust §"钩子输出怎样进模型上下文";
// nil when no entry is left.
//
// Tool events (PreToolUse, PermissionRequest, PostToolUse,
// PostToolUseFailure): a header line and one numbered entry per context,
// "#<n> " then the context as given (it may span lines), joined by "\n":
//
//	[Hook additional context]
//	#1 first
//	#2 second
//
// No limit is applied: the host cuts it to the tool's model byte budget.
//
// Every other event (SessionStart, UserPromptSubmit, Stop): the header
// "<Event> hook additional context:" and the contexts, joined by "\n":
//
//	Stop hook additional context:
//	first
//	second
//
// the whole cut to ModelContextLimit UTF-16 code units by CutUTF16 (header
// included, no marker added).
func ModelContext(event string, contexts []string) *string {
	if !slices.ContainsFunc(contexts, func(c string) bool { return !isBlank(c) }) {
		return nil
	}
	var b strings.Builder
	tool := isToolEvent(event)
	if tool {
		b.WriteString("[Hook additional context]")
		i := 0
		for _, c := range contexts {
			if isBlank(c) {
				continue
			}
			i++
			b.WriteString("\n#")
			b.WriteString(strconv.Itoa(i))
			b.WriteByte(' ')
			b.WriteString(c)
		}
	} else {
		b.WriteString(event)
		b.WriteString(" hook additional context:")
		for _, c := range contexts {
			if !isBlank(c) {
				b.WriteByte('\n')
				b.WriteString(c)
			}
		}
	}
	s := strings.ToValidUTF8(b.String(), "\uFFFD")
	if !tool {
		s = CutUTF16(s, ModelContextLimit)
	}
	return &s
}

func isToolEvent(event string) bool {
	switch event {
	case hook.PreToolUse, hook.PermissionRequest, hook.PostToolUse, hook.PostToolUseFailure:
		return true
	}
	return false
}

// ResponsePreview is a Stop's responsePreview: responseText cut to
// ResponsePreviewLimit UTF-16 code units by CutUTF16.
func ResponsePreview(responseText string) string {
	return CutUTF16(responseText, ResponsePreviewLimit)
}

// CutUTF16 returns the longest prefix of s that is at most n JavaScript
// characters long, counting as String.prototype.length does (UTF-16 code
// units: a character outside the Basic Multilingual Plane counts 2). A
// character that would be split, such as a surrogate pair straddling the
// cut, is left out whole; each byte of invalid UTF-8 counts 1 (it becomes
// U+FFFD when encoded). s itself when it is short enough.
func CutUTF16(s string, n int) string {
	units := 0
	for pos, r := range s {
		w := 1
		if r > 0xFFFF {
			w = 2
		}
		if units+w > n {
			return s[:pos]
		}
		units += w
	}
	return s
}

// cutRunes returns the first n code points (characters) of s; s itself
// when it has no more than n.
func cutRunes(s string, n int) string {
	if len(s) <= n { // fewer bytes than n: fewer runes too
		return s
	}
	i := 0
	for pos := range s {
		if i == n {
			return s[:pos]
		}
		i++
	}
	return s
}
