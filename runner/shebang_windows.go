//go:build windows

package runner

// shebangExec: Windows starts no script through a "#!" line (a process
// hook names its interpreter in argv), so the line is never the cause of
// a failed start.
const shebangExec = false
