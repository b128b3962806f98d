package hook

import "slices"

// Dialect is the rule set a configuration file is written in, as data:
// where its files live, which events and handler types it has, how a
// timeout is written, its limits, and how a declaration it cannot run is
// reported. A session picks its dialect once (Profile); the loader parses
// every file with the dialect of its source and records it in
// Source.Dialect, so nothing downstream branches on the dialect's name or
// sniffs a path.
//
// Zcode and Spark are the session profiles; Plugin is the rule set of a
// plugin's hooks/hooks.json, whichever profile loads it.
type Dialect struct {
	// Name is the profile name ("zcode", "spark") or "plugin".
	Name string
	// Events are the events its files may declare, in the spec's order.
	Events []string
	// ClaudeShaped files put events directly under "hooks" (the Claude Code
	// settings shape) and have no file-level switches or limits; the
	// others use hooks.events and hooks.enabled / timeoutMs /
	// maxOutputBytes.
	ClaudeShaped bool
	// TimeoutKey is the declaration key of the timeout, and TimeoutUnitMs
	// its unit in milliseconds ("timeoutMs", 1 or "timeout", 1000;
	// fractions are rounded to whole milliseconds). The other key of the
	// pair is reported as ignored (CodeIgnoredField).
	TimeoutKey    string
	TimeoutUnitMs int
	// HandlerTypes are the declaration types that run. When ExecForm is
	// set, a "command" declaration with "args" runs without a shell, as a
	// process hook (Claude Code's exec form).
	HandlerTypes []HookType
	ExecForm     bool
	// UnsupportedEvent and UnsupportedType say how an event outside Events
	// and a handler type outside HandlerTypes are reported. A zero
	// UnsupportedType makes such a type an invalid declaration
	// (CodeInvalidHook).
	UnsupportedEvent, UnsupportedType Refusal
	// MatcherEvents are the events a matcher applies to; a matcher on any
	// other event is kept, ignored at run time and, unless it is "" or
	// "*", reported with CodeSparkMatcherIgnored (claude:
	// CodeClaudeMatcherIgnored). Nil means every event.
	MatcherEvents []string
	// Limits bounds declarations; zero fields are unlimited.
	Limits DialectLimits
	// UserSettingsFile is the user-scope settings file relative to the
	// dialect's user directory ("" = the user scope is the hookside user
	// config).
	UserSettingsFile string
	// UserDir is the default user directory, relative to the OS user's
	// home directory (spark: ".spark").
	UserDir string
	// WorkspaceFiles are the workspace-scope files relative to a workspace
	// directory, in discovery order ("/" separators).
	WorkspaceFiles []string
	// WorkspaceRootIsCwd: the files are read in the session's cwd only
	// (spark); otherwise in every directory from the workspace root (the
	// nearest ancestor holding .git) down to the cwd (zcode).
	WorkspaceRootIsCwd bool
	// StopAtFirstBlock: once a hook of an event blocks, the event's later
	// hooks are skipped (hooks-v2-handbook §1.3); otherwise every hook runs.
	StopAtFirstBlock bool
	// BlockOnEveryEvent: exit 2 and decision:"block" are one block, with
	// its reason, on every event (hooks-v2-handbook §1.3: 退出码为2，或
	// stdout 输出 {"decision":"block"}，即视为拦截，并携带 reason). The
	// merged result is blocked on every event, and a block on a tool event
	// is a deny; otherwise the lifecycle rule applies (output.Merge).
	BlockOnEveryEvent bool
	// TimeoutDefaultMs is the timeout of a declaration that gives none, and
	// EventTimeoutMs overrides it per event (0 / absent = the hookside
	// chain: file, user config, DefaultTimeoutMs of limits.go).
	TimeoutDefaultMs int
	EventTimeoutMs   map[string]int
	// MaxOutputBytes is the per-stream output cap, in bytes, of a
	// declaration that gives no maxOutputBytes (0 = the hookside chain:
	// file, user config, DefaultMaxOutputBytes of limits.go).
	MaxOutputBytes int
	// MatcherFields names, per event, the snake_case input field a matcher
	// is tested against (nil = the lifecycle rule: the tool name on tool
	// events, source on SessionStart). An event absent from a non-nil map
	// has no matcher support: its matchers are ignored. A non-nil map also
	// selects Claude Code's matcher syntax (matcher.ClaudeRulesFor).
	MatcherFields map[string]string
	// DedupeHandlers: identical handlers declared in several settings
	// files run once (plugin copies stay separate).
	DedupeHandlers bool
	// HandlerExtras: handlers may carry Claude Code's `if`, `asyncRewake`
	// and `once` fields, and `http` handlers take url, headers and
	// allowedEnvVars.
	HandlerExtras bool
	// ManagedSettingsPath is the administrator's settings file, read
	// before the user's, in the dialect's own shape ("" = none).
	ManagedSettingsPath string
	// OwnPluginRules: plugins' hooks/hooks.json files are parsed in this
	// dialect (otherwise in Plugin); see PluginRules.
	OwnPluginRules bool
	// HostTypes are the handler types that run when the session's host
	// declares it runs them (WithHostTypes); TypeTimeoutMs gives a type its
	// own default timeout, before EventTimeoutMs and TimeoutDefaultMs.
	HostTypes     []HookType
	TypeTimeoutMs map[HookType]int
}

