package hook

import "strconv"

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
	// (plugin hooks only); exported to the hook as EnvPluginRoot and
	// EnvPluginData.
	PluginRoot string `json:"-"`
	PluginData string `json:"-"`
	// RelativePath is the declaring file relative to the workspace root with
	// "/" separators, and DiscoveryOrder its index in discovery order
	// (workspace hooks only; inputs of the declaration digest).
	RelativePath   string `json:"relativePath,omitempty"`
	DiscoveryOrder int    `json:"discoveryOrder,omitempty"`
	// Dialect is the rule set the declaring file was parsed with (nil for
	// internal hooks).
	Dialect *Dialect `json:"-"`
}

// Hook is one executable hook declaration after loading and timeout
// resolution. It is immutable once loaded; the runner never changes it.
type Hook struct {
	// ID is stable for the same declaration across reloads (see ID).
	ID     string `json:"id"`
	Event  string `json:"event"`
	Source Source `json:"source"`
	// Matcher is nil when the group had no matcher (matches everything).
	Matcher      *string  `json:"matcher"`
	MatcherIndex int      `json:"matcherIndex"`
	HookIndex    int      `json:"hookIndex"`
	Type         HookType `json:"type"`
	Command      string   `json:"command"`
	Args         []string `json:"args"`
	// Shell is a command hook's shell as written (always unset for a
	// process hook); omitted from JSON when unset.
	Shell Shell `json:"shell,omitzero"`
	Async bool  `json:"async"`
	// TimeoutMs and MaxOutputBytes are resolved: hook value, else the
	// declaring file's hooks.timeoutMs / maxOutputBytes, else the user
	// config's, else the defaults.
	TimeoutMs      int    `json:"timeoutMs"`
	MaxOutputBytes int    `json:"maxOutputBytes"`
	StatusMessage  string `json:"statusMessage,omitempty"`
	// Enabled is the declaration's own switch (nil = not written = on).
	Enabled *bool `json:"enabled,omitempty"`
	// Parallel: the matcher group asked for concurrent execution.
	Parallel bool `json:"parallel,omitempty"`
	// Claude Code handler fields (Dialect.HandlerExtras): If is the `if`
	// permission rule, AsyncRewake the `asyncRewake` switch (implies
	// Async), HTTP the `http` handler's request (Type TypeHTTP; Command
	// then holds its URL).
	If          string `json:"if,omitempty"`
	AsyncRewake bool   `json:"asyncRewake,omitempty"`
	// RewakeMessage is put before an asyncRewake hook's wake text, and
	// RewakeSummary is its one-line notice for the user (both optional).
	RewakeMessage string       `json:"rewakeMessage,omitempty"`
	RewakeSummary string       `json:"rewakeSummary,omitempty"`
	HTTP          *HTTPHandler `json:"http,omitempty"`
	// Delegated is a prompt, agent or mcp_tool handler's configuration
	// (Type TypePrompt, TypeAgent or TypeMCPTool; Command then holds its
	// canonical JSON, so listings and the declaration digest cover it).
	Delegated *DelegatedHandler `json:"delegated,omitempty"`
	// At is "path:line:col" of the declaration's command value, for
	// diagnostics found after loading ("" when unknown). Not part of the
	// declaration digest.
	At string `json:"-"`
}

// HTTPHandler is an `http` handler's request: the URL the input is POSTed
// to, extra headers ($VAR / ${VAR} resolved from AllowedEnvVars only)
// (https://code.claude.com/docs/en/hooks#http-hook-fields).
type HTTPHandler struct {
	URL            string            `json:"url"`
	Headers        map[string]string `json:"headers,omitempty"`
	AllowedEnvVars []string          `json:"allowedEnvVars,omitempty"`
}

// ID returns the stable ID of a declaration:
// "<kind>:<path>#<event>[<matcherIndex>][<hookIndex>]", where path is the
// declaring file (a plugin's hooks/hooks.json) and the indexes are
// positions in the file's arrays.
func ID(kind SourceKind, path, event string, matcherIndex, hookIndex int) string {
	return string(kind) + ":" + path + "#" + event + "[" + strconv.Itoa(matcherIndex) + "][" + strconv.Itoa(hookIndex) + "]"
}

// Declared is the declaration as every wire shape of a hook shows it (the
// session/open hooks, the trust status and review declarations, the
// snapshot a trust record keeps): the fields a reviewer judges. Args is
// never null and Shell is unset for a process hook.
type Declared struct {
	Event          string   `json:"event"`
	Matcher        *string  `json:"matcher"`
	MatcherIndex   int      `json:"matcherIndex"`
	HookIndex      int      `json:"hookIndex"`
	Type           HookType `json:"type"`
	Command        string   `json:"command"`
	Args           []string `json:"args"`
	Shell          Shell    `json:"shell"`
	Async          bool     `json:"async"`
	TimeoutMs      int      `json:"timeoutMs"`
	MaxOutputBytes int      `json:"maxOutputBytes"`
}

// DeclaredOf returns the Declared fields of h.
func DeclaredOf(h *Hook) Declared {
	d := Declared{
		Event: h.Event, Matcher: h.Matcher, MatcherIndex: h.MatcherIndex, HookIndex: h.HookIndex,
		Type: h.Type, Command: h.Command, Args: h.Args, Async: h.Async,
		TimeoutMs: h.TimeoutMs, MaxOutputBytes: h.MaxOutputBytes,
	}
	if d.Args == nil {
		d.Args = []string{}
	}
	if h.Type != TypeProcess {
		d.Shell = h.Shell
	}
	return d
}
