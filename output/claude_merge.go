package output

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/internal/jsonexact"
)

// ClaudeStop is the Stop / SubagentStop verdict under Claude Code's rules
// (https://code.claude.com/docs/en/hooks#stop-decision-control):
// ContinueTurn when some hook blocked (exit 2, decision:"block") or gave
// additionalContext, `continue:false` did not stop Claude, and fewer than
// Limit consecutive blocks were already granted. Continuation is the text
// Claude gets (block reasons, then contexts, one per line); Consecutive is
// the number of consecutive blocks including this one when it continues.
type ClaudeStop struct {
	ContinueTurn bool    `json:"continueTurn"`
	Continuation *string `json:"continuation"`
	Consecutive  int     `json:"consecutive"`
	Limit        int     `json:"limit"`
}

// ClaudeMerged is the merged answer of every handler of one Claude Code
// event: what the host needs to act as Claude Code would. Event-specific
// fields are omitted when no hook set them.
type ClaudeMerged struct {
	Event string `json:"event"`
	// Blocked: the event's action does not happen (PreToolUse deny,
	// PermissionRequest deny, a blocked prompt, expansion, compaction,
	// config change, task creation or completion, a teammate kept
	// working, a stopped tool loop, a denied elicitation, a failed
	// worktree). On Stop and SubagentStop see Stop. BlockReason is the
	// first non-blank block message.
	Blocked     bool    `json:"blocked"`
	BlockReason *string `json:"blockReason"`
	// PermissionDecision (PreToolUse): deny > defer > ask > allow; the
	// reason is the first non-blank one of the winning decision.
	PermissionDecision       *string         `json:"permissionDecision,omitempty"`
	PermissionDecisionReason *string         `json:"permissionDecisionReason,omitempty"`
	UpdatedInput             json.RawMessage `json:"updatedInput,omitempty"`
	// Permission (PermissionRequest): the first deny, else an allow whose
	// updatedInput is the last given and whose updatedPermissions are all
	// allows' entries concatenated.
	Permission *ClaudePermission `json:"permission,omitempty"`
	// Feedback: text for Claude next to the tool result (PostToolUse,
	// PostToolUseFailure), one entry per hook.
	Feedback             []string        `json:"feedback,omitempty"`
	UpdatedToolOutput    json.RawMessage `json:"updatedToolOutput,omitempty"`
	UpdatedMCPToolOutput json.RawMessage `json:"updatedMCPToolOutput,omitempty"`
	ClassifierContext    *string         `json:"classifierContext,omitempty"`
	// AdditionalContext: every non-blank context, registration order.
	AdditionalContext []string `json:"additionalContext"`
	// Continue is false when a hook said continue:false on an event that
	// honours it; StopReason is the first stopReason of those.
	Continue       bool     `json:"continue"`
	StopReason     *string  `json:"stopReason"`
	SystemMessages []string `json:"systemMessages"`
	// HookErrors are the non-blocking error notices for the user.
	HookErrors             []string           `json:"hookErrors"`
	TerminalSequences      []string           `json:"terminalSequences,omitempty"`
	SessionTitle           *string            `json:"sessionTitle,omitempty"`
	InitialUserMessage     *string            `json:"initialUserMessage,omitempty"`
	SuppressOriginalPrompt bool               `json:"suppressOriginalPrompt,omitempty"`
	ReloadSkills           bool               `json:"reloadSkills,omitempty"`
	WatchPaths             []string           `json:"watchPaths,omitempty"`
	Retry                  bool               `json:"retry,omitempty"`
	DisplayContent         *string            `json:"displayContent,omitempty"`
	WorktreePath           *string            `json:"worktreePath,omitempty"`
	Elicitation            *ClaudeElicitation `json:"elicitation,omitempty"`
	Stop                   *ClaudeStop        `json:"stop,omitempty"`
	// EnvExports are the `export` lines hooks wrote to CLAUDE_ENV_FILE
	// (filled by the runner).
	EnvExports []string `json:"envExports,omitempty"`
	// AsyncResults are the results of async handlers of this session that
	// finished since the previous reply, for Claude on this turn.
	AsyncResults []ClaudeAsyncResult `json:"asyncResults,omitempty"`
	// TrustNotice, on PreToolUse and PermissionRequest, names the workspace
	// guards that did not run because they are not (or no longer) trusted
	// (filled by the runner; the same shape as Merged.TrustNotice).
	TrustNotice *TrustNotice `json:"trustNotice,omitempty"`
	// DisabledNotice names the workspace settings file whose
	// disableAllHooks: true kept user or plugin hooks of this event from
	// running (filled by the runner), for the host to show.
	DisabledNotice *ClaudeDisabledNotice `json:"disabledNotice,omitempty"`
	Runs           []Run                 `json:"runs"`
}

