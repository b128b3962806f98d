package exec

import (
	"os"

	"github.com/hookside/hookside/internal/proc"
)

// runEnv is the hook's environment, env (nil: this process's) with
// proc.TokenVar=token last; os/exec keeps the last of duplicate keys (on
// Windows compared without case), so an inherited token is replaced.
//
// Every hook gets a token on every OS, so a hook's tree can be recognised
// the same way everywhere. What it guarantees differs: on macOS (and
// FreeBSD, Linux without a subreaper) it is how escapees are found and
// killed (proc.Sweep); on Linux with the subreaper and on Windows, where
// the Job Object holds the whole tree and refuses breakaway, nothing needs
// to search for it.
func runEnv(env []string, token string) []string {
	if env == nil {
		env = os.Environ()
	}
	out := make([]string, len(env), len(env)+1)
	copy(out, env)
	return append(out, proc.TokenVar+"="+token)
}
