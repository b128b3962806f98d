package main

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/hookside/hookside/runner"
)

// runCwdHelp is --run-cwd's help: the directory a claude-profile run
// starts in (Claude Code's input cwd), where a review resolves the pins.
const runCwdHelp = "review as a claude-profile run whose input cwd is `DIR` (inside the workspace) is admitted: pins resolved there, the grant adding that directory's set (--profile claude)"

// checkRunCwdFlag refuses --run-cwd where no run starts in a directory of
// its own (a usage error): only the claude profile's runs carry a cwd.
func checkRunCwdFlag(runCwd, profile string) error {
	if runCwd == "" || profile == runner.ProfileClaude {
		return nil
	}
	return fmt.Errorf("--run-cwd %s: only claude-profile runs start in a directory of their own (Claude Code's input cwd): add --profile claude; a session opened in that directory is reviewed with --workspace PATH --cwd DIR", runCwd)
}

// runCwdIn resolves --run-cwd dir against the session rs (runner.RunDir):
// the run directory, spelled as a run there is admitted at ("" for dir
// "": the session directory). Its errors
// are usage errors worded for the flag: dir does not exist, is not a
// directory, cannot be read, or is not inside the workspace root.
func runCwdIn(rs *runner.Session, dir string) (string, error) {
	if dir == "" {
		return "", nil
	}
	d, err := rs.RunDir(dir)
	switch {
	case err == nil:
		return d, nil
	case errors.Is(err, runner.ErrRunDirOutside):
		return "", fmt.Errorf("--run-cwd %s is not inside the workspace %s: a claude-profile run there admits no workspace hook, and no grant can cover it", dir, rs.Options().Cwd)
	case errors.Is(err, fs.ErrNotExist):
		return "", fmt.Errorf("--run-cwd %s: no such directory", dir)
	case errors.Is(err, runner.ErrCwd):
		return "", fmt.Errorf("--run-cwd %s: not a directory", dir)
	case errors.Is(err, fs.ErrPermission):
		return "", fmt.Errorf("--run-cwd %s: cannot be read (permission denied)", dir)
	case errors.Is(err, runner.ErrRunDirProfile):
		return "", checkRunCwdFlag(dir, "")
	}
	return "", fmt.Errorf("--run-cwd %s: %v", dir, err)
}