// ClaudeDisabledNotice is ClaudeMerged.DisabledNotice: a message for
// people, the workspace file and how many hooks it switched off.
type ClaudeDisabledNotice struct {
	Message string `json:"message"`
	File    string `json:"file"`
	Skipped int    `json:"skipped"`
}

// MergeClaude combines the answers of one event, in registration order,
// per the reference's per-event tables. matchValue is the event's matcher
// field value: ConfigChange's source (a policy_settings change is never
// blocked) and SessionStart's source (sessionTitle is ignored on "clear"
// and "compact"). Claude Code runs hooks in parallel and takes the last
// updatedInput to finish; hookside takes the last in registration order,
// so the result does not depend on timing. Runs is left empty for the
// runner; Stop is set on Stop and SubagentStop with no grant
// (DecideClaudeStop).
func MergeClaude(event, matchValue string, answers []ClaudeAnswer) ClaudeMerged {
	m := ClaudeMerged{
		Event: event, Continue: true,
		AdditionalContext: []string{}, SystemMessages: []string{}, HookErrors: []string{}, Runs: []Run{},
	}
	var blockReason, stopReason, pdReason string
	rank := 0
	var deny, allow *ClaudePermission
	var watch []string
	watchSet := false
	for i := range answers {
		a := &answers[i]
		if a.Block {
			m.Blocked = true
			blockReason = firstNonBlank(blockReason, a.BlockReason)
		}
		if r := claudeDecisionRank(a.PermissionDecision); r > rank {
			rank, pdReason = r, a.PermissionDecisionReason
		} else if r == rank && r > 0 && isBlank(pdReason) {
			pdReason = a.PermissionDecisionReason
		}
		if a.UpdatedInput != nil {
			m.UpdatedInput = a.UpdatedInput
		}
		if p := a.Permission; p != nil {
			switch p.Behavior {
			case "deny":
				if deny == nil {
					deny = p
				}
			case "allow":
				if allow == nil {
					allow = &ClaudePermission{Behavior: "allow"}
				}
				if p.UpdatedInput != nil {
					allow.UpdatedInput = p.UpdatedInput
				}
				allow.UpdatedPermissions = concatArrays(allow.UpdatedPermissions, p.UpdatedPermissions)
			}
		}
		if !isBlank(a.Feedback) {
			m.Feedback = append(m.Feedback, a.Feedback)
		}
		if a.UpdatedToolOutput != nil {
			m.UpdatedToolOutput = a.UpdatedToolOutput
		}
		if a.UpdatedMCPToolOutput != nil {
			m.UpdatedMCPToolOutput = a.UpdatedMCPToolOutput
		}
		if !isBlank(a.ClassifierContext) {
			c := joinNonBlank(derefStr(m.ClassifierContext), a.ClassifierContext)
			m.ClassifierContext = &c
		}
		for _, c := range a.AdditionalContext {
			if !isBlank(c) {
				m.AdditionalContext = append(m.AdditionalContext, c)
			}
		}
		if a.Continue != nil && !*a.Continue {
			m.Continue = false
			stopReason = firstNonBlank(stopReason, a.StopReason)
		}
		if !isBlank(a.SystemMessage) {
			m.SystemMessages = append(m.SystemMessages, a.SystemMessage)
		}
		if !isBlank(a.HookError) {
			m.HookErrors = append(m.HookErrors, a.HookError)
		}
		if a.CapNotice != "" {
			m.HookErrors = append(m.HookErrors, a.CapNotice)
		}
		if a.TerminalSequence != "" {
			m.TerminalSequences = append(m.TerminalSequences, a.TerminalSequence)
		}
		if a.SessionTitle != nil {
			m.SessionTitle = a.SessionTitle
		}
		if !isBlank(a.InitialUserMessage) {
			s := joinNonBlank(derefStr(m.InitialUserMessage), a.InitialUserMessage)
			m.InitialUserMessage = &s
		}
		m.SuppressOriginalPrompt = m.SuppressOriginalPrompt || a.SuppressOriginalPrompt
		m.ReloadSkills = m.ReloadSkills || a.ReloadSkills
		if a.WatchPaths != nil {
			watchSet = true
			watch = append(watch, a.WatchPaths...)
		}
		m.Retry = m.Retry || a.Retry
		if a.DisplayContent != nil {
			m.DisplayContent = a.DisplayContent
		}
		if a.WorktreePath != "" {
			p := a.WorktreePath
			m.WorktreePath = &p
		}
		if a.Elicitation != nil {
			m.Elicitation = a.Elicitation
		}
	}
	switch event {
	case hook.PreToolUse:
		if rank > 0 {
			d := [...]string{"", DecisionAllow, DecisionAsk, DecisionDefer, DecisionDeny}[rank]
			m.PermissionDecision = &d
			m.PermissionDecisionReason = nonBlank(pdReason)
			m.Blocked = d == DecisionDeny
			if d == DecisionDeny {
				blockReason = pdReason
			}
			if d == DecisionDefer { // updatedInput and context are ignored with defer
				m.UpdatedInput = nil
				m.AdditionalContext = []string{}
			}
		}
	case hook.PermissionRequest:
		switch {
		case deny != nil:
			m.Permission, m.Blocked = deny, true
			blockReason = deny.Message
		case allow != nil:
			m.Permission = allow
		}
	case hook.ConfigChange:
		if matchValue == "policy_settings" {
			m.Blocked, blockReason = false, ""
		}
	case hook.SessionStart:
		if matchValue == "clear" || matchValue == "compact" {
			m.SessionTitle = nil
		}
	case hook.ElicitationResult:
		if m.Blocked {
			m.Elicitation = &ClaudeElicitation{Action: "decline"}
		}
	case hook.Stop, hook.SubagentStop:
		st := DecideClaudeStop(m, answers, 0)
		m.Stop = &st
		m.Blocked = false
	}
	if m.Blocked {
		m.BlockReason = nonBlank(blockReason)
	}
	if watchSet {
		m.WatchPaths = append([]string{}, watch...)
	}
	m.StopReason = nonBlank(stopReason)
	return m
}

