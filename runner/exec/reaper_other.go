//go:build !linux

package exec

// EnableSubreaper is a no-op where the kernel has no child subreapers: a
// hook's process group is still killed, but a process that left it
// (setsid) is not tracked.
func EnableSubreaper() error { return nil }

// ReapEscapees is a no-op without subreaper support.
func ReapEscapees() {}
