package main

import (
	"strings"
	"testing"
)

// TestBadProfilePolicyIsUsageError: an unknown --profile or --policy value
// is a usage error of every command taking the flag, named with the
// accepted values, before anything is read: exit 2 (hooks list, hooks
// trust and its actions), 1 for hooks run and explain (their usage status,
// 2 meaning blocked there).
func TestBadProfilePolicyIsUsageError(t *testing.T) {
	e := newCLIEnv(t)
	for _, c := range []struct {
		args []string
		exit int
	}{
		{[]string{"hooks", "list"}, exitUsage},
		{[]string{"hooks", "trust"}, exitUsage},
		{[]string{"hooks", "trust", "status"}, exitUsage},
		{[]string{"hooks", "trust", "status", "--workspace", "ssh:host/repo"}, exitUsage},
		{[]string{"hooks", "trust", "grant", "--digest", "1"}, exitUsage},
		{[]string{"hooks", "trust", "revoke", "--all"}, exitUsage},
		{[]string{"hooks", "trust", "review"}, exitUsage},
		{[]string{"hooks", "run", "--event", "Stop"}, exitError},
		{[]string{"hooks", "explain", "--event", "Stop"}, exitError},
	} {
		for _, bad := range []struct{ flag, want string }{
			{"--profile", `--profile "nope" is not zcode, spark or claude`},
			{"--policy", `--policy "nope" is not user_decides, deny or allow_trusted_only`},
		} {
			args := append(append([]string{}, c.args...), bad.flag, "nope")
			code, out, errs := e.hookside(t, "", args...)
			prefix := "hookside " + strings.Join(c.args[:2], " ")
			if code != c.exit || !strings.Contains(errs, prefix+": "+bad.want) || out != "" {
				t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit %d and %q", args, code, out, errs, c.exit, prefix+": "+bad.want)
			}
		}
	}
}