// PluginRules returns the dialect plugin hook files are parsed with in a
// session of dialect d.
func (d *Dialect) PluginRules() *Dialect {
	if d != nil && d.OwnPluginRules {
		return d
	}
	return Plugin
}

// Refusal is how a dialect reports a declaration it skips: the diagnostic
// code and severity, and the message format (one %q for the event or type,
// then, for events, one %s for the list of supported events; a type's
// message follows "<event>[<i>][<j>]: ").
type Refusal struct {
	Code     string
	Severity string
	Message  string
	// RejectCode and RejectMessage (one %q) describe the Rejected record
	// `hooks explain` lists.
	RejectCode    string
	RejectMessage string
	// KnownOnly: the refusal is for types some dialect runs (IsKnownType);
	// any other name is a malformed declaration ("unknown type", with the
	// type it misspells), not a type this one declines.
	KnownOnly bool
}

// DialectLimits are a dialect's bounds on declarations (0 = no bound).
type DialectLimits struct {
	// MaxCommandChars bounds one command, with its exec-form args each
	// preceded by one space, in JavaScript string length (UTF-16 code units).
	MaxCommandChars int
	// MaxTimeoutMs bounds a declaration's timeout.
	MaxTimeoutMs int
	// MaxCommandsPerMatcher bounds the hooks of one matcher group.
	MaxCommandsPerMatcher int
	// MaxMatchersPerEvent bounds the matcher groups of one event in one file.
	MaxMatchersPerEvent int
}

// Zcode is hookside's own dialect (lifecycle-hooks-and-workspace-trust
// §"配置格式与默认值"): the user config and zcode.json / .zcode/config.json
// in each directory from the workspace root to the cwd.
var Zcode = &Dialect{
	Name:          "zcode",
	Events:        Events,
	TimeoutKey:    "timeoutMs",
	TimeoutUnitMs: 1,
	HandlerTypes:  []HookType{TypeProcess, TypeCommand},
	UnsupportedEvent: Refusal{
		Code: CodeUnknownEvent, Severity: SeverityError,
		Message:    "unknown event %q (events are %s, case-sensitive); its hooks are dropped",
		RejectCode: CodeUnknownEvent, RejectMessage: "event %q is not supported",
	},
	WorkspaceFiles: []string{"zcode.json", ".zcode/config.json"},
}

