package main

import (
	"encoding/json"
	"path/filepath"
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
