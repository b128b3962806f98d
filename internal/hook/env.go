package hook

// Environment variables a hook process sees (lifecycle-hooks-and-workspace-trust
// §"进程钩子的协议"; PROTOCOL.md §3 "Environment"). Each fact is exported
// under the zcode name and the Claude Code names, so scripts written for
// either host work unchanged.
const (
	EnvProjectDir          = "ZCODE_PROJECT_DIR"
	EnvSessionID           = "ZCODE_SESSION_ID"
	EnvPluginRoot          = "ZCODE_PLUGIN_ROOT"
	EnvPluginData          = "ZCODE_PLUGIN_DATA"
	EnvClaudeProjectDir    = "CLAUDE_PROJECT_DIR"
	EnvClaudeSessionID     = "CLAUDE_SESSION_ID"
	EnvClaudeCodeSessionID = "CLAUDE_CODE_SESSION_ID"
	EnvClaudePluginRoot    = "CLAUDE_PLUGIN_ROOT"
	EnvClaudePluginData    = "CLAUDE_PLUGIN_DATA"
	// EnvSkillDir has no meaning in a hook: a command or argument that
	// names it is a configuration error (CodeInvalidHook).
	EnvSkillDir = "ZCODE_SKILL_DIR"
)

// The names of each fact, zcode name first.
var (
	ProjectDirVars = []string{EnvProjectDir, EnvClaudeProjectDir}
	SessionIDVars  = []string{EnvSessionID, EnvClaudeSessionID, EnvClaudeCodeSessionID}
	PluginRootVars = []string{EnvPluginRoot, EnvClaudePluginRoot}
	PluginDataVars = []string{EnvPluginData, EnvClaudePluginData}
)

// ExpandableVars are the names that ${NAME} in a hook's command and args
// is replaced with (PROTOCOL.md §3).
var ExpandableVars = []string{
	EnvProjectDir, EnvSessionID,
	EnvClaudeProjectDir, EnvClaudeSessionID, EnvClaudeCodeSessionID,
	EnvPluginRoot, EnvClaudePluginRoot,
	EnvPluginData, EnvClaudePluginData,
}

// IsExpandable reports whether name is one of ExpandableVars.
func IsExpandable(name string) bool {
	switch name {
	case EnvProjectDir, EnvSessionID,
		EnvClaudeProjectDir, EnvClaudeSessionID, EnvClaudeCodeSessionID,
		EnvPluginRoot, EnvClaudePluginRoot,
		EnvPluginData, EnvClaudePluginData:
		return true
	}
	return false
}
