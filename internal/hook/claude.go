package hook

// Claude Code's events beyond the seven lifecycle events, in the order of
// its hooks reference (https://code.claude.com/docs/en/hooks#hook-lifecycle).
const (
	Setup               = "Setup"
	InstructionsLoaded  = "InstructionsLoaded"
	UserPromptExpansion = "UserPromptExpansion"
	MessageDisplay      = "MessageDisplay"
	PermissionDenied    = "PermissionDenied"
	PostToolBatch       = "PostToolBatch"
	Notification        = "Notification"
	SubagentStart       = "SubagentStart"
	SubagentStop        = "SubagentStop"
	TaskCreated         = "TaskCreated"
	TaskCompleted       = "TaskCompleted"
	StopFailure         = "StopFailure"
	TeammateIdle        = "TeammateIdle"
	ConfigChange        = "ConfigChange"
	CwdChanged          = "CwdChanged"
	DirectoryAdded      = "DirectoryAdded"
	FileChanged         = "FileChanged"
	WorktreeCreate      = "WorktreeCreate"
	WorktreeRemove      = "WorktreeRemove"
	PreCompact          = "PreCompact"
	PostCompact         = "PostCompact"
	Elicitation         = "Elicitation"
	ElicitationResult   = "ElicitationResult"
	SessionEnd          = "SessionEnd"
)

// ClaudeEvents are Claude Code's 31 hook events, in the order of the table
// at https://code.claude.com/docs/en/hooks#hook-lifecycle.
var ClaudeEvents = []string{
	SessionStart, Setup, UserPromptSubmit, UserPromptExpansion, PreToolUse,
	PermissionRequest, PermissionDenied, PostToolUse, PostToolUseFailure,
	PostToolBatch, Notification, MessageDisplay, SubagentStart, SubagentStop,
	TaskCreated, TaskCompleted, Stop, StopFailure, TeammateIdle,
	InstructionsLoaded, ConfigChange, CwdChanged, DirectoryAdded, FileChanged,
	WorktreeCreate, WorktreeRemove, PreCompact, PostCompact, Elicitation,
	ElicitationResult, SessionEnd,
}

// TypeHTTP is Claude Code's http handler: the input JSON is POSTed to a URL
// and the response body is the answer
// (https://code.claude.com/docs/en/hooks#http-hook-fields).
const TypeHTTP HookType = "http"

// EnvClaudeEnvFile names the file SessionStart, Setup, CwdChanged and
// FileChanged hooks append `export` lines to
// (https://code.claude.com/docs/en/hooks#persist-environment-variables).
const EnvClaudeEnvFile = "CLAUDE_ENV_FILE"

// ClaudeEnvFileEvents are the events whose hooks get EnvClaudeEnvFile.
var ClaudeEnvFileEvents = []string{SessionStart, Setup, CwdChanged, FileChanged}

// ClaudeIfEvents are the tool events on which a handler's `if` rule is
// evaluated; on every other event a handler with `if` never runs
// (https://code.claude.com/docs/en/hooks#common-fields).
var ClaudeIfEvents = []string{PreToolUse, PostToolUse, PostToolUseFailure, PermissionRequest, PermissionDenied}

// claudeMatcherFields maps each event with matcher support to the input
// field its matcher tests (https://code.claude.com/docs/en/hooks#matcher-patterns).
// UserPromptSubmit, PostToolBatch, Stop, TeammateIdle, TaskCreated,
// TaskCompleted, WorktreeCreate, WorktreeRemove, MessageDisplay and
// CwdChanged have none. FileChanged tests the changed file's basename,
// which the runner derives from file_path.
var claudeMatcherFields = map[string]string{
	PreToolUse: "tool_name", PostToolUse: "tool_name", PostToolUseFailure: "tool_name",
	PermissionRequest: "tool_name", PermissionDenied: "tool_name",
	SessionStart: "source", Setup: "trigger", SessionEnd: "reason",
	Notification: "notification_type", SubagentStart: "agent_type", SubagentStop: "agent_type",
	PreCompact: "trigger", PostCompact: "trigger", ConfigChange: "source",
	DirectoryAdded: "source", FileChanged: "file_path", StopFailure: "error",
	InstructionsLoaded: "load_reason", UserPromptExpansion: "command_name",
	Elicitation: "mcp_server_name", ElicitationResult: "mcp_server_name",
}

