//go:build !darwin && !windows

package hook

// claudeManagedSettings is Claude Code's managed settings file on Linux
// and WSL (https://code.claude.com/docs/en/managed-settings); other Unix
// systems use the same path.
const claudeManagedSettings = "/etc/claude-code/managed-settings.json"
