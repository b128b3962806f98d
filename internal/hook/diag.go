package hook

import "strings"

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

// InFile reports whether d is about the file path: its Source is path, or
// path:line:col.
func (d Diagnostic) InFile(path string) bool {
	rest, ok := strings.CutPrefix(d.Source, path)
	return ok && (rest == "" || rest[0] == ':')
}

// Diagnostic codes of configuration loading. Severity is fixed per code
// unless noted.
const (
	// CodeParseError: the file is not valid JSON (severity error). Source is
	// "path:line:col" of the offending byte; the file contributes no hooks.
	CodeParseError = "config_parse_error"
	// CodeReadError: the file exists but cannot be read, is not a regular
	// file, or is larger than MaxConfigFileBytes (severity error). The file
	// contributes no hooks.
	CodeReadError = "config_read_error"
	// CodeTooManyHooks: a file declares more matcher groups or more hooks
	// than a file may hold (config.MaxFileEntries each, all events
	// together; severity error). Source is "path:line:col" of the first
	// entry over the limit; the file contributes no hooks. Also a file whose
	// plugins.dirs names more than config.MaxPluginDirs directories: none of
	// them is loaded.
	CodeTooManyHooks = "config_too_many_hooks"
	// CodeConfigNotFound: a user config file that was named (initialize
	// userConfigPath, --user-config) rather than defaulted does not exist
	// (severity warning). Source is its absolute path; there are no user
	// hooks until it appears (the next load notices). A missing default
	// <home>/config.json is not reported: no file there means no user hooks.
	CodeConfigNotFound = "config_file_not_found"
	// CodeOutsideRoot: a workspace configuration file reached through a
	// symlink that leaves the workspace root; it is not read (warning).
	CodeOutsideRoot = "workspace_config_outside_root"
	// CodeInvalidField: a file-level field (the top-level value, "hooks",
	// hooks.enabled, hooks.timeoutMs, hooks.maxOutputBytes, hooks.events,
	// storage.dir) has the wrong type or value (severity error). The field is
	// ignored as if absent; the rest of the file loads.
	CodeInvalidField = "config_invalid_field"
	// CodeIgnoredField: a field that has no effect where it was written,
	// e.g. `shell` or `async` on a process hook, `args` on a command hook
	// (cleared: the runner hands the command string to the shell whole), or
	// Claude Code's `timeout`
	// (seconds) in a hookside file that takes `timeoutMs`, or a key that a
	// matcher group, a declaration or a hookside file's "hooks" object does
	// not have at all (the message names the key and the known key it most
	// likely misspells; severity warning).
	CodeIgnoredField = "config_ignored_field"
	// CodeDuplicateKey: an object of the file names the same key twice
	// (severity warning). As in JavaScript's JSON.parse the last one wins;
	// Source is "path:line:col" of the later key, the message names the
	// earlier one's line:col.
	CodeDuplicateKey = "config_duplicate_key"
	// CodeInvalidUTF8: the file is JSON but not UTF-8 (RFC 8259 §8.1; a
	// file saved as Latin-1, say) (severity warning). Source is the first
	// bad byte's file:line:col; every bad byte reads as U+FFFD, as
	// JSON.parse of the decoded text would have it, and the file loads.
	CodeInvalidUTF8 = "config_invalid_utf8"
	// CodeUnknownEvent: an event name in hooks.events of a hookside file that
	// is not one of the seven events (severity error, since it is usually a
	// typo). The event's declarations are dropped.
	CodeUnknownEvent = "config_unknown_event"
	// CodeInvalidHook: a matcher group or hook declaration is malformed
	// (unknown type, missing command, wrong field types, non-positive
	// limits, ${ZCODE_SKILL_DIR}; severity error). That declaration (or
	// group) is dropped; its siblings load.
	CodeInvalidHook = "config_invalid_hook"
	// CodeInvalidMatcher: a matcher that is not a valid JavaScript regular
	// expression (severity warning). The declarations stay, and the matcher
	// matches nothing, as in the spec (output.ts:98).
	CodeInvalidMatcher = "config_invalid_matcher"
	// CodeHooksDisabled: the user config declares hooks but does not set
	// hooks.enabled, so they do not run (severity info; spec: off by
	// default).
	CodeHooksDisabled = "config_hooks_disabled"
	// CodePluginUnsupportedEvent: a plugin's hooks/hooks.json declares an
	// event hookside does not have (severity warning; spec
	// §"与 Claude Code 的兼容程度").
	CodePluginUnsupportedEvent = "plugin_hook_unsupported_event"
	// CodePluginUnsupportedType: a plugin hook whose type is not "command"
	// (prompt, agent, http, …; severity warning). It is skipped.
	CodePluginUnsupportedType = "plugin_hook_unsupported_type"
	// CodePluginManifestInvalid: <root>/.claude-plugin/plugin.json is
	// unreadable or malformed (severity warning); the plugin's name falls
	// back to the directory's base name.
	CodePluginManifestInvalid = "plugin_manifest_invalid"
)

