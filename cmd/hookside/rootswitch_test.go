package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestHooksListJSONRootSwitch: `hooks list --json` says whether the root
// switch is on and which layer decides: default (off, naming the user
// config to switch it on in), user (that config says enabled: true), cli
// (--hooks-enabled), env ($HOOKSIDE_HOOKS_ENABLED).
func TestHooksListJSONRootSwitch(t *testing.T) {
	e := newCLIEnv(t)
	cfg := filepath.Join(e.home, "config.json")
	list := func(args ...string) rootSwitch {
		t.Helper()
		code, out, errs := e.hookside(t, "", append([]string{"hooks", "list", "--json"}, args...)...)
		var got struct {
			RootSwitch *rootSwitch `json:"rootSwitch"`
		}
		if err := json.Unmarshal([]byte(out), &got); code != 0 || err != nil || got.RootSwitch == nil {
			t.Fatalf("hooks list --json %v: exit %d %v\n%s%s", args, code, err, out, errs)
		}
		return *got.RootSwitch
	}
	writeFiles(t, map[string]string{cfg: `{"hooks":{"events":{"Stop":[{"hooks":[{"type":"command","command":"true"}]}]}}}`})
	if got, want := list(), (rootSwitch{Enabled: false, Layer: "default", File: cfg}); got != want {
		t.Errorf("off: %+v, want %+v", got, want)
	}
	if got, want := list("--hooks-enabled"), (rootSwitch{Enabled: true, Layer: "cli"}); got != want {
		t.Errorf("--hooks-enabled: %+v, want %+v", got, want)
	}
	t.Setenv("HOOKSIDE_HOOKS_ENABLED", "1")
	if got, want := list(), (rootSwitch{Enabled: true, Layer: "env"}); got != want {
		t.Errorf("env: %+v, want %+v", got, want)
	}
	t.Setenv("HOOKSIDE_HOOKS_ENABLED", "")
	if got, want := list("--profile", "claude"), (rootSwitch{Enabled: true, Layer: "profile"}); got != want {
		t.Errorf("claude profile: %+v, want %+v", got, want)
	}
	wsFile := filepath.Join(e.ws, "zcode.json")
	writeFiles(t, map[string]string{wsFile: `{"hooks":{"enabled":true}}`})
	if got, want := list("--cwd", e.ws), (rootSwitch{Enabled: true, Layer: "project", File: wsFile}); got != want {
		t.Errorf("project: %+v, want %+v", got, want)
	}
	writeFiles(t, map[string]string{cfg: `{"hooks":{"enabled":true}}`})
	if got, want := list(), (rootSwitch{Enabled: true, Layer: "user", File: cfg}); got != want {
		t.Errorf("user: %+v, want %+v", got, want)
	}
}

// TestRootSwitchOffByUnreadableUserConfig: a user config that says
// "enabled": true but is not JSON (a trailing comma) leaves the root switch
// off. `hooks list` and `hooks trust status` say it is off because the file
// could not be read, naming it and where, and `hooks trust status` shows
// the user config's error too (its defaults enter what each declaration is
// granted with): not that the file lacks the setting.
func TestRootSwitchOffByUnreadableUserConfig(t *testing.T) {
	e := newCLIEnv(t)
	cfg := filepath.Join(e.home, "config.json")
	writeFiles(t, map[string]string{
		cfg:                               `{"hooks":{"enabled":true,"timeoutMs":10000}},`,
		filepath.Join(e.ws, "zcode.json"): `{"hooks":{"events":{"Stop":[{"hooks":[{"type":"command","command":"true"}]}]}}}`,
	})
	where := cfg + ":1:45"
	code, out, errs := e.hookside(t, "", "hooks", "list", "--cwd", e.ws)
	if code != 0 || !strings.Contains(out, "since the user config "+where+" could not be read") || strings.Contains(out, "does not say") {
		t.Errorf("hooks list: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs = e.hookside(t, "", "hooks", "trust", "status", "--cwd", e.ws)
	if code != 0 || !strings.Contains(out, "root switch off: the user config "+where+" could not be read") || strings.Contains(out, "does not say") ||
		!strings.Contains(errs, where+": error: invalid JSON") {
		t.Errorf("hooks trust status: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs = e.hookside(t, "", "hooks", "trust", "status", "--cwd", e.ws, "--json")
	var st struct {
		Diagnostics  []struct{ Code, Source string }
		Declarations []struct{ OffReason, OffDetail string }
	}
	if err := json.Unmarshal([]byte(out), &st); code != 0 || err != nil || len(st.Diagnostics) != 1 || st.Diagnostics[0].Source != where ||
		len(st.Declarations) != 1 || st.Declarations[0].OffReason != "root_switch_off" || !strings.Contains(st.Declarations[0].OffDetail, "could not be read") {
		t.Errorf("hooks trust status --json: exit %d %v\n%s%s", code, err, out, errs)
	}
}
