//go:build !windows

package runner

import "github.com/hookside/hookside/internal/hook"

// shellVars: ${VAR} values go to a POSIX shell as they are.
func shellVars(_ hook.Shell, vars map[string]string) map[string]string { return vars }

// shellArgv is the argv that runs command through sh (hook.Shell.Argv);
// Unix processes take no raw command line, so the second result is "".
func shellArgv(sh hook.Shell, command string, _ func() []string) ([]string, string, error) {
	argv, err := sh.Argv(command)
	return argv, "", err
}

// checkProcessArgv: no executable runs through a command interpreter here.
func checkProcessArgv([]string) error { return nil }
