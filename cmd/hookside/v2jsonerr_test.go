package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestV2JSONFlagErrors: a flag error cobra finds before a v2 definitions,
// bindings or runs command runs (an unknown flag, long or shorthand, a
// missing or invalid value, wherever --json stands), and a wrong number of
// arguments, print under --json the v2 error object {"error": {code,
// message, data}} on stdout: -32602, message stderr's text without the
// command's prefix, data {field, reason} (field the flag as given, "id" for
// a missing id, left out for an unexpected argument); exit 2. Without
// --json (or with --json=false, or --json after "--") stdout stays empty.
func TestV2JSONFlagErrors(t *testing.T) {
	t.Setenv("HOOKSIDE_HOME", t.TempDir())
	for _, c := range []struct {
		args         []string
		field, want  string // data.field ("" = absent) and message
		reason, path string // data.reason ("" = the message before " (see"), the command
	}{
		{[]string{"runs", "list", "--bogus", "--json"}, "--bogus", "unknown flag: --bogus (see hookside v2 runs list --help)", "", "runs list"},
		{[]string{"definitions", "list", "--json", "--bogus"}, "--bogus", "unknown flag: --bogus (see hookside v2 definitions list --help)", "", "definitions list"},
		{[]string{"bindings", "get", "b", "--json", "--scope", "x"}, "--scope", "unknown flag: --scope (see hookside v2 bindings get --help)", "", "bindings get"},
		{[]string{"bindings", "list", "-x", "--json"}, "-x", "unknown shorthand flag: 'x' in -x (see hookside v2 bindings list --help)", "", "bindings list"},
		{[]string{"bindings", "update", "b", "--json=true", "--authorize"}, "--authorize", "flag needs an argument: --authorize (see hookside v2 bindings update --help)", "", "bindings update"},
		{[]string{"definitions", "create", "--json", "--file"}, "--file", "flag needs an argument: --file (see hookside v2 definitions create --help)", "", "definitions create"},
		{[]string{"runs", "list", "--json", "--limit", "x"}, "--limit", `invalid argument "x" for "--limit" flag: strconv.ParseInt: parsing "x": invalid syntax (see hookside v2 runs list --help)`, "", "runs list"},
		{[]string{"runs", "get", "--json"}, "id", "want exactly one run id", "want exactly one run id", "runs get"},
		{[]string{"definitions", "delete", "a", "b", "--json"}, "id", "want exactly one definition id", "want exactly one definition id", "definitions delete"},
		{[]string{"bindings", "list", "extra", "--json"}, "", `unexpected argument "extra"`, `unexpected argument "extra"`, "bindings list"},
	} {
		code, out, errs := runCLI(append([]string{"v2"}, c.args...)...)
		var m map[string]struct {
			Code    int64
			Message string
			Data    map[string]string
		}
		if err := json.Unmarshal([]byte(out), &m); err != nil || len(m) != 1 {
			t.Errorf("%v: exit %d, stdout %q is no error object (%v)", c.args, code, out, err)
			continue
		}
		var raw map[string]map[string]json.RawMessage
		_ = json.Unmarshal([]byte(out), &raw)
		reason := c.reason
		if reason == "" {
			reason, _, _ = strings.Cut(c.want, " (see ")
		}
		e := m["error"]
		wantData := map[string]string{"reason": reason}
		if c.field != "" {
			wantData["field"] = c.field
		}
		if code != exitUsage || e.Code != -32602 || e.Message != c.want || len(raw["error"]) != 3 || !sameMap(e.Data, wantData) {
			t.Errorf("%v: exit %d, stdout %s; want exit 2 and {\"error\": {\"code\": -32602, \"message\": %q, \"data\": %v}}", c.args, code, out, c.want, wantData)
		}
		if want := "hookside v2 " + c.path + ": " + c.want + "\n"; errs != want {
			t.Errorf("%v: stderr %q, want %q", c.args, errs, want)
		}
	}
	for _, args := range [][]string{{"runs", "list", "--bogus"}, {"runs", "get"}, {"definitions", "list", "--bogus", "--json", "--json=false"},
		{"bindings", "list", "--bogus", "--", "--json"}} {
		if code, out, errs := runCLI(append([]string{"v2"}, args...)...); code != exitUsage || out != "" || errs == "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2, nothing on stdout", args, code, out, errs)
		}
	}
}

// sameMap: a and b hold the same keys and values.
func sameMap(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}
