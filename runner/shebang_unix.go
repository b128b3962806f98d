//go:build !windows

package runner

// shebangExec: the kernel starts a script through the interpreter its
// "#!" line names.
const shebangExec = true
