package output

import "github.com/hookside/hookside/internal/hook"

// exit2Effect is what an exit code 2 does on one Claude Code event
// (https://code.claude.com/docs/en/hooks#exit-code-2-behavior-per-event).
type exit2Effect uint8

const (
	// exit2Ignored: exit code and stderr are ignored (PermissionRequest,
	// PermissionDenied, Notification, StopFailure, InstructionsLoaded,
	// MessageDisplay, WorktreeRemove, DirectoryAdded).
	exit2Ignored exit2Effect = iota
	// exit2Block: the action is blocked (or, on Stop-like events, the
	// agent keeps working); the message is the JSON blocking reason, else
	// stderr.
	exit2Block
	// exit2Feedback: stderr is shown to Claude; the tool already ran
	// (PostToolUse, PostToolUseFailure).
	exit2Feedback
	// exit2Notice: stderr is shown to the user only, as a
	// "<hook> hook error" notice.
	exit2Notice
)

// claudeRule is one event's row of the reference's decision-control and
// exit-code tables (https://code.claude.com/docs/en/hooks#decision-control).
type claudeRule struct {
	exit2 exit2Effect
	// plainContext: plain-text stdout on success is context for Claude
	// (https://code.claude.com/docs/en/hooks#exit-code-0).
	plainContext bool
	// context: hookSpecificOutput.additionalContext is read.
	context bool
	// blockDecision: top-level decision:"block" blocks (with reason). On
	// PostToolUse and PostToolUseFailure it is feedback instead (the tool
	// already ran), on PreToolUse the deprecated form of "deny".
	blockDecision bool
	// dropContinue, dropSystemMessage: the event discards `continue` /
	// `systemMessage` of the JSON output.
	dropContinue, dropSystemMessage bool
	// ignoreAll: output and exit code are ignored except terminalSequence
	// (StopFailure).
	ignoreAll bool
	// anyNonZeroFails: every non-zero exit fails the action
	// (WorktreeCreate).
	anyNonZeroFails bool
}

// claudeRules holds the row of every Claude Code event; an event missing
// from it has no row and its hooks' answers are ignored.
var claudeRules = map[string]claudeRule{
	hook.SessionStart:        {exit2: exit2Notice, plainContext: true, context: true},
	hook.Setup:               {exit2: exit2Notice, context: true},
	hook.InstructionsLoaded:  {dropContinue: true, dropSystemMessage: true},
	hook.UserPromptSubmit:    {exit2: exit2Block, plainContext: true, context: true, blockDecision: true},
	hook.UserPromptExpansion: {exit2: exit2Block, plainContext: true, context: true, blockDecision: true},
	hook.MessageDisplay:      {dropContinue: true, dropSystemMessage: true},
	hook.PreToolUse:          {exit2: exit2Block, context: true},
	hook.PermissionRequest:   {},
	hook.PermissionDenied:    {},
	hook.PostToolUse:         {exit2: exit2Feedback, context: true},
	hook.PostToolUseFailure:  {exit2: exit2Feedback, context: true},
	hook.PostToolBatch:       {exit2: exit2Block, context: true, blockDecision: true},
	hook.Notification:        {dropContinue: true, dropSystemMessage: true},
	hook.SubagentStart:       {exit2: exit2Notice, context: true},
	hook.SubagentStop:        {exit2: exit2Block, context: true, blockDecision: true},
	hook.TaskCreated:         {exit2: exit2Block, blockDecision: true, dropContinue: true},
	hook.TaskCompleted:       {exit2: exit2Block},
	hook.Stop:                {exit2: exit2Block, context: true, blockDecision: true},
	hook.StopFailure:         {ignoreAll: true, dropContinue: true, dropSystemMessage: true},
	hook.TeammateIdle:        {exit2: exit2Block},
	hook.ConfigChange:        {exit2: exit2Block, blockDecision: true, dropContinue: true, dropSystemMessage: true},
	hook.CwdChanged:          {exit2: exit2Notice, dropContinue: true},
	hook.DirectoryAdded:      {dropContinue: true},
	hook.FileChanged:         {exit2: exit2Notice, dropContinue: true},
	hook.WorktreeCreate:      {exit2: exit2Block, anyNonZeroFails: true, dropContinue: true, dropSystemMessage: true},
	hook.WorktreeRemove:      {dropContinue: true, dropSystemMessage: true},
	hook.PreCompact:          {exit2: exit2Block, blockDecision: true, dropContinue: true, dropSystemMessage: true},
	hook.PostCompact:         {exit2: exit2Notice, dropContinue: true, dropSystemMessage: true},
	hook.Elicitation:         {exit2: exit2Block, dropContinue: true, dropSystemMessage: true},
	hook.ElicitationResult:   {exit2: exit2Block, dropContinue: true, dropSystemMessage: true},
	hook.SessionEnd:          {exit2: exit2Notice, dropContinue: true, dropSystemMessage: true},
}

// ClaudeCanBlock reports whether an exit code 2 blocks event's action in
// Claude Code (the "Can block?" column of
// https://code.claude.com/docs/en/hooks#exit-code-2-behavior-per-event).
func ClaudeCanBlock(event string) bool { return claudeRules[event].exit2 == exit2Block }

// ClaudeMaxConsecutiveStopBlocks is the number of consecutive Stop (or
// SubagentStop) blocks after which Claude Code ends the turn anyway
// (https://code.claude.com/docs/en/hooks#stop-input).
const ClaudeMaxConsecutiveStopBlocks = 8

// ClaudeOutputLimit is the length, in JavaScript characters (UTF-16 code
// units), above which a hook's additionalContext, systemMessage or plain
// stdout is saved to a file and replaced by its path and a preview
// (https://code.claude.com/docs/en/hooks#json-output).
const ClaudeOutputLimit = 10000

// ClaudePreviewChars is the length of the preview that replaces an
// oversized output. The reference says "a short preview"; hookside gives
// the first 2,000 characters.
const ClaudePreviewChars = 2000
