package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// cannotRunStop is a file whose one Stop hook cannot run (a prompt
// handler, or an unknown type under claude): hooks list then prints its
// hooks explain hint.
const (
	cannotRunStop       = `{"hooks":{"Stop":[{"hooks":[{"type":"prompt","prompt":"done?"}]}]}}`
	cannotRunStopClaude = `{"hooks":{"Stop":[{"hooks":[{"type":"bogus"}]}]}}`
)

// TestListExplainHintRepeatsFlags: the hooks explain line hooks list
// prints for hooks that cannot run repeats the flags that select the
// configuration (--home, also from $HOOKSIDE_HOME; --user-config,
// --plugin-dir, --profile with its user directory, --cwd), shell-quoted;
// pasted as printed, with $HOOKSIDE_HOME naming another home, it explains
// the same file.
func TestListExplainHintRepeatsFlags(t *testing.T) {
	e := newCLIEnv(t)
	other := filepath.Join(e.root, "other home") // a space: quoted
	plugin := filepath.Join(e.root, "plugin")
	spark := filepath.Join(e.root, "spark")
	claude := filepath.Join(e.root, "claude")
	userCfg := filepath.Join(e.root, "u.json")
	writeFiles(t, map[string]string{
		filepath.Join(other, "config.json"): `{"hooks":{"enabled":true,"events":{"Stop":[{"hooks":[{"type":"prompt","prompt":"x"}]}]}}}`,
		userCfg:                             `{"hooks":{"enabled":true,"events":{"Stop":[{"hooks":[{"type":"prompt","prompt":"x"}]}]}}}`,
		filepath.Join(plugin, "hooks", "hooks.json"): cannotRunStop,
		filepath.Join(spark, "settings.json"):        cannotRunStop,
		filepath.Join(claude, "settings.json"):       cannotRunStopClaude,
		filepath.Join(e.home, "config.json"):         `{"hooks":{"enabled":true,"events":{"Stop":[{"hooks":[{"type":"prompt","prompt":"x"}]}]}}}`,
	})
	for _, c := range []struct {
		flags []string
		want  string // in the hint
		file  string // the explained file
	}{
		{nil, " --home " + e.home, filepath.Join(e.home, "config.json")},
		{[]string{"--home", other}, " --home '" + other + "'", filepath.Join(other, "config.json")},
		{[]string{"--user-config", userCfg}, " --user-config " + userCfg, userCfg},
		{[]string{"--plugin-dir", plugin}, " --plugin-dir " + plugin, filepath.Join(plugin, "hooks", "hooks.json")},
		{[]string{"--profile", "spark", "--spark-user-dir", spark}, " --profile spark --spark-user-dir " + spark, filepath.Join(spark, "settings.json")},
		{[]string{"--profile", "claude", "--claude-home", claude}, " --profile claude --claude-home " + claude, filepath.Join(claude, "settings.json")},
		{[]string{"--cwd", e.ws}, " --cwd " + e.ws, filepath.Join(e.home, "config.json")},
	} {
		_, out, errs := e.hookside(t, "", append([]string{"hooks", "list"}, c.flags...)...)
		i := strings.Index(out, "hookside hooks explain")
		j := strings.Index(out, " shows every hook")
		if i < 0 || j < i {
			t.Errorf("%v: no explain hint:\n%s%s", c.flags, out, errs)
			continue
		}
		hint := out[i:j]
		if !strings.Contains(hint, c.want) {
			t.Errorf("%v: hint %q lacks %q", c.flags, hint, c.want)
		}
		// Pasted into a shell whose $HOOKSIDE_HOME is another home.
		args := shellFields(t, strings.TrimPrefix(hint, "hookside "))
		moved := e
		moved.home = filepath.Join(e.root, "unrelated")
		code, xout, xerrs := moved.hookside(t, "", args...)
		if code != exitOK || !strings.Contains(xout, c.file) {
			t.Errorf("%v: pasted %q: exit %d, want %s explained:\n%s%s", c.flags, hint, code, c.file, xout, xerrs)
		}
	}
}

