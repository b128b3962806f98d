package runner

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/output"
	"github.com/hookside/hookside/truststore"
)

type claudeEnv struct {
	dir, home, claudeHome, cwd, managed string
}

func newClaudeEnv(t *testing.T) claudeEnv {
	t.Helper()
	d := t.TempDir()
	e := claudeEnv{dir: d, home: filepath.Join(d, "hookside"), claudeHome: filepath.Join(d, "dot-claude"),
		cwd: filepath.Join(d, "proj"), managed: filepath.Join(d, "managed-settings.json")}
	for _, p := range []string{e.home, e.claudeHome, filepath.Join(e.cwd, ".claude")} {
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return e
}

func writeJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// handlers builds {"hooks": {event: [{"matcher": m, "hooks": hs}]}}.
func handlers(event, matcher string, hs ...map[string]any) map[string]any {
	g := map[string]any{"hooks": hs}
	if matcher != "" {
		g["matcher"] = matcher
	}
	return map[string]any{"hooks": map[string]any{event: []any{g}}}
}

func sh(cmd string) map[string]any { return map[string]any{"type": "command", "command": cmd} }

func (e claudeEnv) open(t *testing.T, opts SessionOptions) *Session {
	t.Helper()
	opts.ID, opts.Cwd, opts.Profile = "s1", e.cwd, ProfileClaude
	opts.UserConfigPath = filepath.Join(e.home, "config.json")
	opts.UserDir, opts.ManagedSettingsPath = e.claudeHome, e.managed
	opts.Workspace = WorkspaceOptions{Feature: true, Home: e.home, Policy: truststore.PolicyUserDecides}
	s, _ := NewSession(opts)
	t.Cleanup(s.Close)
	return s
}

func runClaude(t *testing.T, s *Session, event, input string) output.ClaudeMerged {
	t.Helper()
	m, err := s.RunClaude(context.Background(), RunRequest{Event: event, TurnID: "t", Input: json.RawMessage(input)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func claudeOutcomes(m output.ClaudeMerged) string {
	var b []string
	for _, r := range m.Runs {
		o := string(r.Outcome)
		if r.Reason != "" {
			o += "(" + strings.SplitN(r.Reason, ":", 2)[0] + ")"
		}
		b = append(b, o)
	}
	return strings.Join(b, " ")
}

func TestClaudeSourcesTrustAndDedupe(t *testing.T) {
	e := newClaudeEnv(t)
	dup := sh("echo same")
	writeJSON(t, e.managed, handlers("UserPromptSubmit", "", sh("echo managed")))
	writeJSON(t, filepath.Join(e.claudeHome, "settings.json"), handlers("UserPromptSubmit", "", sh("echo user"), dup))
	writeJSON(t, filepath.Join(e.cwd, ".claude/settings.json"), handlers("UserPromptSubmit", "", sh("echo project"), dup))
	writeJSON(t, filepath.Join(e.cwd, ".claude/settings.local.json"), handlers("UserPromptSubmit", "", sh("echo local")))
	s := e.open(t, SessionOptions{})
	m := runClaude(t, s, hook.UserPromptSubmit, `{"prompt":"hi"}`)
	if got := claudeOutcomes(m); got != "succeeded succeeded succeeded skipped(pending_trust) skipped(duplicate_handler) skipped(pending_trust)" {
		t.Fatalf("before trust: %s", got)
	}
	trustAll(t, s)
	m = runClaude(t, s, hook.UserPromptSubmit, `{"prompt":"hi"}`)
	// https://code.claude.com/docs/en/hooks#hook-handler-fields: the same
	// handler in two settings files runs once.
	if strings.Join(m.AdditionalContext, ",") != "managed,user,same,project,local" {
		t.Fatalf("context %q runs %s", m.AdditionalContext, claudeOutcomes(m))
	}
	if !strings.Contains(claudeOutcomes(m), "skipped(duplicate_handler)") {
		t.Fatalf("duplicate not reported: %s", claudeOutcomes(m))
	}

	// disableAllHooks in the local file turns off user, project and local
	// hooks, not managed ones (settings-reference#disableallhooks).
	writeJSON(t, filepath.Join(e.cwd, ".claude/settings.local.json"), map[string]any{"disableAllHooks": true})
	m = runClaude(t, s, hook.UserPromptSubmit, `{"prompt":"hi"}`)
	if strings.Join(m.AdditionalContext, ",") != "managed" {
		t.Fatalf("disableAllHooks: %q %s", m.AdditionalContext, claudeOutcomes(m))
	}
}

func TestClaudeStdinEnvAndTranscript(t *testing.T) {
	e := newClaudeEnv(t)
	out := filepath.Join(e.dir, "stdin.json")
	plugin := filepath.Join(e.dir, "plug")
	writeJSON(t, filepath.Join(plugin, ".claude-plugin/plugin.json"), map[string]any{"name": "fmt@market"})
	writeJSON(t, filepath.Join(plugin, "hooks/hooks.json"), handlers("SessionStart", "startup",
		sh(`cat > "`+out+`"; echo "$CLAUDE_PLUGIN_DATA" > "$CLAUDE_PLUGIN_DATA/where"; echo 'export NODE_ENV=production' >> "$CLAUDE_ENV_FILE"; pwd`)))
	transcript := filepath.Join(e.dir, "host-transcript.jsonl")
	s := e.open(t, SessionOptions{PluginDirs: []string{plugin}, TranscriptPath: transcript, Mode: "default"})
	sub := filepath.Join(e.cwd, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	m := runClaude(t, s, hook.SessionStart, `{"source":"startup","cwd":"`+sub+`"}`)
	if claudeOutcomes(m) != "succeeded" {
		t.Fatalf("runs %s %+v", claudeOutcomes(m), m.Runs)
	}
	var in map[string]any
	b, _ := os.ReadFile(out)
	if err := json.Unmarshal(b, &in); err != nil {
		t.Fatalf("stdin %q: %v", b, err)
	}
	for k, want := range map[string]any{"session_id": "s1", "hook_event_name": "SessionStart", "source": "startup",
		"transcript_path": transcript, "cwd": sub, "permission_mode": "default"} {
		if in[k] != want {
			t.Errorf("stdin %s = %v, want %v", k, in[k], want)
		}
	}
	for k := range in {
		if strings.ContainsAny(k, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") {
			t.Errorf("camelCase key %q in the claude dialect's stdin", k)
		}
	}
	// The hook ran in the run's cwd; its plain stdout is SessionStart context.
	if len(m.AdditionalContext) != 1 || m.AdditionalContext[0] != sub {
		t.Errorf("context %q", m.AdditionalContext)
	}
	if strings.Join(m.EnvExports, ";") != "export NODE_ENV=production" {
		t.Errorf("env exports %q", m.EnvExports)
	}
	data := filepath.Join(e.claudeHome, "plugins", "data", "fmt-market")
	if b, err := os.ReadFile(filepath.Join(data, "where")); err != nil || strings.TrimSpace(string(b)) != data {
		t.Errorf("CLAUDE_PLUGIN_DATA: %q %v", b, err)
	}
}

func TestClaudeDecisionsEndToEnd(t *testing.T) {
	e := newClaudeEnv(t)
	writeJSON(t, filepath.Join(e.claudeHome, "settings.json"), map[string]any{"hooks": map[string]any{
		"PermissionRequest": []any{map[string]any{"matcher": "Bash", "hooks": []any{
			sh(`echo '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedInput":{"command":"npm run lint"}}}}'`),
			sh(`echo ignored >&2; exit 2`),
		}}},
		"PostToolUse": []any{map[string]any{"matcher": "Edit|Write", "hooks": []any{
			sh(`echo 'lint: 2 errors' >&2; exit 2`),
			sh(`echo '{"decision":"block","reason":"run the formatter"}'`),
		}}},
		"Stop": []any{map[string]any{"hooks": []any{sh(`echo '{"decision":"block","reason":"keep going"}'`)}}},
	}})
	s := e.open(t, SessionOptions{})
	m := runClaude(t, s, hook.PermissionRequest, `{"tool_name":"Bash","tool_input":{"command":"npm run lint:fix"}}`)
	if m.Permission == nil || m.Permission.Behavior != "allow" || string(m.Permission.UpdatedInput) != `{"command":"npm run lint"}` || m.Blocked {
		t.Fatalf("PermissionRequest: %+v", m.Permission)
	}
	m = runClaude(t, s, hook.PostToolUse, `{"tool_name":"Write","tool_input":{"file_path":"/x"},"tool_response":{}}`)
	if strings.Join(m.Feedback, "|") != "lint: 2 errors|run the formatter" || m.Blocked {
		t.Fatalf("PostToolUse feedback %q", m.Feedback)
	}
	if m := runClaude(t, s, hook.PostToolUse, `{"tool_name":"Read"}`); len(m.Runs) != 0 {
		t.Fatalf("Edit|Write matched Read: %s", claudeOutcomes(m))
	}
	for i := 1; i <= 9; i++ {
		m = runClaude(t, s, hook.Stop, `{"stop_hook_active":true}`)
		if want := i <= 8; m.Stop.ContinueTurn != want {
			t.Fatalf("Stop %d: continue %v (consecutive %d)", i, m.Stop.ContinueTurn, m.Stop.Consecutive)
		}
	}
	if m := runClaude(t, s, hook.Stop, `{}`); !m.Stop.ContinueTurn || m.Stop.Consecutive != 1 {
		t.Fatalf("the count restarts after the capped turn ended: %+v", m.Stop)
	}
	if _, err := s.RunClaude(context.Background(), RunRequest{Event: "Bogus"}, nil); err == nil {
		t.Fatal("unknown event accepted")
	}
	if _, err := s.RunClaude(context.Background(), RunRequest{Event: hook.PreToolUse, Input: json.RawMessage(`{}`)}, nil); err == nil {
		t.Fatal("PreToolUse without tool_name accepted")
	}
}

func TestClaudeHTTPHandler(t *testing.T) {
	var gotAuth string
	var gotBody map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotAuth = r.Header.Get("Authorization")
		b, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(b, &gotBody)
		io.WriteString(w, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"remote policy"}}`)
	}))
	defer srv.Close()
	e := newClaudeEnv(t)
	writeJSON(t, filepath.Join(e.claudeHome, "settings.json"), map[string]any{
		"allowedHttpHookUrls": []string{"http://127.0.0.1:*"},
		"hooks": map[string]any{"PreToolUse": []any{map[string]any{"matcher": "Bash", "hooks": []any{
			map[string]any{"type": "http", "url": srv.URL + "/pre", "timeout": 5,
				"headers": map[string]any{"Authorization": "Bearer $HOOK_TOKEN"}, "allowedEnvVars": []string{"HOOK_TOKEN"}},
		}}}},
	})
	s := e.open(t, SessionOptions{Env: map[string]string{"HOOK_TOKEN": "sekret"}})
	m := runClaude(t, s, hook.PreToolUse, `{"tool_name":"Bash","tool_input":{"command":"ls"}}`)
	if !m.Blocked || *m.PermissionDecision != "deny" || *m.PermissionDecisionReason != "remote policy" {
		t.Fatalf("http deny: %+v runs %+v", m, m.Runs)
	}
	if gotAuth != "Bearer sekret" || gotBody["tool_name"] != "Bash" || gotBody["hook_event_name"] != "PreToolUse" {
		t.Fatalf("request: auth %q body %v", gotAuth, gotBody)
	}
}

func TestClaudeAsyncDeliveredNextTurn(t *testing.T) {
	e := newClaudeEnv(t)
	marker := filepath.Join(e.dir, "done")
	writeJSON(t, filepath.Join(e.claudeHome, "settings.json"), map[string]any{"hooks": map[string]any{
		"PostToolUse": []any{map[string]any{"hooks": []any{
			map[string]any{"type": "command", "async": true,
				"command": `echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"tests passed"}}'; touch "` + marker + `"`},
			map[string]any{"type": "command", "asyncRewake": true, "command": `echo 'build broke' >&2; exit 2`},
		}}},
	}})
	woke := make(chan output.ClaudeAsyncResult, 1)
	s := e.open(t, SessionOptions{OnClaudeWake: func(r output.ClaudeAsyncResult) { woke <- r }})
	m := runClaude(t, s, hook.PostToolUse, `{"tool_name":"Bash"}`)
	if claudeOutcomes(m) != "started_async started_async" || len(m.AdditionalContext) != 0 {
		t.Fatalf("async: %s %q", claudeOutcomes(m), m.AdditionalContext)
	}
	select {
	case r := <-woke:
		if r.WakeText != "build broke" {
			t.Fatalf("rewake %+v", r)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("asyncRewake never woke the host")
	}
	s.async.Wait() // both background hooks have finished
	m = runClaude(t, s, hook.UserPromptSubmit, `{"prompt":"next"}`)
	var ctx []string
	for _, r := range m.AsyncResults {
		ctx = append(ctx, r.AdditionalContext...)
	}
	if strings.Join(ctx, ",") != "tests passed" {
		t.Fatalf("next turn: %+v", m.AsyncResults)
	}
}

