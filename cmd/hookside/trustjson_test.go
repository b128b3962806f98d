package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestTrustJSONErrors: `hooks trust … --json` that fails before printing a
// result prints {"error": {"message"}} on stdout, as the v2 commands do,
// with stderr's text without the command prefix; the exit status is the
// documented one. A failure that printed its result (revoke of a digest
// with no record) prints only that result.
func TestTrustJSONErrors(t *testing.T) {
	e := newCLIEnv(t)
	for _, c := range []struct {
		args []string
		exit int
		want string
	}{
		{[]string{"grant"}, exitUsage, "name --digest D (repeatable) or --all"},
		{[]string{"frob"}, exitUsage, `unknown action "frob"`},
		{[]string{"status", "--policy", "x"}, exitUsage, `--policy "x" is not user_decides`},
		{[]string{"grant", "--digest", "7"}, exitError, "--digest 7: no declaration number 7"},
	} {
		args := append(append([]string{"hooks", "trust"}, c.args...), "--json", "--home", e.home)
		code, out, errs := e.hookside(t, "", args...)
		var m struct {
			Error *struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal([]byte(out), &m); err != nil || m.Error == nil {
			t.Errorf("%v: exit %d, stdout %q is no error object (%v)", c.args, code, out, err)
			continue
		}
		if code != c.exit || !strings.HasPrefix(m.Error.Message, c.want) || strings.HasPrefix(m.Error.Message, "hookside") {
			t.Errorf("%v: exit %d message %q, want exit %d and a message starting %q", c.args, code, m.Error.Message, c.exit, c.want)
		}
		if !strings.Contains(errs, c.want) {
			t.Errorf("%v: stderr %q lacks %q", c.args, errs, c.want)
		}
	}
	code, out, _ := e.hookside(t, "", "hooks", "trust", "revoke", "--digest", "ffffff0000", "--json", "--home", e.home)
	if code != exitError || strings.Contains(out, `"error"`) || !strings.Contains(out, `"unknown"`) {
		t.Errorf("revoke of an unknown digest: exit %d, stdout %s; want exit 1 and only the revoke result", code, out)
	}
}

// TestTrustJSONFlagErrors: a flag error cobra finds before `hooks trust …
// --json` runs (an unknown flag, a flag of another action, a missing
// value; also an unknown action followed by a bad flag) prints the same
// {"error": {"message"}} on stdout as the other --json failures — stderr's
// text without the command's prefix — wherever --json stands, and exits 2;
// without --json (or with --json=false, or --json after "--") stdout stays
// empty.
func TestTrustJSONFlagErrors(t *testing.T) {
	e := newCLIEnv(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"grant", "--bogus", "--json"}, "unknown flag: --bogus (see hookside hooks trust grant --help)"},
		{[]string{"grant", "--json", "--bogus"}, "unknown flag: --bogus (see hookside hooks trust grant --help)"},
		{[]string{"status", "--json", "--digest", "1"}, "unknown flag: --digest (see hookside hooks trust status --help)"},
		{[]string{"--json", "--bogus"}, "unknown flag: --bogus (see hookside hooks trust --help)"},
		{[]string{"revoke", "--json=true", "--digest"}, "flag needs an argument: --digest (see hookside hooks trust revoke --help)"},
		{[]string{"frob", "--bogus", "--json"}, `unknown action "frob" (want status, review, grant or revoke)`},
	} {
		args := append([]string{"hooks", "trust"}, c.args...)
		code, out, errs := e.hookside(t, "", args...)
		var m map[string]map[string]any
		if err := json.Unmarshal([]byte(out), &m); err != nil {
			t.Errorf("%v: exit %d, stdout %q is no JSON object (%v)", c.args, code, out, err)
			continue
		}
		if code != exitUsage || len(m) != 1 || len(m["error"]) != 1 || m["error"]["message"] != c.want {
			t.Errorf("%v: exit %d, stdout %s; want exit 2 and {\"error\": {\"message\": %q}}", c.args, code, out, c.want)
		}
		if !strings.HasPrefix(errs, "hookside hooks trust") || !strings.Contains(errs, ": "+c.want) {
			t.Errorf("%v: stderr %q, want the message with the command's prefix", c.args, errs)
		}
	}
	for _, args := range [][]string{{"grant", "--bogus"}, {"grant", "--bogus", "--json", "--json=false"}, {"grant", "--bogus", "--", "--json"}} {
		if code, out, errs := e.hookside(t, "", append([]string{"hooks", "trust"}, args...)...); code != exitUsage || out != "" || !strings.Contains(errs, "unknown flag: --bogus") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2, nothing on stdout", args, code, out, errs)
		}
	}
}
