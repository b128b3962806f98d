//go:build windows

package runner

import (
	"fmt"
	"os"
	"os/exec"

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

// shellArgv is the argv that runs command on Windows (hook.Shell.
// WindowsArgv): Git Bash found by hook.FindGitBash, never inside the
// directories refuse returns (the workspace root and the working
// directory); PowerShell with an encoded
// command. Errors: hook.ErrNoGitBash, hook.ErrInvalidShell (also for
// shell "cmd": its raw command line cannot be passed through exec.Spec,
// which has Argv only).
func shellArgv(sh hook.Shell, command string, refuse func() []string) ([]string, error) {
	bash := ""
	if sh.Kind() != hook.ShellString {
		git, _ := exec.LookPath("git")
		var err error
		bash, err = hook.FindGitBash(hook.GitBashLookup{Getenv: os.Getenv, IsFile: isFile, GitPath: git, Refuse: refuse()})
		if err != nil {
			return nil, err
		}
	}
	wc, err := sh.WindowsArgv(command, bash, os.Getenv("ComSpec"))
	if err != nil {
		return nil, err
	}
	if wc.CmdLine != "" {
		return nil, fmt.Errorf("%w: shell %q needs its raw command line (%s) given to CreateProcess, and the spawner takes an argv only; use shell \"powershell\", \"pwsh\" or Git Bash", hook.ErrInvalidShell, sh.Program(), wc.CmdLine)
	}
	return wc.Argv, nil
}

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