// In every dialect a hook gets the host's transcript unchanged: the run's
// transcriptPath / transcript_path, else the session's; the synthetic file
// only when the host gives none.
func TestHostTranscriptPathEveryDialect(t *testing.T) {
	d := t.TempDir()
	out := filepath.Join(d, "stdin.json")
	writeJSON(t, filepath.Join(d, "config.json"), map[string]any{"hooks": map[string]any{"enabled": true,
		"events": map[string]any{"UserPromptSubmit": []any{map[string]any{"hooks": []any{sh(`cat > "` + out + `"`)}}}}}})
	open := func(transcript string) *Session {
		s, _ := NewSession(SessionOptions{ID: "z", Cwd: d, UserConfigPath: filepath.Join(d, "config.json"), TranscriptPath: transcript})
		t.Cleanup(s.Close)
		return s
	}
	read := func() map[string]any {
		var in map[string]any
		b, _ := os.ReadFile(out)
		if err := json.Unmarshal(b, &in); err != nil {
			t.Fatalf("stdin %q", b)
		}
		return in
	}
	run(t, open("/host/session.jsonl"), hook.UserPromptSubmit, `{"prompt":"a"}`)
	if in := read(); in["transcript_path"] != "/host/session.jsonl" || in["transcriptPath"] != "/host/session.jsonl" {
		t.Fatalf("session transcript: %v", in["transcript_path"])
	}
	run(t, open("/host/session.jsonl"), hook.UserPromptSubmit, `{"prompt":"a","transcriptPath":"/host/run.jsonl"}`)
	if in := read(); in["transcript_path"] != "/host/run.jsonl" {
		t.Fatalf("per-run transcript: %v", in["transcript_path"])
	}
	run(t, open(""), hook.UserPromptSubmit, `{"prompt":"a"}`)
	if p, _ := read()["transcript_path"].(string); !strings.Contains(p, "hookside-session-") {
		t.Fatalf("synthetic transcript: %q", p)
	}
}

