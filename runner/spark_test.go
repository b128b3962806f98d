package runner

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/output"
	"github.com/hookside/hookside/truststore"
)

type sparkEnv struct {
	dir, home, user, cwd string
}

func newSparkEnv(t *testing.T) sparkEnv {
	t.Helper()
	d := t.TempDir()
	e := sparkEnv{dir: d, home: filepath.Join(d, "home"), user: filepath.Join(d, "spark-user"), cwd: filepath.Join(d, "ws")}
	for _, p := range []string{e.home, e.user, filepath.Join(e.cwd, ".spark")} {
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return e
}

func (e sparkEnv) write(t *testing.T, path string, v any) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// settings returns a spark settings document with one group per event.
func settings(groups map[string][]map[string]any) map[string]any {
	hooks := map[string]any{}
	for ev, g := range groups {
		hooks[ev] = g
	}
	return map[string]any{"hooks": hooks}
}

func cmdGroup(matcher string, parallel bool, cmds ...string) map[string]any {
	var hs []map[string]any
	for _, c := range cmds {
		hs = append(hs, map[string]any{"type": "command", "command": c, "timeout": 5})
	}
	g := map[string]any{"hooks": hs}
	if matcher != "" {
		g["matcher"] = matcher
	}
	if parallel {
		g["parallel"] = true
	}
	return g
}

func (e sparkEnv) open(t *testing.T, feature bool) *Session {
	t.Helper()
	s, _ := NewSession(SessionOptions{
		ID: "s1", Cwd: e.cwd, UserConfigPath: filepath.Join(e.home, "config.json"),
		Profile: ProfileSpark, SparkUserDir: e.user,
		Workspace: WorkspaceOptions{Feature: feature, Home: e.home, Policy: truststore.PolicyUserDecides},
	})
	t.Cleanup(s.Close)
	return s
}

func trustAll(t *testing.T, s *Session) {
	t.Helper()
	st := s.WorkspaceStatus()
	if err := truststore.GrantAll(s.Gate().Store(), s.Options().WorkspaceID, st.Workspace.Root, st.Declarations); err != nil {
		t.Fatal(err)
	}
}

func run(t *testing.T, s *Session, event, input string) output.Merged {
	t.Helper()
	m, err := s.Run(context.Background(), RunRequest{Event: event, TurnID: "t", Input: json.RawMessage(input)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func outcomes(m output.Merged) string {
	var b []string
	for _, r := range m.Runs {
		o := string(r.Outcome)
		if r.Reason != "" {
			o += "(" + r.Reason + ")"
		}
		b = append(b, o)
	}
	return strings.Join(b, " ")
}

func TestSparkProfile(t *testing.T) {
	t.Run("sources_user_project_local_concatenated_in_order", func(t *testing.T) {
		e := newSparkEnv(t)
		e.write(t, filepath.Join(e.user, "settings.json"), settings(map[string][]map[string]any{
			"UserPromptSubmit": {cmdGroup("", false, "echo user")}}))
		e.write(t, filepath.Join(e.cwd, ".spark/settings.json"), settings(map[string][]map[string]any{
			"UserPromptSubmit": {cmdGroup("", false, "echo project")}}))
		e.write(t, filepath.Join(e.cwd, ".spark/settings.local.json"), settings(map[string][]map[string]any{
			"UserPromptSubmit": {cmdGroup("", false, "echo local")}}))
		s := e.open(t, true)
		m := run(t, s, hook.UserPromptSubmit, `{"prompt":"hi"}`)
		if outcomes(m) != "succeeded skipped(pending_trust: not_trusted) skipped(pending_trust: not_trusted)" {
			t.Fatalf("before trust: %s", outcomes(m))
		}
		trustAll(t, s)
		m = run(t, s, hook.UserPromptSubmit, `{"prompt":"hi"}`)
		if strings.Join(m.AdditionalContext, ",") != "user,project,local" {
			t.Fatalf("context %q runs %s", m.AdditionalContext, outcomes(m))
		}
	})

	t.Run("workspace_feature_off_blocks_project_hooks", func(t *testing.T) {
		e := newSparkEnv(t)
		e.write(t, filepath.Join(e.cwd, ".spark/settings.json"), settings(map[string][]map[string]any{
			"Stop": {cmdGroup("", false, "touch "+filepath.Join(e.dir, "ran"))}}))
		s := e.open(t, false)
		m := run(t, s, hook.Stop, `{}`)
		if outcomes(m) != "skipped(blocked_policy: workspace_hooks_feature_disabled)" {
			t.Fatal(outcomes(m))
		}
		if _, err := os.Stat(filepath.Join(e.dir, "ran")); err == nil {
			t.Fatal("untrusted hook ran")
		}
	})

	t.Run("first_block_returns_at_once", func(t *testing.T) {
		e := newSparkEnv(t)
		marker := filepath.Join(e.dir, "later-ran")
		e.write(t, filepath.Join(e.user, "settings.json"), settings(map[string][]map[string]any{
			"PreToolUse": {
				cmdGroup("Bash", false, "echo '{\"decision\":\"approve\"}'", "echo no >&2; exit 2"),
				cmdGroup("", false, "touch "+marker),
			}}))
		s := e.open(t, false)
		m := run(t, s, hook.PreToolUse, `{"toolName":"Bash"}`)
		if !m.Blocked || *m.BlockReason != "no" || outcomes(m) != "succeeded blocked skipped(earlier_block)" {
			t.Fatalf("%+v %s", m, outcomes(m))
		}
		if _, err := os.Stat(marker); err == nil {
			t.Fatal("a hook after the block ran")
		}
		// decision:block with a reason blocks too
		e.write(t, filepath.Join(e.user, "settings.json"), settings(map[string][]map[string]any{
			"UserPromptSubmit": {cmdGroup("", false, `echo '{"decision":"block","reason":"nope"}'`, "touch "+marker)}}))
		time.Sleep(ConfigCheckInterval + 50*time.Millisecond)
		m = run(t, s, hook.UserPromptSubmit, `{"prompt":"x"}`)
		if !m.Blocked || *m.BlockReason != "nope" || outcomes(m) != "succeeded skipped(earlier_block)" {
			t.Fatalf("%+v %s", m, outcomes(m))
		}
	})

	t.Run("zcode_profile_runs_every_hook_after_a_block", func(t *testing.T) {
		e := newSparkEnv(t)
		e.write(t, filepath.Join(e.home, "config.json"), map[string]any{"hooks": map[string]any{"enabled": true, "events": map[string]any{
			"PreToolUse": []any{map[string]any{"hooks": []any{
				map[string]any{"type": "command", "command": "exit 2"}, map[string]any{"type": "command", "command": "true"}}}}}}})
		s, _ := NewSession(SessionOptions{ID: "s", Cwd: e.cwd, UserConfigPath: filepath.Join(e.home, "config.json")})
		defer s.Close()
		if m := run(t, s, hook.PreToolUse, `{"toolName":"Bash"}`); outcomes(m) != "blocked succeeded" {
			t.Fatal(outcomes(m))
		}
	})

	t.Run("events_outside_the_four_have_no_hooks", func(t *testing.T) {
		e := newSparkEnv(t)
		plugin := filepath.Join(e.dir, "plugin")
		os.MkdirAll(filepath.Join(plugin, "hooks"), 0o755)
		e.write(t, filepath.Join(plugin, "hooks/hooks.json"), settings(map[string][]map[string]any{
			"SessionStart": {cmdGroup("", false, "echo from-plugin")},
			"Stop":         {cmdGroup("", false, "echo '{}'")}}))
		s, _ := NewSession(SessionOptions{ID: "s", Cwd: e.cwd, Profile: ProfileSpark, SparkUserDir: e.user, PluginDirs: []string{plugin}})
		defer s.Close()
		if m := run(t, s, hook.SessionStart, `{"source":"startup"}`); len(m.Runs) != 0 {
			t.Fatal(outcomes(m))
		}
		if m := run(t, s, hook.Stop, `{}`); len(m.Runs) != 1 {
			t.Fatal(outcomes(m))
		}
		x := s.Explain(hook.SessionStart, "")
		found := false
		for _, h := range x.Hooks {
			if h.Event == hook.SessionStart && h.Reason == WhyEventNotInProfile {
				found = true
			}
		}
		if !found {
			t.Fatalf("%+v", x.Hooks)
		}
	})
}

func TestExplain(t *testing.T) {
	e := newSparkEnv(t)
	e.write(t, filepath.Join(e.home, "config.json"), map[string]any{"hooks": map[string]any{"events": map[string]any{
		"PreToolUse": []any{map[string]any{"matcher": "Bash", "hooks": []any{
			map[string]any{"type": "process", "command": "held"},
			map[string]any{"type": "bogus", "command": "x"}}}}}}})
	s, _ := NewSession(SessionOptions{ID: "s", Cwd: e.cwd, UserConfigPath: filepath.Join(e.home, "config.json")})
	defer s.Close()
	x := s.Explain(hook.PreToolUse, "Bash")
	var reasons []string
	for _, h := range x.Hooks {
		reasons = append(reasons, h.Reason)
	}
	if strings.Join(reasons, ",") != "root_switch_off,invalid" {
		t.Fatalf("%+v", x.Hooks)
	}
}
