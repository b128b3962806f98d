package runner

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/hookside/hookside/internal/hook"
)

// TestSwitchedOffAgreesWithRun: SwitchedOff names exactly the loaded hooks
// a run skips as hooks_disabled, with the switch and the file that decides
// it — for disableAllHooks in the user, a workspace and the managed
// settings, and the managed settings' allowManagedHooksOnly — and nothing
// without a switch or outside the claude profile.
func TestSwitchedOffAgreesWithRun(t *testing.T) {
	e := newClaudeEnv(t)
	user := filepath.Join(e.claudeHome, "settings.json")
	local := filepath.Join(e.cwd, ".claude/settings.local.json")
	managedHooks := handlers("UserPromptSubmit", "", sh("echo managed"))
	userHooks := handlers("UserPromptSubmit", "", sh("echo user"))
	with := func(doc map[string]any, key string) map[string]any {
		out := map[string]any{"hooks": doc["hooks"]}
		if key != "" {
			out[key] = true
		}
		return out
	}
	for _, c := range []struct {
		name                string
		managed, user, loc  string // the switch each file sets ("" = none)
		setting, file, want string // want: the sources switched off
	}{
		{name: "none", want: ""},
		{name: "user_disable_all", user: "disableAllHooks", setting: "disableAllHooks", file: user, want: "user"},
		{name: "workspace_disable_all", loc: "disableAllHooks", setting: "disableAllHooks", file: local, want: "user"},
		{name: "managed_only", managed: "allowManagedHooksOnly", setting: "allowManagedHooksOnly", file: e.managed, want: "user"},
		{name: "managed_disable_all", managed: "disableAllHooks", setting: "disableAllHooks", file: e.managed, want: "managed user"},
	} {
		t.Run(c.name, func(t *testing.T) {
			writeJSON(t, e.managed, with(managedHooks, c.managed))
			writeJSON(t, user, with(userHooks, c.user))
			if c.loc != "" {
				writeJSON(t, local, map[string]any{c.loc: true})
			} else if err := os.Remove(local); err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
			s := e.open(t, SessionOptions{})
			hooks, _ := s.Hooks()
			offs := s.SwitchedOff(hooks)
			byID := map[string]hook.Hook{}
			for _, h := range hooks {
				byID[h.ID] = h
			}
			var got []string
			for id, off := range offs {
				got = append(got, sourceName(byID[id]))
				if off.Setting != c.setting || off.File != c.file || !strings.Contains(off.Detail, c.setting+" is true in ") || !strings.Contains(off.Detail, c.file) {
					t.Errorf("%s: %+v, want %s in %s", id, off, c.setting, c.file)
				}
			}
			sort.Strings(got)
			if strings.Join(got, " ") != c.want {
				t.Errorf("switched off: %q, want %q", got, c.want)
			}
			var skipped []string
			for _, r := range runClaude(t, s, hook.UserPromptSubmit, `{"prompt":"hi"}`).Runs {
				if r.Reason == ReasonHooksDisabled {
					skipped = append(skipped, sourceName(byID[r.HookID]))
					if _, ok := offs[r.HookID]; !ok {
						t.Errorf("the run skipped %s as hooks_disabled, SwitchedOff does not name it", r.HookID)
					}
				}
			}
			if sort.Strings(skipped); strings.Join(skipped, " ") != c.want {
				t.Errorf("the run skipped %q as hooks_disabled, want %q", skipped, c.want)
			}
		})
	}

	z, _ := NewSession(SessionOptions{ID: "z", Cwd: e.cwd, UserConfigPath: filepath.Join(e.home, "config.json")})
	defer z.Close()
	hooks, _ := z.Hooks()
	if offs := z.SwitchedOff(hooks); offs != nil {
		t.Errorf("zcode profile: %v", offs)
	}
}

// sourceName is "managed" for a managed settings hook, else its kind.
func sourceName(h hook.Hook) string {
	if isManaged(&h) {
		return "managed"
	}
	return string(h.Source.Kind)
}