// `if` gating and Claude Code's matcher syntax
// (https://code.claude.com/docs/en/hooks#common-fields, #matcher-patterns).
func TestClaudeIfAndMatchers(t *testing.T) {
	e := newClaudeEnv(t)
	withIf := func(rule, cmd string) map[string]any { h := sh(cmd); h["if"] = rule; return h }
	writeJSON(t, filepath.Join(e.claudeHome, "settings.json"), map[string]any{"hooks": map[string]any{
		"PreToolUse": []any{
			map[string]any{"matcher": "Bash", "hooks": []any{withIf("Bash(git *)", "echo git"), withIf("Bash(rm *)", "echo rm")}},
			map[string]any{"matcher": "Edit, Write", "hooks": []any{sh("echo edit-or-write")}},
			map[string]any{"matcher": "mcp__brave-search", "hooks": []any{sh("echo bare-prefix")}},
			map[string]any{"matcher": "mcp__brave-search__.*", "hooks": []any{sh("echo brave")}},
		},
		"UserPromptSubmit": []any{map[string]any{"hooks": []any{withIf("Bash(*)", "echo never")}}},
	}})
	s := e.open(t, SessionOptions{})
	ctx := func(tool, input string) string {
		m := runClaude(t, s, hook.PreToolUse, `{"tool_name":"`+tool+`","tool_input":`+input+`}`)
		var out []string
		for _, r := range m.Runs {
			if r.Outcome == output.OutcomeSucceeded {
				out = append(out, strings.TrimPrefix(r.HookID[strings.LastIndex(r.HookID, "#"):], "#"))
			}
		}
		return strings.Join(out, ",")
	}
	cases := map[string][2]string{
		"FOO=bar git push":     {"Bash", `{"command":"FOO=bar git push"}`},
		"npm test && git push": {"Bash", `{"command":"npm test && git push"}`},
		"echo $(rm -rf /)":     {"Bash", `{"command":"echo $(rm -rf /)"}`},
		"echo $(date)":         {"Bash", `{"command":"echo $(date)"}`},
		"Write":                {"Write", `{"file_path":"/a"}`},
		"brave":                {"mcp__brave-search__web_search", `{}`},
	}
	want := map[string]string{
		"FOO=bar git push":     "PreToolUse[0][0]",
		"npm test && git push": "PreToolUse[0][0]",
		"echo $(rm -rf /)":     "PreToolUse[0][1]",
		"echo $(date)":         "",
		"Write":                "PreToolUse[1][0]",
		"brave":                "PreToolUse[3][0]",
	}
	for name, c := range cases {
		if got := ctx(c[0], c[1]); got != want[name] {
			t.Errorf("%s: ran %q, want %q", name, got, want[name])
		}
	}
	m := runClaude(t, s, hook.UserPromptSubmit, `{"prompt":"x"}`)
	if claudeOutcomes(m) != "skipped(if_not_matched)" {
		t.Errorf("if on a non-tool event: %s", claudeOutcomes(m))
	}
}