// MaxConfigFileBytes bounds the size of any configuration file this package
// reads (8 MiB); larger files are reported with CodeReadError.
const MaxConfigFileBytes = 8 << 20

// Spark dialect codes (hooks-v2-handbook §1.3).
const (
	// CodeSparkUnsupportedEvent: a spark settings file declares an event
	// other than UserPromptSubmit, PreToolUse, PostToolUse, Stop (severity
	// warning). Its hooks are skipped.
	CodeSparkUnsupportedEvent = "spark_unsupported_event"
	// CodeSparkUnsupportedType: a handler type other than "command" in a
	// spark settings file (prompt, agent, http; severity warning). Skipped.
	CodeSparkUnsupportedType = "spark_hook_unsupported_type"
	// CodeSparkMatcherIgnored: a matcher other than "" and "*" on
	// UserPromptSubmit or Stop in a spark settings file (severity
	// warning). The group runs for every event of its kind.
	CodeSparkMatcherIgnored = "spark_matcher_ignored"
	// CodeSparkLimit: an entry over a spark limit (command length, timeout,
	// commands per matcher, matchers per event; severity error). The entry
	// is dropped; the diagnostic names the file, line and entry.
	CodeSparkLimit = "spark_limit_exceeded"
	// CodeProcessNotFound: a process hook's executable (or the program of
	// the shell a command hook names) is not in PATH or its path does not
	// exist, or a script argument (a file with a script
	// extension under the workspace or the user's home) does not exist
	// (severity warning). The hook stays configured; each run of it fails
	// with the same message instead of starting.
	CodeProcessNotFound = "process_hook_not_found"
	// CodeCommandScriptNotFound: a command hook whose line is one simple
	// command `INTERPRETER [OPTIONS] SCRIPT …` (sh, bash, dash, zsh,
	// python, perl, ruby, node, deno, bun) names a SCRIPT that, resolved
	// against the session directory, lies under the workspace, the
	// session directory or the user's home and does not exist (severity
	// warning). The hook stays configured and runs; the interpreter then
	// fails, and python's, perl's and dash's exit status 2 blocks.
	CodeCommandScriptNotFound = "command_script_not_found"
	// CodeScriptCRLF: a hook's script, which exists, has Windows (CRLF)
	// line endings where they break it (severity warning): the "#!" line
	// of a process hook's executable, or of the script a command hook's
	// line (one simple command) names as its first word by path, ends in
	// a carriage return, so the system looks for an interpreter whose name
	// ends in "\r" (macOS and Linux; the process hook fails without
	// starting, the command hook's shell says "not found" and exits 127,
	// which fails open); or a command or process hook `SHELL [OPTIONS]
	// SCRIPT` (sh, bash, dash, zsh) is given a script whose first line
	// ends in CRLF, which the shell misreads. The hook stays configured.
	CodeScriptCRLF = "script_crlf_line_endings"
	// CodePluginDirNotFound: a plugin root named by the host, the command
	// line or a workspace file (session/open pluginDirs, --plugin-dir,
	// plugins.dirs) does not exist or is not a directory (severity
	// warning). Source is the absolute path; the plugin contributes no
	// hooks until the directory appears.
	CodePluginDirNotFound = "plugin_dir_not_found"
)
