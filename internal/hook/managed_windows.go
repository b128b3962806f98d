package hook

// claudeManagedSettings is Claude Code's managed settings file on Windows
// (https://code.claude.com/docs/en/managed-settings).
const claudeManagedSettings = `C:\Program Files\ClaudeCode\managed-settings.json`