// hooks explain --profile claude: matcher syntax, if and dedupe.
func TestExplainClaude(t *testing.T) {
	e := newClaudeEnv(t)
	withIf := func(rule, cmd string) map[string]any { h := sh(cmd); h["if"] = rule; return h }
	writeJSON(t, filepath.Join(e.claudeHome, "settings.json"), map[string]any{"hooks": map[string]any{
		"PreToolUse": []any{
			map[string]any{"matcher": "Bash", "hooks": []any{withIf("Bash(git *)", "echo git"), withIf("Bash(rm *)", "echo rm"), sh("echo dup")}},
			map[string]any{"matcher": "Edit, Write", "hooks": []any{sh("echo edit")}},
			map[string]any{"matcher": "Bash", "hooks": []any{sh("echo dup")}},
			map[string]any{"matcher": "Bash(", "hooks": []any{sh("echo bad regexp")}},
		},
	}})
	s := e.open(t, SessionOptions{})
	x, err := s.ExplainClaude(hook.PreToolUse, json.RawMessage(`{"tool_name":"Bash","tool_input":{"command":"git status"}}`))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range x.Hooks {
		got = append(got, strings.TrimPrefix(h.ID[strings.LastIndex(h.ID, "#"):], "#")+"="+map[bool]string{true: "run", false: h.Reason}[h.WouldRun])
	}
	want := "PreToolUse[0][0]=run PreToolUse[0][1]=if PreToolUse[0][2]=run PreToolUse[1][0]=matcher PreToolUse[2][0]=duplicate PreToolUse[3][0]=matcher"
	if strings.Join(got, " ") != want {
		t.Fatalf("explain:\n got %s\nwant %s", strings.Join(got, " "), want)
	}
	if x.Hooks[0].Detail != "if Bash(git *) matches this call" || x.Hooks[0].Order != 1 || x.Hooks[2].Order != 2 ||
		!strings.Contains(x.Hooks[4].Detail, "PreToolUse[0][2]") ||
		x.Hooks[3].Detail != `matcher "Edit, Write" does not match tool_name "Bash"` ||
		x.Hooks[5].Detail != `matcher "Bash(" is invalid and matches nothing` {
		t.Fatalf("details: %+v", x.Hooks)
	}
}

