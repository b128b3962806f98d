package main

import (
	"strings"
	"testing"
)

// TestTrustActionHelp: `hooks trust ACTION --help` (and `hooks trust help
// ACTION`) prints that action's own help — its one line, its usage line
// with only its flags, its exit statuses — not the parent's; the parent's
// help keeps its text and points at the actions' help.
func TestTrustActionHelp(t *testing.T) {
	code, parent, errs := runCLI("hooks", "trust", "--help")
	if code != 0 {
		t.Fatalf("hooks trust --help: exit %d %s", code, errs)
	}
	for _, want := range []string{"  status   list every workspace hook declaration", "Exit status: 0 done, 1 error, 2 usage, 3 trust store corrupt",
		"revoke exits 1 when a named digest had no record", "hookside hooks trust <action> --help", "[--digest D]… [--all --bundle-digest B]"} {
		if !strings.Contains(parent, want) {
			t.Errorf("hooks trust --help lacks %q:\n%s", want, parent)
		}
	}
	for _, c := range []struct {
		action, first, usage string
		flags, noFlags       []string
		exits                []string
	}{
		{"status", "List every workspace hook declaration with its trust state.",
			"hookside hooks trust status [--cwd DIR|--workspace PATH|IDENTITY|--workspace PATH --cwd DIR] [--run-cwd DIR] [--project-config FILE] [--json] [--home DIR]",
			[]string{"--cwd", "--workspace", "--json", "--home", "--policy", "--profile", "--run-cwd DIR"}, []string{"--digest", "--all", "--bundle-digest"},
			[]string{"  0  done; also with a corrupt trust store", "  1  error", "  2  usage"}},
		{"review", "On a terminal, pick declarations to trust by number; otherwise print what to run.",
			"hookside hooks trust review [--cwd DIR|--workspace PATH|IDENTITY|--workspace PATH --cwd DIR] [--run-cwd DIR] [--project-config FILE] [--json] [--home DIR]",
			[]string{"--cwd", "--json", "--policy", "--profile claude --run-cwd DIR reviews"}, []string{"--digest", "--all", "--bundle-digest"},
			[]string{"  0  done\n", "  2  usage; also the input ended", "  3  trust store corrupt: nothing is written"}},
		{"grant", "Trust --digest D (repeatable) or --all; --bundle-digest B (from status) refuses a workspace that changed since.",
			"hookside hooks trust grant [--cwd DIR|--workspace PATH|IDENTITY|--workspace PATH --cwd DIR] [--run-cwd DIR] [--project-config FILE] {--digest D… [--bundle-digest B] | --all --bundle-digest B} [--json] [--home DIR]",
			[]string{"--digest D", "--all", "--bundle-digest B", "--cwd", "--run-cwd DIR"}, nil,
			[]string{"  1  error; also a D that names no declaration", "  2  usage; also neither --digest nor --all, --all or a list number without --bundle-digest", "  3  trust store corrupt: nothing is written"}},
		{"revoke", "Delete the trust records of --digest D (repeatable) or --all.",
			"hookside hooks trust revoke [--cwd DIR|--workspace PATH|IDENTITY|--workspace PATH --cwd DIR] [--project-config FILE] {--digest D… | --all} [--json] [--home DIR]",
			[]string{"--digest D", "--all", "every trust record of the workspace"}, []string{"--bundle-digest", "--run-cwd"},
			[]string{"  1  error; also a named digest had no trust record", "  3  trust store corrupt: nothing is written"}},
	} {
		code, out, errs := runCLI("hooks", "trust", c.action, "--help")
		if code != 0 || errs != "" {
			t.Errorf("hooks trust %s --help: exit %d, stderr %s", c.action, code, errs)
			continue
		}
		if out == parent || strings.Contains(out, "Without an action") || strings.Contains(out, "  status   list") {
			t.Errorf("hooks trust %s --help prints the parent's help:\n%s", c.action, out)
		}
		if first, _, _ := strings.Cut(out, "\n"); first != c.first {
			t.Errorf("hooks trust %s --help begins %q, want %q", c.action, first, c.first)
		}
		if got := usageLine(t, "hooks", "trust", c.action); !strings.HasPrefix(got, c.usage+" ") {
			t.Errorf("hooks trust %s --help: no usage line %q:\n%s", c.action, c.usage, out)
		}
		if strings.Count(out, "Exit status:") != 1 {
			t.Errorf("hooks trust %s --help: want one Exit status paragraph:\n%s", c.action, out)
		}
		for _, want := range append(append([]string{}, c.flags...), c.exits...) {
			if !strings.Contains(out, want) {
				t.Errorf("hooks trust %s --help lacks %q:\n%s", c.action, want, out)
			}
		}
		for _, flag := range c.noFlags {
			if strings.Contains(out, flag) {
				t.Errorf("hooks trust %s --help names %s, which it does not take:\n%s", c.action, flag, out)
			}
		}
		if c.action == "status" && strings.Contains(out, "  3  ") {
			t.Errorf("hooks trust status --help lists exit 3, which status never returns:\n%s", out)
		}
		if code, viaHelp, _ := runCLI("hooks", "trust", "help", c.action); code != 0 || viaHelp != out {
			t.Errorf("hooks trust help %s: exit %d, not the action's --help:\n%s", c.action, code, viaHelp)
		}
	}
	if code, _, errs := runCLI("hooks", "trust", "help", "frobnicate"); code != exitUsage || !strings.Contains(errs, `unknown action "frobnicate"`) {
		t.Errorf("hooks trust help frobnicate: exit %d %s", code, errs)
	}
}

// TestTrustActionFlags: an action refuses the flags it does not take (a
// usage error naming the flag), where they used to be accepted and
// ignored; the parent (status) still takes every flag.
func TestTrustActionFlags(t *testing.T) {
	e := newCLIEnv(t)
	for _, c := range []struct {
		args []string
		flag string
	}{
		{[]string{"status", "--digest", "1"}, "--digest"},
		{[]string{"status", "--all"}, "--all"},
		{[]string{"review", "--bundle-digest", "x"}, "--bundle-digest"},
		{[]string{"revoke", "--all", "--bundle-digest", "x"}, "--bundle-digest"},
	} {
		code, out, errs := e.hookside(t, "", append([]string{"hooks", "trust"}, c.args...)...)
		if code != exitUsage || !strings.Contains(errs, "unknown flag: "+c.flag) {
			t.Errorf("hooks trust %v: exit %d, stdout %q, stderr %q", c.args, code, out, errs)
		}
	}
	if code, out, errs := e.hookside(t, "", "hooks", "trust", "--all", "--json"); code != 0 || !strings.Contains(out, `"declarations"`) {
		t.Errorf("hooks trust --all (status): exit %d %s %s", code, out, errs)
	}
}
