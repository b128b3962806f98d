//go:build !windows

package runner

import (
	osexec "os/exec"
	"path/filepath"

	"github.com/hookside/hookside/internal/hook"
)

// shellVars: ${VAR} values go to a POSIX shell as they are.
func shellVars(_ hook.Shell, vars map[string]string) map[string]string { return vars }

// shellPath is the executable of argv when it is the shell of a command
// hook ("sh" from hook.Shell.Argv): hookside's PATH is searched for it once
// per session (a shell is not installed anew while a session runs, and a
// long PATH costs a stat per directory on every run otherwise); "" for
// any other argv, or when sh is not found (the spawn then looks it up and
// reports it).
func (s *Session) shellPath(h *hook.Hook, argv []string) string {
	if h.Type != hook.TypeCommand || len(argv) == 0 || argv[0] != "sh" {
		return ""
	}
	s.shOnce.Do(func() {
		if p, err := osexec.LookPath("sh"); err == nil && filepath.IsAbs(p) {
			s.sh = p
		}
	})
	return s.sh
}

// shellArgv is the argv that runs command through sh (hook.Shell.Argv);
// Unix processes take no raw command line, so the second result is "".
func shellArgv(sh hook.Shell, command string, _ func() []string) ([]string, string, error) {
	argv, err := sh.Argv(command)
	return argv, "", err
}

// checkProcessArgv: no executable runs through a command interpreter here.
func checkProcessArgv([]string) error { return nil }