// plugin.json may declare the hooks inline or name a file
// (https://code.claude.com/docs/en/plugins-reference#hooks); in the zcode
// profile only hooks/hooks.json counts.
func TestClaudePluginManifestHooks(t *testing.T) {
	e := newClaudeEnv(t)
	inline := filepath.Join(e.dir, "inline")
	writeJSON(t, filepath.Join(inline, ".claude-plugin/plugin.json"), map[string]any{"name": "inline",
		"hooks": handlers("UserPromptSubmit", "", sh("echo inline"))["hooks"]})
	byPath := filepath.Join(e.dir, "bypath")
	writeJSON(t, filepath.Join(byPath, ".claude-plugin/plugin.json"), map[string]any{"name": "bypath", "hooks": "./config/hooks.json"})
	writeJSON(t, filepath.Join(byPath, "config/hooks.json"), handlers("UserPromptSubmit", "", sh("echo by-path")))
	s := e.open(t, SessionOptions{PluginDirs: []string{inline, byPath}})
	if m := runClaude(t, s, hook.UserPromptSubmit, `{"prompt":"x"}`); strings.Join(m.AdditionalContext, ",") != "inline,by-path" {
		t.Fatalf("claude: %q %s", m.AdditionalContext, claudeOutcomes(m))
	}
	z, _ := NewSession(SessionOptions{ID: "z", Cwd: e.cwd, PluginDirs: []string{inline, byPath}})
	t.Cleanup(z.Close)
	if hs, _ := z.Hooks(); len(hs) != 0 {
		t.Fatalf("zcode loaded plugin.json hooks: %d", len(hs))
	}
}
