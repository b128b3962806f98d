// Package config turns every hook configuration source (user config file,
// workspace files, plugin hooks/hooks.json, internal hooks) into one ordered
// list of hook specs, per lifecycle-hooks-and-workspace-trust.zh.txt
// §"配置格式与默认值" and §"插件钩子与工作区钩子".
package config

// The seven shell-hook events (lifecycle-hooks-and-workspace-trust §"七个事件").
const (
	SessionStart       = "SessionStart"
	UserPromptSubmit   = "UserPromptSubmit"
	PreToolUse         = "PreToolUse"
	PermissionRequest  = "PermissionRequest"
	PostToolUse        = "PostToolUse"
	PostToolUseFailure = "PostToolUseFailure"
	Stop               = "Stop"
)

// Events lists the seven events in the order the spec introduces them.
var Events = []string{SessionStart, UserPromptSubmit, PreToolUse, PermissionRequest, PostToolUse, PostToolUseFailure, Stop}

// IsEvent reports whether name is one of the seven events (case-sensitive).
func IsEvent(name string) bool {
	for _, e := range Events {
		if e == name {
			return true
		}
	}
	return false
}

// Defaults from the spec: timeoutMs 60000 ms, maxOutputBytes 32768 bytes.
const (
	DefaultTimeoutMs      = 60000
	DefaultMaxOutputBytes = 32768
)

// HookType is "process" (exec command+args, no shell) or "command" (the
// string handed to a shell).
type HookType string

const (
	TypeProcess HookType = "process"
	TypeCommand HookType = "command"
)

// SourceKind is where a declaration came from; the run order is
// user, workspace, plugin, internal.
type SourceKind string

const (
	SourceUser      SourceKind = "user"
	SourceWorkspace SourceKind = "workspace"
	SourcePlugin    SourceKind = "plugin"
	SourceInternal  SourceKind = "internal"
)

// Source names the file (or internal provider) a hook was declared in.
type Source struct {
	Kind SourceKind `json:"kind"`
	// Path is the absolute path of the declaring file ("" for internal hooks).
	Path string `json:"path"`
	// Name is the plugin name (plugin hooks) or internal hook name.
	Name string `json:"name,omitempty"`
	// PluginRoot and PluginData are the plugin's root and data directories
	// (plugin hooks only); exported to the hook as ZCODE_PLUGIN_ROOT etc.
	PluginRoot string `json:"-"`
	PluginData string `json:"-"`
	// RelativePath is the declaring file relative to the workspace root with
	// "/" separators, and DiscoveryOrder its index in discovery order
	// (workspace hooks only; inputs of the declaration digest).
	RelativePath   string `json:"relativePath,omitempty"`
	DiscoveryOrder int    `json:"discoveryOrder,omitempty"`
}

// ShellKind records how a command hook's `shell` was written, because the
// declaration digest distinguishes the three (PROTOCOL.md §4).
type ShellKind string

const (
	ShellUnset  ShellKind = "unset"  // no `shell` key: sh -c
	ShellTrue   ShellKind = "true"   // `shell: true`: sh -c
	ShellString ShellKind = "string" // `shell: "bash -lc"`: split with shlex, command appended
)

// Hook is one executable hook declaration after loading and timeout
// resolution. It is immutable once loaded; the runner never changes it.
type Hook struct {
	// ID is stable for the same declaration across reloads:
	// "<kind>:<path>#<event>[<matcherIndex>][<hookIndex>]".
	ID     string `json:"id"`
	Event  string `json:"event"`
	Source Source `json:"source"`
	// Matcher is nil when the group had no matcher (matches everything).
	Matcher      *string   `json:"matcher"`
	MatcherIndex int       `json:"matcherIndex"`
	HookIndex    int       `json:"hookIndex"`
	Type         HookType  `json:"type"`
	Command      string    `json:"command"`
	Args         []string  `json:"args"`
	ShellKind    ShellKind `json:"-"`
	// Shell is the shell program string when ShellKind is ShellString.
	Shell string `json:"shell,omitempty"`
	Async bool   `json:"async"`
	// TimeoutMs and MaxOutputBytes are resolved: hook value, else the
	// declaring file's hooks.timeoutMs / maxOutputBytes, else the user
	// config's, else the defaults.
	TimeoutMs      int    `json:"timeoutMs"`
	MaxOutputBytes int    `json:"maxOutputBytes"`
	StatusMessage  string `json:"statusMessage,omitempty"`
	// Enabled is the declaration's own switch (nil = not written = on).
	Enabled *bool `json:"enabled,omitempty"`
	// Parallel: the matcher group asked for concurrent execution (issue 5).
	Parallel bool `json:"parallel,omitempty"`
}

// Severity of a diagnostic.
const (
	SeverityError   = "error"
	SeverityWarning = "warning"
	SeverityInfo    = "info"
)

// Diagnostic is a problem found while loading configuration. It never stops
// the other sources from loading.
type Diagnostic struct {
	Code     string `json:"code"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
	// Source is the file the problem is in, with ":line:col" when known.
	Source string `json:"source,omitempty"`
}
