package main

import (
	"bytes"
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/hookside/hookside/truststore"
)

// TestBadProfilePolicyIsUsageError: an unknown --profile or --policy value
// is a usage error of every command taking the flag, named with the
// accepted values after the full path of the command, before anything is
// read: exit 2 (hooks list, hooks
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
			// The full path of the command that failed (hooks trust grant).
			prefix := "hookside " + strings.Join(c.args[:2], " ")
			if len(c.args) > 2 && !strings.HasPrefix(c.args[2], "-") {
				prefix += " " + c.args[2]
			}
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
		{[]string{"v2", "definitions", "bogus", "--file", "x.json"}, `hookside v2 definitions: unknown command "bogus" (want list, get, create, update, upsert, validate, delete)`},
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

// TestUsageLinesNameEveryFlag: the usage line of every command is made
// from its flag set: each flag it takes is in it (so v2 runs list shows
// --since, --until and --event-id), and nothing else is, no "[flags]".
func TestUsageLinesNameEveryFlag(t *testing.T) {
	root := newRootCmd(io.Discard, io.Discard)
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, s := range c.Commands() {
			walk(s)
		}
		if !c.HasParent() || !c.Runnable() {
			return
		}
		line := c.UseLine()
		if strings.Contains(line, "[flags]") {
			t.Errorf("%s: usage line %q has [flags]", c.CommandPath(), line)
		}
		named := map[string]bool{}
		for _, m := range regexp.MustCompile(`--([a-z][a-z0-9-]*)`).FindAllStringSubmatch(line, -1) {
			named[m[1]] = true
		}
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if f.Name != "help" && !f.Hidden && !named[f.Name] {
				t.Errorf("%s: usage line %q lacks --%s", c.CommandPath(), line, f.Name)
			}
			delete(named, f.Name)
		})
		for n := range named {
			t.Errorf("%s: usage line %q names --%s, which it does not take", c.CommandPath(), line, n)
		}
	}
	walk(root)
	if got := usageLine(t, "v2", "runs", "list"); !strings.Contains(got, "[--event-id ID] [--session ID] [--since T] [--until T]") {
		t.Errorf("v2 runs list usage: %q", got)
	}
}

// usageLine is the usage line of `hookside ARGS --help`, unfolded.
func usageLine(t *testing.T, args ...string) string {
	t.Helper()
	var out bytes.Buffer
	if code := run(append(args, "--help"), &out, io.Discard); code != exitOK {
		t.Fatalf("%v --help: exit %d", args, code)
	}
	_, rest, _ := strings.Cut(out.String(), "Usage:\n")
	line, _, _ := strings.Cut(rest, "\n\n")
	return strings.Join(strings.Fields(line), " ")
}

// TestExplainInputHelp: hooks explain --help says what --input takes (a
// file path or - for stdin), its shape (the hook input JSON object of the
// event) and what holds without it.
func TestExplainInputHelp(t *testing.T) {
	var out bytes.Buffer
	if code := run([]string{"hooks", "explain", "--help"}, &out, io.Discard); code != exitOK {
		t.Fatalf("exit %d", code)
	}
	_, line, _ := strings.Cut(out.String(), "      --input FILE")
	line, _, _ = strings.Cut(line, "\n")
	for _, want := range []string{"FILE path, or - for stdin", "hook input JSON object", "--profile claude only", "Absent: {}", "--tool fills in tool_name"} {
		if !strings.Contains(line, want) {
			t.Errorf("--input help %q lacks %q", line, want)
		}
	}
}

// TestRunEventNotInProfile: hooks run of an event the profile does not
// have (spark: four events) says so on stderr and exits 0, running
// nothing, as for an event without hooks.
func TestRunEventNotInProfile(t *testing.T) {
	e := newCLIEnv(t)
	code, out, errs := e.hookside(t, "", "hooks", "run", "--profile", "spark", "--event", "SessionStart")
	want := "hookside hooks run: the spark profile has no SessionStart event (its events are UserPromptSubmit, PreToolUse, PostToolUse, Stop): no hook runs for it"
	if code != exitOK || !strings.Contains(errs, want) || !strings.Contains(out, "0 hook(s) ran") {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit 0 and %q", code, out, errs, want)
	}
	if _, _, errs := e.hookside(t, "", "hooks", "run", "--profile", "spark", "--event", "Stop"); strings.Contains(errs, "profile has no") {
		t.Errorf("a spark event is said to be missing: %s", errs)
	}
}

// TestTrustErrorPrefixIsCommandPath: every hooks trust message on stderr
// begins with the full path of the command that failed.
func TestTrustErrorPrefixIsCommandPath(t *testing.T) {
	e := newCLIEnv(t)
	ws, outside := t.TempDir(), t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"grant"}, "hookside hooks trust grant: name --digest D (repeatable) or --all"},
		{[]string{"revoke"}, "hookside hooks trust revoke: name --digest D (repeatable) or --all"},
		{[]string{"grant", "--all"}, "hookside hooks trust grant: --all needs --bundle-digest"},
		{[]string{"grant", "--digest", "7"}, "hookside hooks trust grant: --digest 7: no declaration number 7"},
		{[]string{"revoke", "--all", "--digest", "1"}, "hookside hooks trust revoke: --all and --digest exclude each other"},
		{[]string{"grant", "--workspace", "ssh:host/r", "--all", "--bundle-digest", strings.Repeat("b", 64)}, "hookside hooks trust grant: ssh:host/r is not a local directory"},
		{[]string{"grant", "--all", "--bundle-digest", "b"}, `hookside hooks trust grant: --bundle-digest "b": too short for a bundle digest`},
		{[]string{"status", "--cwd", outside, "--workspace", ws}, "hookside hooks trust status: --cwd " + outside + " is not inside the workspace " + truststore.CanonicalID(ws)},
		{[]string{"--cwd", outside, "--workspace", ws}, "hookside hooks trust: --cwd " + outside + " is not inside the workspace "},
		{[]string{"status", "--cwd", ws, "--workspace", "ssh:host/r"}, "hookside hooks trust status: --cwd " + ws + " with the workspace identity ssh:host/r: a session directory needs a local workspace"},
	} {
		_, _, errs := e.hookside(t, "", append([]string{"hooks", "trust"}, c.args...)...)
		if !strings.HasPrefix(errs, c.want) {
			t.Errorf("%v: stderr %q, want it to begin %q", c.args, errs, c.want)
		}
	}
}
