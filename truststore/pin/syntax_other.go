//go:build !windows

package pin

// checkWindowsSyntax: off Windows the command line is POSIX shell syntax.
const checkWindowsSyntax = false