// DecideClaudeStop is the Stop / SubagentStop continuation: continue when
// some answer blocked or merged has additionalContext, Claude was not
// stopped (continue:false), and consecutive (the blocks already granted in
// a row for this agent) is below ClaudeMaxConsecutiveStopBlocks.
func DecideClaudeStop(merged ClaudeMerged, answers []ClaudeAnswer, consecutive int) ClaudeStop {
	st := ClaudeStop{Limit: ClaudeMaxConsecutiveStopBlocks, Consecutive: consecutive}
	var text string
	asked := len(merged.AdditionalContext) > 0
	for i := range answers {
		if answers[i].Block {
			asked = true
			text = joinNonBlank(text, answers[i].BlockReason)
		}
	}
	for _, c := range merged.AdditionalContext {
		text = joinNonBlank(text, c)
	}
	if !asked || !merged.Continue || consecutive >= ClaudeMaxConsecutiveStopBlocks {
		return st
	}
	st.ContinueTurn, st.Consecutive = true, consecutive+1
	st.Continuation = &text
	return st
}

// claudeDecisionRank orders PreToolUse decisions deny > defer > ask > allow
// (https://code.claude.com/docs/en/hooks#pretooluse-decision-control).
func claudeDecisionRank(d string) int {
	switch d {
	case DecisionAllow:
		return 1
	case DecisionAsk:
		return 2
	case DecisionDefer:
		return 3
	case DecisionDeny:
		return 4
	}
	return 0
}

