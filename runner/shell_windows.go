//go:build windows

package runner

import (
	"os"
	"os/exec"
	"path/filepath"

	"github.com/hookside/hookside/internal/hook"
)

// shellVars gives ${VAR} paths to a bash-run command hook with forward
// slashes (hook.BashPath); other shells get them as they are.
func shellVars(sh hook.Shell, vars map[string]string) map[string]string {
	if !sh.UsesBash() {
		return vars
	}
	out := make(map[string]string, len(vars))
	for k, v := range vars {
		out[k] = hook.BashPath(v)
	}
	return out
}

// shellArgv is how command runs on Windows (hook.Shell.WindowsArgv): the
// argv, and for shell "cmd" the raw command line for cmd.exe (comspec
// %ComSpec%, else %SystemRoot%\System32\cmd.exe). Git Bash is found by
// hook.FindGitBash, never inside the directories refuse returns (the
// workspace root and the working directory); PowerShell gets an encoded
// command. Errors: hook.ErrNoGitBash, hook.ErrInvalidShell,
// hook.ErrCmdCommand.
func shellArgv(sh hook.Shell, command string, refuse func() []string) ([]string, string, error) {
	bash := ""
	if sh.Kind() != hook.ShellString {
		git, _ := exec.LookPath("git")
		var err error
		bash, err = hook.FindGitBash(hook.GitBashLookup{Getenv: os.Getenv, IsFile: isFile, GitPath: git, Refuse: refuse()})
		if err != nil {
			return nil, "", err
		}
	}
	comspec := os.Getenv("ComSpec")
	if root := os.Getenv("SystemRoot"); comspec == "" && root != "" {
		comspec = filepath.Join(root, "System32", "cmd.exe")
	}
	wc, err := sh.WindowsArgv(command, bash, comspec)
	if err != nil {
		return nil, "", err
	}
	return wc.Argv, wc.CmdLine, nil
}

// shellPath is "": the Windows command line is resolved by shellArgv
// (Git Bash, %ComSpec%) at every run.
func (s *Session) shellPath(*hook.Hook, []string) string { return "" }

// checkProcessArgv refuses cmd.exe metacharacters in the arguments of a
// process hook whose executable resolves (PATH and PATHEXT, as the
// spawner looks it up) to a .cmd or .bat file (hook.CheckBatchArgs).
func checkProcessArgv(argv []string) error {
	exe := argv[0]
	if p, err := exec.LookPath(exe); err == nil {
		exe = p
	}
	return hook.CheckBatchArgs(exe, argv[1:])
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}
