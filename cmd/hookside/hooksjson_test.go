package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestHooksJSONErrors: hooks list, run and explain --json print
// {"error": {"message"}} on stdout for a failure that prints no result (a
// flag error wherever --json stands, an input or --event error), keeping
// their exit statuses; without --json stdout stays empty.
func TestHooksJSONErrors(t *testing.T) {
	e := newCLIEnv(t)
	missing := filepath.Join(t.TempDir(), "nonexistent.json")
	for _, c := range []struct {
		args []string
		code int
		want string // the message's beginning
	}{
		{[]string{"list", "--json", "--nosuch"}, exitUsage, "unknown flag: --nosuch (see hookside hooks list --help)"},
		{[]string{"list", "--nosuch", "--json"}, exitUsage, "unknown flag: --nosuch (see hookside hooks list --help)"},
		{[]string{"list", "--json", "--event", "Bogus"}, exitUsage, `--event: unknown event "Bogus" (want one of SessionStart`},
		{[]string{"list", "--json", "stray"}, exitUsage, `unexpected argument "stray"`},
		{[]string{"run", "--json", "--nosuch", "--event", "Stop"}, exitError, "unknown flag: --nosuch (see hookside hooks run --help)"},
		{[]string{"run", "--json", "--event", "Stop", "--input", missing}, exitError, "read input: --input " + missing + ": "},
		{[]string{"run", "--json=true", "--event", "Stop", "--profile", "bogus"}, exitError, `--profile "bogus" is not`},
		{[]string{"explain", "--json", "--nosuch"}, exitError, "unknown flag: --nosuch (see hookside hooks explain --help)"},
		{[]string{"explain", "--json", "--event", "Bogus"}, exitError, `--event: unknown event "Bogus" (want one of SessionStart`},
	} {
		code, out, errs := e.hookside(t, "", append([]string{"hooks"}, c.args...)...)
		var m map[string]map[string]any
		if err := json.Unmarshal([]byte(out), &m); err != nil {
			t.Errorf("%v: exit %d, stdout %q is no JSON object (%v)", c.args, code, out, err)
			continue
		}
		msg, _ := m["error"]["message"].(string)
		if code != c.code || len(m) != 1 || len(m["error"]) != 1 || !strings.HasPrefix(msg, c.want) {
			t.Errorf("%v: exit %d, stdout %s; want exit %d and {\"error\": {\"message\": %q…}}", c.args, code, out, c.code, c.want)
		}
		if !strings.HasPrefix(errs, "hookside hooks "+c.args[0]+": ") || !strings.Contains(errs, msg) {
			t.Errorf("%v: stderr %q, want the message with the command's prefix", c.args, errs)
		}
	}
	for _, args := range [][]string{{"list", "--nosuch"}, {"run", "--event", "Stop", "--input", missing}, {"explain", "--nosuch", "--json=false"}, {"run", "--nosuch", "--", "--json"}} {
		if code, out, _ := e.hookside(t, "", append([]string{"hooks"}, args...)...); code == exitOK || out != "" {
			t.Errorf("%v: exit %d, stdout %q; want a failure and nothing on stdout", args, code, out)
		}
	}
}