// Claude is Claude Code's own dialect (`profile: "claude"`): its settings
// files (managed, ~/.claude/settings.json, <project>/.claude/settings.json
// and settings.local.json) and enabled plugins, its 31 events, command and
// http handlers, timeouts in seconds with its defaults — 600 s, 30 s on
// UserPromptSubmit, 10 s on MessageDisplay, 1.5 s on SessionEnd
// (https://code.claude.com/docs/en/hooks#common-fields) —, its matcher
// fields, and identical handlers deduplicated across settings files
// (https://code.claude.com/docs/en/hooks#hook-handler-fields). Every hook
// runs (no first-block stop); project and local files are workspace hooks
// behind the trust gate.
var Claude = &Dialect{
	Name:          "claude",
	Events:        ClaudeEvents,
	ClaudeShaped:  true,
	TimeoutKey:    "timeout",
	TimeoutUnitMs: 1000,
	HandlerTypes:  []HookType{TypeCommand, TypeHTTP},
	ExecForm:      true,
	UnsupportedEvent: Refusal{
		Code: CodeClaudeUnknownEvent, Severity: SeverityWarning,
		Message:    "event %q is not a Claude Code event (events are %s); its hooks are skipped",
		RejectCode: CodeClaudeUnknownEvent, RejectMessage: "event %q is not a Claude Code event",
	},
	UnsupportedType: Refusal{
		Code: CodeClaudeDelegatedType, Severity: SeverityWarning,
		Message:    "hook type %q needs the host (a model or an MCP client) and is skipped: this host did not declare it in capabilities.delegatedHookTypes",
		RejectCode: CodeClaudeDelegatedType, RejectMessage: "handler type %q needs the host",
		KnownOnly: true,
	},
	MatcherEvents:    ClaudeMatcherEvents(),
	UserSettingsFile: "settings.json",
	UserDir:          ".claude",
	// https://code.claude.com/docs/en/managed-settings (file-based delivery).
	ManagedSettingsPath: claudeManagedSettings,
	WorkspaceFiles:      []string{".claude/settings.json", ".claude/settings.local.json"},
	// Claude Code reads the project's .claude files at the project root,
	// which hookside takes to be the session cwd.
	WorkspaceRootIsCwd: true,
	TimeoutDefaultMs:   600000,
	EventTimeoutMs:     map[string]int{UserPromptSubmit: 30000, MessageDisplay: 10000, SessionEnd: 1500},
	MaxOutputBytes:     ClaudeMaxOutputBytes,
	MatcherFields:      claudeMatcherFields,
	DedupeHandlers:     true,
	HandlerExtras:      true,
	OwnPluginRules:     true,
	HostTypes:          DelegatedTypes,
	// https://code.claude.com/docs/en/hooks#common-fields: 30 s for
	// prompt, 60 s for agent; mcp_tool has the command defaults.
	TypeTimeoutMs: map[HookType]int{TypePrompt: 30000, TypeAgent: 60000},
}

// ClaudeMaxOutputBytes is the claude profile's cap on a command hook's
// stdout and on its stderr, each, and on an http hook's response body:
// 10 MiB. Claude Code documents no cap and reads a hook's whole output, so
// a long JSON answer (a deny with a long permissionDecisionReason, a big
// additionalContext) must arrive whole; hookside's 32768-byte default
// would cut it and lose the decision. The cap stays bounded so that a
// runaway hook cannot exhaust memory; a hook that still reaches it gets a
// hookErrors notice naming it (output.ParseClaude). A declaration's own
// maxOutputBytes (a hookside extension) overrides it.
const ClaudeMaxOutputBytes = 10 << 20

// ClaudeMatcherEvents lists, in ClaudeEvents order, the events whose
// matcher filters anything.
func ClaudeMatcherEvents() []string {
	var out []string
	for _, e := range ClaudeEvents {
		if _, ok := claudeMatcherFields[e]; ok {
			out = append(out, e)
		}
	}
	return out
}

// Claude dialect diagnostic codes.
const (
	// CodeClaudeUnknownEvent: a Claude Code settings file declares an event
	// Claude Code does not have (severity warning); its hooks are skipped.
	CodeClaudeUnknownEvent = "claude_unknown_event"
	// CodeClaudeDelegatedType: a prompt, agent or mcp_tool handler, which
	// needs a model or an MCP client, in a session whose host did not
	// declare it runs that type (initialize
	// capabilities.delegatedHookTypes); severity warning, skipped.
	CodeClaudeDelegatedType = "claude_delegated_type"
	// CodeClaudeIfNever: a handler with `if` on an event that is not a tool
	// event; Claude Code never runs it (severity warning).
	CodeClaudeIfNever = "claude_if_never_runs"
	// CodeClaudeMatcherIgnored: a matcher other than "" and "*" on an
	// event without matcher support (UserPromptSubmit, Stop, …); Claude
	// Code ignores it and so does hookside: the group runs for every such
	// event (severity warning).
	CodeClaudeMatcherIgnored = "claude_matcher_ignored"
	// CodeClaudeDuplicate: a handler identical to one already declared in
	// another settings file; it runs once (severity info).
	CodeClaudeDuplicate = "claude_duplicate_handler"
	// CodeClaudeHooksDisabled: disableAllHooks is true after settings
	// precedence (severity info).
	CodeClaudeHooksDisabled = "claude_hooks_disabled"
	// CodeClaudeHooksDisabledByWorkspace: disableAllHooks is true because
	// a workspace settings file (.claude/settings.json or
	// .claude/settings.local.json) says so, which switches off the user's
	// and plugins' hooks too, guards included (severity warning; the
	// diagnostic's source names the file).
	CodeClaudeHooksDisabledByWorkspace = "claude_hooks_disabled_by_workspace"
)

// TimeoutFor returns the dialect's default timeout in milliseconds for a
// declaration of event that sets none (0 = no dialect default).
func (d *Dialect) TimeoutFor(event string) int {
	if ms, ok := d.EventTimeoutMs[event]; ok {
		return ms
	}
	return d.TimeoutDefaultMs
}

// MatcherField returns the input field event's matcher tests, and false
// when the dialect gives matchers no field for event.
func (d *Dialect) MatcherField(event string) (string, bool) {
	f, ok := d.MatcherFields[event]
	return f, ok
}
