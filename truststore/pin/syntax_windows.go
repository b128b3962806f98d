//go:build windows

package pin

// checkWindowsSyntax: on Windows PinScriptsIn refuses (fail closed) the
// command lines windowsSyntax cannot read.
const checkWindowsSyntax = true