func concatArrays(a, b json.RawMessage) json.RawMessage {
	if len(b) == 0 {
		return a
	}
	if len(a) == 0 {
		return b
	}
	var x, y []json.RawMessage
	_ = jsonexact.Unmarshal(a, &x)
	_ = jsonexact.Unmarshal(b, &y)
	out, _ := json.Marshal(append(x, y...))
	return out
}

func derefStr(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// JSLen is the JavaScript length of s (UTF-16 code units).
func JSLen(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// SpillOversized applies Claude Code's output size rule
// (https://code.claude.com/docs/en/hooks#json-output): every
// additionalContext, systemMessage, feedback and continuation longer than
// ClaudeOutputLimit characters is handed to save, which stores the full
// text and returns its path, and is replaced by OversizedNotice(path,
// text). When save fails the text is cut to ClaudeOutputLimit characters.
func (m *ClaudeMerged) SpillOversized(save func(text string) (path string, err error)) {
	fix := func(s string) string {
		if JSLen(s) <= ClaudeOutputLimit {
			return s
		}
		path, err := save(s)
		if err != nil {
			return cutJS(s, ClaudeOutputLimit)
		}
		return OversizedNotice(path, s)
	}
	for _, list := range [][]string{m.AdditionalContext, m.SystemMessages, m.Feedback} {
		for i := range list {
			list[i] = fix(list[i])
		}
	}
	if m.Stop != nil && m.Stop.Continuation != nil {
		c := fix(*m.Stop.Continuation)
		m.Stop.Continuation = &c
	}
}

// OversizedNotice is the text that replaces an oversized hook output: its
// length in JavaScript characters, the path of the file holding it, and
// its first ClaudePreviewChars characters. A text that ends with
// CutMarker (plain stdout that reached the output cap) is said to be cut:
// its length is then "more than" the part kept, and the file holds that
// part and the marker.
func OversizedNotice(path, text string) string {
	size := fmt.Sprintf("%d characters", JSLen(text))
	where := "the full text is in " + path
	if kept, ok := strings.CutSuffix(text, cutMarkerTail); ok && strings.Contains(kept, cutMarkerHead) {
		kept = kept[:strings.LastIndex(kept, cutMarkerHead)]
		size = fmt.Sprintf("more than %d characters: cut at hookside's output cap", JSLen(kept))
		where = "the part kept is in " + path
	}
	return fmt.Sprintf("Hook output too large (%s); %s\nPreview (first %d characters):\n%s",
		size, where, ClaudePreviewChars, cutJS(text, ClaudePreviewChars))
}

const (
	cutMarkerHead = "\n[hookside: output cut at the "
	cutMarkerTail = "-byte output cap; the rest was discarded]"
)

// CutMarker is the line appended to a hook's plain-text stdout that
// reached its output cap of capBytes bytes before it becomes context, so
// that neither the model nor a saved file (SpillOversized) takes the part
// kept for the whole: "\n[hookside: output cut at the N-byte output cap;
// the rest was discarded]".
func CutMarker(capBytes int) string {
	return cutMarkerHead + strconv.Itoa(capBytes) + cutMarkerTail
}

// cutJS returns the longest prefix of s of at most n UTF-16 code units that
// does not split a surrogate pair.
func cutJS(s string, n int) string {
	w := 0
	for i, r := range s {
		w += utf16.RuneLen(r)
		if w > n {
			return s[:i]
		}
	}
	return s
}
