//go:build unix

package proc

// osHelpers are the Unix-only helper modes.
var osHelpers = map[string]func(args []string) int{}