// shellFields splits a hint line as a POSIX shell would: words at spaces,
// '…' quoted (runner.ShellWord's quoting).
func shellFields(t *testing.T, line string) []string {
	t.Helper()
	var out []string
	var w strings.Builder
	in, has := false, false
	for _, r := range line {
		switch {
		case r == '\'':
			in, has = !in, true
		case r == ' ' && !in:
			if has {
				out = append(out, w.String())
			}
			w.Reset()
			has = false
		default:
			w.WriteRune(r)
			has = true
		}
	}
	if in {
		t.Fatalf("unbalanced quote in %q", line)
	}
	if has {
		out = append(out, w.String())
	}
	return out
}

// TestRunReviewHintNamesEnvHome: with the home from $HOOKSIDE_HOME and no
// --home, the review command hooks run prints names --home, as the
// app-server's review command does for a home that is not the platform's
// default: the shell it is pasted into may not have the variable.
func TestRunReviewHintNamesEnvHome(t *testing.T) {
	e, _ := trustCLIEnv(t)
	_, _, errs := e.hookside(t, "", "hooks", "run", "--event", "Stop")
	want := "Review them with: hookside hooks trust review --home " + e.home + " --workspace " + e.ws + "\n"
	if !strings.Contains(errs, want) {
		t.Fatalf("want %q in:\n%s", want, errs)
	}
	if strings.Count(errs, "hookside hooks trust review --home "+e.home) != 2 {
		t.Errorf("the pending-trust diagnostic lacks --home too:\n%s", errs)
	}
}

// TestUserDirFlags: --spark-user-dir and --claude-home without their
// profile are usage errors naming the flag and the profile (exit 2; hooks
// run and explain 1, their usage status), and with it a directory that
// does not exist (or is a file) is a warning naming it, as for
// --plugin-dir.
func TestUserDirFlags(t *testing.T) {
	e := newCLIEnv(t)
	file := filepath.Join(e.root, "f")
	writeFiles(t, map[string]string{file: "x"})
	for _, c := range []struct {
		cmd  []string
		exit int
	}{
		{[]string{"hooks", "list"}, exitUsage},
		{[]string{"hooks", "trust", "status"}, exitUsage},
		{[]string{"hooks", "run", "--event", "Stop"}, exitError},
		{[]string{"hooks", "explain", "--event", "Stop"}, exitError},
	} {
		for _, f := range []struct{ flag, profile, given string }{
			{"--claude-home", "claude", ""}, {"--claude-home", "claude", "spark"},
			{"--spark-user-dir", "spark", ""}, {"--spark-user-dir", "spark", "claude"},
		} {
			args := append(append([]string{}, c.cmd...), f.flag, e.root)
			if f.given != "" {
				args = append(args, "--profile", f.given)
			}
			code, _, errs := e.hookside(t, "", args...)
			if want := f.flag + " is a flag of --profile " + f.profile; code != c.exit || !strings.Contains(errs, want) {
				t.Errorf("%v: exit %d, stderr %q; want %d and %q", args, code, errs, c.exit, want)
			}
		}
	}
	missing := filepath.Join(e.root, "nonexistent")
	for _, c := range []struct{ profile, flag, dir, want string }{
		{"claude", "--claude-home", missing, "the --claude-home directory does not exist"},
		{"spark", "--spark-user-dir", missing, "the --spark-user-dir directory does not exist"},
		{"claude", "--claude-home", file, "--claude-home names a file, not a directory"},
	} {
		for _, cmd := range [][]string{{"hooks", "list"}, {"hooks", "run", "--event", "Stop"}, {"hooks", "explain", "--event", "Stop"}} {
			args := append(append([]string{}, cmd...), "--profile", c.profile, c.flag, c.dir)
			code, _, errs := e.hookside(t, "", args...)
			if want := "hookside: " + c.dir + ": warning: " + c.want; code != exitOK || !strings.Contains(errs, want) {
				t.Errorf("%v: exit %d, stderr %q; want 0 and %q", args, code, errs, want)
			}
		}
	}
}

