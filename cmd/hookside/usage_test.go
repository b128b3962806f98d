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

// TestUnknownSubcommandWithFlags: an argument that names no subcommand of
// a command group is reported as an unknown command of that group (its
// valid subcommands named, exit 2) also when flags of the leaves follow it,
// which the group itself does not take.
func TestUnknownSubcommandWithFlags(t *testing.T) {
	e := newCLIEnv(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"v2", "bogus", "--home", e.home}, `hookside v2: unknown command "bogus" (want definitions, bindings, runs, emit)`},
		{[]string{"v2", "definitions", "bogus", "--file", "x.json"}, `hookside v2 definitions: unknown command "bogus" (want list, get, create, update, upsert, delete)`},
		{[]string{"v2", "bindings", "bogus", "--json"}, `hookside v2 bindings: unknown command "bogus" (want list, get, create, upsert, update, delete)`},
		{[]string{"v2", "runs", "bogus", "--limit", "3"}, `hookside v2 runs: unknown command "bogus" (want list, get, retry, cancel)`},
		{[]string{"hooks", "bogus", "--event", "Stop"}, `hookside hooks: unknown command "bogus" (want run, list, explain, trust)`},
		{[]string{"hooks", "trust", "bogus", "--no-such-flag"}, `hookside hooks trust: unknown action "bogus" (want status, review, grant or revoke)`},
		{[]string{"hooks", "trust", "grnt", "--digest", "1"}, "Did you mean grant?"},
		{[]string{"v2", "runs", "lisst", "--since", "x"}, "Did you mean list?"},
	} {
		code, out, errs := e.hookside(t, "", c.args...)
		if code != exitUsage || out != "" || !strings.Contains(errs, c.want) || strings.Contains(errs, "unknown flag") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %q", c.args, code, out, errs, c.want)
		}
	}
	// A flag the group does not take, with no subcommand named, stays an
	// unknown flag.
	if code, _, errs := e.hookside(t, "", "v2", "--home", e.home); code != exitUsage || !strings.Contains(errs, "hookside v2: unknown flag: --home") {
		t.Errorf("v2 --home: exit %d, %q", code, errs)
	}
}

// TestTranscriptPathOnlyOnRun: --transcript-path is hooks run's (the
// command that runs hooks); list, explain and trust refuse it as an
// unknown flag, with their usage status.
func TestTranscriptPathOnlyOnRun(t *testing.T) {
	e := newCLIEnv(t)
	for _, c := range []struct {
		args []string
		exit int
	}{
		{[]string{"hooks", "list"}, exitUsage},
		{[]string{"hooks", "trust"}, exitUsage},
		{[]string{"hooks", "trust", "status"}, exitUsage},
		{[]string{"hooks", "trust", "grant", "--all"}, exitUsage},
		{[]string{"hooks", "explain", "--event", "Stop"}, exitError},
	} {
		args := append(append([]string{}, c.args...), "--transcript-path", "t.jsonl")
		if code, _, errs := e.hookside(t, "", args...); code != c.exit || !strings.Contains(errs, "unknown flag: --transcript-path") {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and unknown flag", args, code, errs, c.exit)
		}
	}
	if code, out, errs := e.hookside(t, "", "hooks", "run", "--event", "Stop", "--transcript-path", "t.jsonl"); code != exitOK {
		t.Errorf("hooks run --transcript-path: exit %d %s %s", code, out, errs)
	}
}
