package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/runner"
	"github.com/hookside/hookside/truststore"
)

// checkProfilePolicy is the usage error for a --profile or --policy value
// that is none of the accepted ones, or for a profile's user directory
// flag given without its profile (--spark-user-dir without --profile
// spark, --claude-home without --profile claude: the directory would be
// ignored), nil when the flags are accepted: the flag, the value and the
// accepted values, or the flag and the profile it needs. Every command
// taking the flags checks it before it reads anything and exits with its
// usage status (usageExitOf: 2, but 1 for hooks run and explain, whose 2
// means blocked).
func checkProfilePolicy(sf *sessionFlags, policy string) error {
	if _, ok := hook.Profile(sf.profile); !ok {
		return fmt.Errorf("--profile %q is not %s", sf.profile, profileValues())
	}
	if _, ok := truststore.ParsePolicy(policy); !ok {
		return fmt.Errorf("--policy %q is not %s", policy, policyValues)
	}
	for _, u := range []struct{ flag, value, profile string }{
		{"--spark-user-dir", sf.sparkUserDir, runner.ProfileSpark},
		{"--claude-home", sf.claudeHome, runner.ProfileClaude},
	} {
		if u.value != "" && sf.profile != u.profile {
			return fmt.Errorf("%s is a flag of --profile %s (the %s profile does not read it): add --profile %s or leave %s out",
				u.flag, u.profile, sf.profile, u.profile, u.flag)
		}
	}
	return nil
}

// userDirDiagnostics are the warnings for the profile's user directory
// flag (--spark-user-dir, --claude-home) naming a directory that does not
// exist or is not a directory, as for a --plugin-dir or --user-config that
// does not exist: its settings (and, for claude, plugins) do not load.
// None when the flag is not given.
func (f *sessionFlags) userDirDiagnostics() []hook.Diagnostic {
	flag, what := "--spark-user-dir", "no spark user settings load from it"
	if f.profile == runner.ProfileClaude {
		flag, what = "--claude-home", "no Claude Code user settings or installed plugins load from it"
	}
	d := f.userDir()
	if d == "" || (f.profile != runner.ProfileSpark && f.profile != runner.ProfileClaude) {
		return nil
	}
	fi, err := os.Stat(d)
	var problem string
	switch {
	case errors.Is(err, os.ErrNotExist):
		problem = "the " + flag + " directory does not exist"
	case err != nil:
		problem = "the " + flag + " directory cannot be examined"
	case !fi.IsDir():
		problem = flag + " names a file, not a directory"
	default:
		return nil
	}
	return []hook.Diagnostic{{Code: hook.CodeConfigNotFound, Severity: hook.SeverityWarning, Source: d,
		Message: problem + "; " + what}}
}