// TestExplainInputReadInEveryProfile: hooks explain --input FILE that
// cannot be read is the same error, exit 1, under every profile (it was
// ignored but under claude), as hooks run gives it; a file that is not a
// JSON object is refused too.
func TestExplainInputReadInEveryProfile(t *testing.T) {
	e := newCLIEnv(t)
	missing := filepath.Join(e.root, "nonexistent.json")
	notObject := filepath.Join(e.root, "array.json")
	writeFiles(t, map[string]string{notObject: "[1]"})
	want := "read input: --input " + missing + ": " + (func() string {
		_, err := os.ReadFile(missing)
		return err.(*os.PathError).Err.Error()
	})()
	for _, profile := range []string{"zcode", "spark", "claude"} {
		code, _, errs := e.hookside(t, "", "hooks", "explain", "--event", "Stop", "--profile", profile, "--input", missing)
		if code != exitError || errs != "hookside hooks explain: "+want+"\n" {
			t.Errorf("%s: exit %d, stderr %q; want 1 and %q", profile, code, errs, want)
		}
		code, _, errs = e.hookside(t, "", "hooks", "explain", "--event", "Stop", "--profile", profile, "--input", notObject)
		if code != exitError || !strings.Contains(errs, "the input must be a JSON object") {
			t.Errorf("%s, an array: exit %d, stderr %q", profile, code, errs)
		}
	}
	if code, _, errs := e.hookside(t, "", "hooks", "run", "--event", "Stop", "--input", missing); code != exitError || errs != "hookside hooks run: "+want+"\n" {
		t.Errorf("hooks run: exit %d, stderr %q; want %q", code, errs, want)
	}
}

// TestSingleValueFlagTwice: a flag that takes one value given twice is a
// usage error naming it and the first value, with the command's usage
// status; repeatable flags and booleans take any number.
func TestSingleValueFlagTwice(t *testing.T) {
	e := newCLIEnv(t)
	for _, c := range []struct {
		args []string
		flag string
		exit int
	}{
		{[]string{"hooks", "explain", "--event", "Stop", "--input", "a.json", "--input", "b.json"}, "--input", exitError},
		{[]string{"hooks", "run", "--event", "Stop", "--event", "PreToolUse"}, "--event", exitError},
		{[]string{"hooks", "list", "--home", e.home, "--home=" + e.root}, "--home", exitUsage},
		{[]string{"hooks", "trust", "status", "--policy", "deny", "--policy", "deny"}, "--policy", exitUsage},
		{[]string{"v2", "runs", "list", "--limit", "1", "--limit", "2"}, "--limit", exitUsage},
	} {
		code, _, errs := e.hookside(t, "", c.args...)
		if want := c.flag + " was already given"; code != c.exit || !strings.Contains(errs, want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", c.args, code, errs, c.exit, want)
		}
	}
	plugin := filepath.Join(e.root, "p")
	if code, _, errs := e.hookside(t, "", "hooks", "list", "--plugin-dir", plugin, "--plugin-dir", plugin+"2", "--json", "--json"); code != exitOK {
		t.Errorf("repeatable --plugin-dir, --json twice: exit %d %s", code, errs)
	}
}

