// Package hook is the shell-hook vocabulary every other package shares: the
// seven events, a hook declaration (Hook) and where it came from (Source),
// its shell (Shell), its limits (Limits), the diagnostics configuration
// loading reports (Diagnostic and its codes), the environment names a hook
// sees, and the dialects a configuration file can be written in (Dialect).
//
// It is pure data and rules (lifecycle-hooks-and-workspace-trust.zh.txt
// §"七个事件", §"配置格式与默认值"; hooks-v2-handbook.zh.txt §1.3): no I/O,
// no goroutines, no mutable global state, and it imports no other hookside
// package.
package hook
