package hook

// claudeManagedSettings is Claude Code's managed settings file on macOS
// (https://code.claude.com/docs/en/managed-settings).
const claudeManagedSettings = "/Library/Application Support/ClaudeCode/managed-settings.json"