// Spark is the spark-engine dialect (hooks-v2-handbook §1.3): Claude
// Code–shaped settings files, four events, command handlers only, timeouts
// in seconds, limits, matchers on tool events only, and the first block
// ends the event.
var Spark = &Dialect{
	Name:          "spark",
	Events:        []string{UserPromptSubmit, PreToolUse, PostToolUse, Stop},
	ClaudeShaped:  true,
	TimeoutKey:    "timeout",
	TimeoutUnitMs: 1000,
	HandlerTypes:  []HookType{TypeCommand},
	ExecForm:      true,
	UnsupportedEvent: Refusal{
		Code: CodeSparkUnsupportedEvent, Severity: SeverityWarning,
		Message:    "event %q is not a spark event (spark has %s); its hooks are skipped",
		RejectCode: CodeSparkUnsupportedEvent, RejectMessage: "event %q is not a spark event",
	},
	UnsupportedType: Refusal{
		Code: CodeSparkUnsupportedType, Severity: SeverityWarning,
		Message:    "hook type %q is not supported (only \"command\" handlers run); skipped",
		RejectCode: CodeSparkUnsupportedType, RejectMessage: "handler type %q is not supported",
	},
	MatcherEvents: []string{PreToolUse, PostToolUse},
	Limits: DialectLimits{
		MaxCommandChars:       8192,   // 单条命令上限 8192 字符
		MaxTimeoutMs:          600000, // 超时上限 600000 毫秒
		MaxCommandsPerMatcher: 16,
		MaxMatchersPerEvent:   32,
	},
	UserSettingsFile:   "settings.json",
	UserDir:            ".spark",
	WorkspaceFiles:     []string{".spark/settings.json", ".spark/settings.local.json"},
	WorkspaceRootIsCwd: true,
	StopAtFirstBlock:   true,
	BlockOnEveryEvent:  true,
}

// Plugin is the dialect of a plugin's hooks/hooks.json (the Claude Code
// plugin layout, spec §"与 Claude Code 的兼容程度"): Claude Code–shaped,
// the seven events, command handlers, timeouts in seconds.
var Plugin = &Dialect{
	Name:          "plugin",
	Events:        Events,
	ClaudeShaped:  true,
	TimeoutKey:    "timeout",
	TimeoutUnitMs: 1000,
	HandlerTypes:  []HookType{TypeCommand},
	ExecForm:      true,
	UnsupportedEvent: Refusal{
		Code: CodePluginUnsupportedEvent, Severity: SeverityWarning,
		Message:    "event %q is not supported (hookside has %s); its hooks are skipped",
		RejectCode: CodeUnknownEvent, RejectMessage: "event %q is not supported",
	},
	UnsupportedType: Refusal{
		Code: CodePluginUnsupportedType, Severity: SeverityWarning,
		Message:    "hook type %q is not supported (only \"command\" handlers run); skipped",
		RejectCode: CodePluginUnsupportedType, RejectMessage: "handler type %q is not supported",
	},
}

// Profiles are the dialects a session can be opened with, by name
// (PROTOCOL.md §2 session/open.profile).
var Profiles = []*Dialect{Zcode, Spark, Claude}

// Profile returns the session dialect named name ("" is zcode), or nil and
// false for any other name.
func Profile(name string) (*Dialect, bool) {
	if name == "" {
		return Zcode, true
	}
	for _, d := range Profiles {
		if d.Name == name {
			return d, true
		}
	}
	return nil, false
}

// ProfileNames lists the names of Profiles, for messages.
func ProfileNames() []string {
	out := make([]string, len(Profiles))
	for i, d := range Profiles {
		out[i] = d.Name
	}
	return out
}

// HasEvent reports whether the dialect's files may declare event.
func (d *Dialect) HasEvent(event string) bool { return slices.Contains(d.Events, event) }

// IsKnownType reports whether t is a handler type of some dialect: one of
// the HandlerTypes or HostTypes of Zcode, Spark, Plugin or Claude
// (process, command, http, prompt, agent, mcp_tool). A known type that a
// file's dialect does not run is refused as such, not as a misspelling.
func IsKnownType(t HookType) bool {
	for _, d := range []*Dialect{Zcode, Spark, Plugin, Claude} {
		if d.Runs(t) || slices.Contains(d.HostTypes, t) {
			return true
		}
	}
	return false
}

// Runs reports whether declarations of type t run in this dialect.
func (d *Dialect) Runs(t HookType) bool { return slices.Contains(d.HandlerTypes, t) }

// MatcherApplies reports whether a matcher on event filters anything.
func (d *Dialect) MatcherApplies(event string) bool {
	return d.MatcherEvents == nil || slices.Contains(d.MatcherEvents, event)
}

// OtherTimeoutKey is the timeout key of the other unit, which this
// dialect ignores.
func (d *Dialect) OtherTimeoutKey() string {
	if d.TimeoutKey == "timeout" {
		return "timeoutMs"
	}
	return "timeout"
}
