//go:build !linux && !freebsd

package exec

// EnableSubreaper is a no-op where the kernel has no child subreapers: a
// hook's process group is still killed, and on macOS a process that left
// it (setsid) is found by the run's token and killed when the hook ends.
func EnableSubreaper() error { return nil }

// ReapEscapees is a no-op without subreaper support.
func ReapEscapees() {}

// reapAfterHook is a no-op without subreaper support.
func reapAfterHook() {}