// TestUsageErrorExitEverySubcommand: a usage error (a bad flag value, a
// flag the command does not take, an unexpected argument) exits with the
// command's documented usage status in every subcommand: 2, but 1 for
// hooks run and hooks explain, whose 2 means "the host must not proceed"
// (README, docs/troubleshooting.md).
func TestUsageErrorExitEverySubcommand(t *testing.T) {
	e := newCLIEnv(t)
	cmds := []struct {
		args []string
		exit int
	}{
		{[]string{"hooks", "run", "--event", "Stop"}, exitError},
		{[]string{"hooks", "explain", "--event", "Stop"}, exitError},
		{[]string{"hooks", "list"}, exitUsage},
		{[]string{"hooks", "trust"}, exitUsage},
		{[]string{"hooks", "trust", "status"}, exitUsage},
		{[]string{"hooks", "trust", "review"}, exitUsage},
		{[]string{"hooks", "trust", "grant", "--all"}, exitUsage},
		{[]string{"hooks", "trust", "revoke", "--all"}, exitUsage},
	}
	bad := [][]string{
		{"--policy", "maybe"},
		{"--profile", "nope"},
		{"--bogus"},
		{"--claude-home", "x"},
		{"--event", "Nope"},
		{"--hooks-enabled=maybe"},
		{"stray"},
	}
	for _, c := range cmds {
		for _, b := range bad {
			args := append(append([]string{}, c.args...), b...)
			if code, _, errs := e.hookside(t, "", args...); code != c.exit {
				t.Errorf("%v: exit %d, want %d (stderr %q)", args, code, c.exit, errs)
			}
		}
		if c.args[1] != "run" { // only hooks run takes --transcript-path
			args := append(append([]string{}, c.args...), "--transcript-path", "t")
			if code, _, errs := e.hookside(t, "", args...); code != c.exit {
				t.Errorf("%v: exit %d, want %d (stderr %q)", args, code, c.exit, errs)
			}
		}
	}
	for _, args := range [][]string{
		{"app-server", "--stdio", "--log-level", "loud"},
		{"app-server", "--bogus"},
		{"v2", "runs", "list", "--limit", "x"},
		{"v2", "definitions", "get"},
		{"protocol", "schema", "stray"},
		{"version", "--bogus"},
		{"man", "--bogus"},
	} {
		if code, _, errs := e.hookside(t, "", args...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d (stderr %q)", args, code, exitUsage, errs)
		}
	}
}

// TestListEventOfWrongTypeIsNotNothingConfigured: an event whose value
// is not an array (an object: a load error) is not "no hooks configured":
// hooks list says hooks are declared but could not be loaded; --event of
// another event still says none is configured.
func TestListEventOfWrongTypeIsNotNothingConfigured(t *testing.T) {
	e := newCLIEnv(t)
	writeFiles(t, map[string]string{
		filepath.Join(e.home, "config.json"): `{"hooks":{"enabled":true,"events":{"PreToolUse":{"matcher":"Bash","hooks":[{"type":"command","command":"true"}]}}}}`,
	})
	code, out, errs := e.hookside(t, "", "hooks", "list")
	if code != exitOK || !strings.HasPrefix(out, "no hooks loaded: hooks are declared but could not be loaded: 1 error(s) (see the errors above)") ||
		!strings.Contains(errs, "PreToolUse must be an array of matcher groups, got object") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
	if _, out, _ := e.hookside(t, "", "hooks", "list", "--event", "PreToolUse"); !strings.HasPrefix(out, "no hooks loaded:") {
		t.Errorf("--event PreToolUse: %q", out)
	}
	if _, out, _ := e.hookside(t, "", "hooks", "list", "--event", "Stop"); out != "no hooks configured\n" {
		t.Errorf("--event Stop: %q, want no hooks configured", out)
	}
}

// TestGrantAllWithoutBundleHint: the status command the --all usage error
// of hooks trust grant points to repeats the flags in use and the
// workspace as given, so pasted it shows the bundle digest to grant.
func TestGrantAllWithoutBundleHint(t *testing.T) {
	e, _ := trustCLIEnv(t)
	code, _, errs := e.hookside(t, "", "hooks", "trust", "grant", "--all", "--policy", "deny", "--cwd", ".")
	want := "(from `hookside hooks trust status --home " + e.home + " --policy deny --workspace " + e.ws + "`)"
	if code != exitUsage || !strings.Contains(errs, want) {
		t.Fatalf("exit %d, stderr %q; want 2 and %q", code, errs, want)
	}
}
