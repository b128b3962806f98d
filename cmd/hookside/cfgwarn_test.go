package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestCLIReportsEnvSwitchAndUnknownKeys: hooks list, explain and run print
// an invalid HOOKSIDE_HOOKS_ENABLED as the config_invalid_field warning
// session/open reports, once, and a user config's misspelt keys as
// config_ignored_field warnings at path:line:col with a suggestion; the
// config still loads.
func TestCLIReportsEnvSwitchAndUnknownKeys(t *testing.T) {
	e := newCLIEnv(t)
	cfg := filepath.Join(e.home, "config.json")
	writeFiles(t, map[string]string{cfg: `{"hooks": {"enabled": true, "events": {"PreToolUse": [
  {"matchr": "Bash", "hooks": [{"type": "command", "command": "true", "timeoutMS": 5000}]}]}}}`})
	t.Setenv("HOOKSIDE_HOOKS_ENABLED", "maybe")
	const envWarn = `hookside: warning: HOOKSIDE_HOOKS_ENABLED="maybe" is not a boolean; ignored [config_invalid_field]`
	keyWarns := []string{
		`hookside: ` + cfg + `:2:4: warning: PreToolUse[0]: unknown key "matchr" is ignored; did you mean "matcher"? [config_ignored_field]`,
		`hookside: ` + cfg + `:2:71: warning: PreToolUse[0][0]: unknown key "timeoutMS" is ignored; did you mean "timeoutMs"? [config_ignored_field]`,
	}
	for _, c := range []struct {
		stdin string
		args  []string
	}{
		{"", []string{"hooks", "list"}},
		{"", []string{"hooks", "explain", "--event", "PreToolUse", "--tool", "Bash"}},
		{`{"toolName": "Bash", "toolInput": {}}`, []string{"hooks", "run", "--event", "PreToolUse", "--input", "-"}},
	} {
		code, stdout, stderr := e.hookside(t, c.stdin, c.args...)
		if code != 0 {
			t.Fatalf("%v: exit %d\nstdout %s\nstderr %s", c.args, code, stdout, stderr)
		}
		if n := strings.Count(stderr, envWarn+"\n"); n != 1 {
			t.Errorf("%v: %d copies of %q in stderr:\n%s", c.args, n, envWarn, stderr)
		}
		for _, w := range keyWarns {
			if !strings.Contains(stderr, w+"\n") {
				t.Errorf("%v: stderr lacks %q:\n%s", c.args, w, stderr)
			}
		}
		if c.args[1] != "run" && !strings.Contains(stdout, "true") {
			t.Errorf("%v: the hook is not listed:\n%s", c.args, stdout)
		}
	}
	for _, args := range [][]string{{"hooks", "list", "--json"}, {"hooks", "explain", "--event", "Stop", "--json"}} {
		_, stdout, _ := e.hookside(t, "", args...)
		var out struct {
			Diagnostics []struct{ Code, Severity, Message string }
		}
		if err := json.Unmarshal([]byte(stdout), &out); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, stdout)
		}
		found := false
		for _, d := range out.Diagnostics {
			found = found || (d.Code == "config_invalid_field" && d.Severity == "warning" && d.Message == `HOOKSIDE_HOOKS_ENABLED="maybe" is not a boolean; ignored`)
		}
		if !found {
			t.Errorf("%v: diagnostics %+v lack the environment warning", args, out.Diagnostics)
		}
	}
}
