package compat

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookside/hookside/conformance"
)

// claudeScenario is one entry of the claude-profile corpus: scripts written
// the way public Claude Code plugins and hook collections write them, run
// unchanged through `profile: "claude"`, each asserting the merged answer
// Claude Code's reference gives (https://code.claude.com/docs/en/hooks).
type claudeScenario struct {
	name, description string
	scripts           []string // under scripts/claude/, installed in ${ROOT}/bin/
	// settings is ~/.claude/settings.json (claudeHomeDir ${ROOT}/claudehome);
	// plugin, when set, is plugin/hooks/hooks.json (+ plugin.json name).
	settings, plugin map[string]any
	files            map[string]any
	session          map[string]any
	env              map[string]string
	event            string
	runs             []runExpect
	// after are extra steps (expectFile …) run after the hooks/run calls.
	after []any
	// initialize adds initialize params (capabilities …), responders are
	// the scripted host's answers to server→client requests, expectOpen
	// is the expected session/open result (nil = only the session id).
	initialize, expectOpen map[string]any
	responders             []any
}

func claudeGroup(matcher string, hs ...map[string]any) []any {
	g := obj("hooks", hs)
	if matcher != "" {
		g["matcher"] = matcher
	}
	return []any{g}
}

func cmd(c string) map[string]any { return obj("type", "command", "command", c, "timeout", 10) }

func claudeCorpus(httpURL string) []claudeScenario {
	gitIf := cmd(`echo '{"systemMessage":"git command seen"}'`)
	gitIf["if"] = "Bash(git *)"
	return []claudeScenario{
		{
			name: "bash_jq_guard", description: "bash + jq PreToolUse guard: JSON permissionDecision deny with its reason; exit 2 routes like deny with stderr as the reason (hooks#pretooluse-decision-control, #exit-code-2); an `if` handler runs only for git commands (hooks#common-fields); stdin has no camelCase fields.",
			scripts: []string{"guard_jq.sh"}, event: "PreToolUse",
			settings: obj("hooks", obj("PreToolUse", claudeGroup("Bash", cmd("${ROOT}/bin/guard_jq.sh"), gitIf))),
			runs: []runExpect{
				{obj("tool_name", "Bash", "tool_input", obj("command", "rm -rf /tmp/x")), obj(
					"blocked", true, "permissionDecision", "deny", "permissionDecisionReason", "Destructive command blocked: rm -rf /tmp/x",
					"runs", []any{obj("outcome", "succeeded"), obj("outcome", "skipped", "reason", obj("$regex", "^if_not_matched"))})},
				{obj("tool_name", "Bash", "tool_input", obj("command", "git push --force")), obj(
					"blocked", true, "permissionDecision", "deny", "permissionDecisionReason", "Force pushes are not allowed",
					"systemMessages", []any{"git command seen"})},
				{obj("tool_name", "Bash", "tool_input", obj("command", "ls")), obj(
					"blocked", false, "permissionDecision", "$absent", "runs", []any{obj("outcome", "succeeded"), obj("outcome", "skipped")})},
			},
		},
		{
			name: "python_permission_request", description: "python PermissionRequest auto-approval in Claude Code's shape: hookSpecificOutput.decision{behavior, updatedPermissions} allows, behavior deny with message denies (hooks#permissionrequest-decision-control).",
			scripts: []string{"auto_approve.py"}, event: "PermissionRequest",
			settings: obj("hooks", obj("PermissionRequest", claudeGroup("Bash|Read", cmd("python3 ${ROOT}/bin/auto_approve.py")))),
			runs: []runExpect{
				{obj("tool_name", "Bash", "tool_input", obj("command", "npm test -- --watch=false"),
					"permission_suggestions", []any{obj("type", "addRules", "rules", []any{obj("toolName", "Bash", "ruleContent", "npm test:*")}, "behavior", "allow", "destination", "localSettings")}),
					obj("blocked", false, "permission", obj("behavior", "allow", "updatedPermissions", []any{obj("type", "addRules", "destination", "localSettings")}))},
				{obj("tool_name", "Bash", "tool_input", obj("command", "curl https://example.com")), obj(
					"blocked", true, "blockReason", "network access needs review", "permission", obj("behavior", "deny", "message", "network access needs review"))},
				{obj("tool_name", "Bash", "tool_input", obj("command", "make")), obj("blocked", false, "permission", "$absent")},
			},
		},
		{
			name: "node_posttooluse_feedback", description: "node PostToolUse lint hook: decision block + reason and exit-2 stderr reach the model as feedback; the tool already ran, nothing is blocked (hooks#posttooluse-decision-control).",
			scripts: []string{"lint_feedback.mjs"}, event: "PostToolUse",
			settings: obj("hooks", obj("PostToolUse", claudeGroup("Edit|Write", cmd("node ${ROOT}/bin/lint_feedback.mjs")))),
			runs: []runExpect{
				{obj("tool_name", "Write", "tool_input", obj("file_path", "/p/a.ts"), "tool_response", obj("success", true)), obj(
					"blocked", false, "feedback", []any{"/p/a.ts: 2 lint errors (no-unused-vars)"}, "additionalContext", []any{"eslint ran"})},
				{obj("tool_name", "Edit", "tool_input", obj("file_path", "/p/b.py")), obj(
					"blocked", false, "feedback", []any{"ruff: /p/b.py: E501 line too long"}, "runs", []any{obj("outcome", "blocked", "exitCode", 2)})},
				{obj("tool_name", "Read", "tool_input", obj("file_path", "/p/a.ts")), obj("runs", []any{})},
			},
		},
		{
			name: "python_stop_reads_host_transcript", description: "a loop-plugin style Stop hook reads the host's own transcript (session transcriptPath, or the run's transcript_path) unchanged and blocks until the agent says DONE (hooks#stop-decision-control).",
			scripts: []string{"loop_transcript.py"}, event: "Stop",
			files: map[string]any{
				"transcript.jsonl": `{"type":"user","message":{"role":"user","content":"fix it"}}` + "\n" + `{"type":"assistant","message":{"role":"assistant","content":"working on it"}}` + "\n",
				"done.jsonl":       `{"type":"assistant","message":{"role":"assistant","content":"All DONE"}}` + "\n",
			},
			session:  obj("transcriptPath", "${ROOT}/transcript.jsonl"),
			settings: obj("hooks", obj("Stop", claudeGroup("", cmd("python3 ${ROOT}/bin/loop_transcript.py")))),
			runs: []runExpect{
				{obj("stop_hook_active", false), obj("stop", obj("continueTurn", true, "consecutive", 1, "limit", 8,
					"continuation", "not finished yet (last: working on it)"))},
				{obj("stop_hook_active", true, "transcript_path", "${ROOT}/done.jsonl"), obj("stop", obj("continueTurn", false, "continuation", nil))},
			},
		},
		{
			name: "bash_session_start_env_file", description: "SessionStart: plain stdout is context and the export lines written to CLAUDE_ENV_FILE come back to the host (hooks#persist-environment-variables).",
			scripts: []string{"session_env.sh"}, event: "SessionStart",
			settings: obj("hooks", obj("SessionStart", claudeGroup("startup|resume", cmd("${ROOT}/bin/session_env.sh")))),
			runs: []runExpect{
				{obj("source", "startup"), obj("additionalContext", []any{"Current branch: main"}, "envExports", []any{"export NODE_ENV=development"})},
			},
		},
		{
			name: "bash_prompt_guard", description: "UserPromptSubmit: decision block stops the prompt (the reason is for the user); otherwise additionalContext and sessionTitle (hooks#userpromptsubmit-decision-control).",
			scripts: []string{"prompt_guard.sh"}, event: "UserPromptSubmit",
			settings: obj("hooks", obj("UserPromptSubmit", claudeGroup("", cmd("${ROOT}/bin/prompt_guard.sh")))),
			runs: []runExpect{
				{obj("prompt", "my password is hunter2"), obj("blocked", true, "blockReason", "Prompt looks like it contains a secret")},
				{obj("prompt", "refactor the login form please"), obj("blocked", false,
					"additionalContext", []any{"prompt length 30"}, "sessionTitle", "refactor the login f")},
			},
		},
		{
			name: "node_plugin_data_dir", description: "a plugin's exec-form node hook gets CLAUDE_PLUGIN_ROOT and a created, persistent CLAUDE_PLUGIN_DATA under the Claude home (plugins-reference#persistent-data-directory).",
			scripts: []string{"plugin_data.mjs"}, event: "SessionStart",
			plugin: obj("hooks", obj("SessionStart", claudeGroup("", obj("type", "command", "command", "node",
				"args", []any{"${CLAUDE_PLUGIN_ROOT}/../bin/plugin_data.mjs"})))),
			runs: []runExpect{{obj("source", "startup"), obj("additionalContext", []any{"plugin data ready"},
				"runs", []any{obj("source", "plugin", "outcome", "succeeded")})}},
			after: []any{obj("expectFile", obj("path", "${ROOT}/claudehome/plugins/data/formatter-market/installed.txt",
				"text", obj("$regex", "/plugin$")))},
		},
		{
			name: "http_handler", description: "an http handler: the input JSON is POSTed with headers interpolated from allowedEnvVars; a 2xx JSON body decides, a non-2xx status is a non-blocking error (hooks#http-response-handling).",
			event: "PreToolUse", env: map[string]string{"HOOK_TOKEN": "t0k"},
			settings: obj("allowedHttpHookUrls", []any{"http://127.0.0.1:*"}, "hooks", obj("PreToolUse", claudeGroup("Bash",
				obj("type", "http", "url", httpURL+"/pre-tool-use", "timeout", 5,
					"headers", obj("Authorization", "Bearer $HOOK_TOKEN"), "allowedEnvVars", []any{"HOOK_TOKEN"})))),
			runs: []runExpect{
				{obj("tool_name", "Bash", "tool_input", obj("command", "psql -c 'drop table users'")), obj(
					"blocked", true, "permissionDecision", "deny", "permissionDecisionReason", "SQL DDL needs review")},
				{obj("tool_name", "Bash", "tool_input", obj("command", "fail please")), obj(
					"blocked", false, "hookErrors", []any{obj("$regex", "HTTP status 503")}, "runs", []any{obj("outcome", "failed")})},
				{obj("tool_name", "Bash", "tool_input", obj("command", "ls")), obj("blocked", false, "hookErrors", []any{})},
			},
		},
	}
}

// hookServer answers the http_handler scenario like a policy service.
func hookServer(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var in struct {
			Event     string `json:"hook_event_name"`
			ToolInput struct {
				Command string `json:"command"`
			} `json:"tool_input"`
		}
		b, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(b, &in)
		switch {
		case r.Header.Get("Authorization") != "Bearer t0k" || r.Header.Get("Content-Type") != "application/json":
			w.WriteHeader(http.StatusUnauthorized)
		case strings.Contains(in.ToolInput.Command, "drop table"):
			_, _ = io.WriteString(w, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"SQL DDL needs review"}}`)
		case strings.Contains(in.ToolInput.Command, "fail"):
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func buildClaudeCase(t *testing.T, sc claudeScenario) *conformance.Case {
	files := map[string]any{}
	for k, v := range sc.files {
		files[k] = v
	}
	for _, s := range sc.scripts {
		b, err := os.ReadFile(filepath.Join("scripts", "claude", s))
		if err != nil {
			t.Fatal(err)
		}
		files["bin/"+s] = obj("content", string(b), "mode", "0755")
	}
	session := obj("profile", "claude", "claudeHomeDir", "${ROOT}/claudehome")
	for k, v := range sc.session {
		session[k] = v
	}
	if sc.settings != nil {
		files["claudehome/settings.json"] = sc.settings
	}
	if sc.plugin != nil {
		files["plugin/hooks/hooks.json"] = sc.plugin
		files["plugin/.claude-plugin/plugin.json"] = obj("name", "formatter@market")
		session["pluginDirs"] = []any{"${ROOT}/plugin"}
	}
	hs := obj("session", session)
	if sc.initialize != nil {
		hs["initialize"] = sc.initialize
	}
	if sc.expectOpen != nil {
		hs["expectOpen"] = sc.expectOpen
	}
	steps := []any{obj("handshake", hs)}
	for i, r := range sc.runs {
		steps = append(steps,
			obj("send", obj("id", i+1, "method", "hooks/run", "params", obj(
				"sessionId", "s1", "event", sc.event, "turnId", "t1", "input", r.input))),
			obj("expect", obj("id", i+1, "result", r.expect), "timeoutMs", 20000))
	}
	steps = append(steps, sc.after...)
	c := obj("name", sc.name+" (claude)", "description", sc.description, "files", files, "steps", steps)
	if sc.env != nil {
		c["env"] = sc.env
	}
	if sc.responders != nil {
		c["hostResponders"] = sc.responders
	}
	raw, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	var out conformance.Case
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatal(err)
	}
	out.ID = "claude/" + sc.name
	return &out
}

// TestClaudeCorpus runs every claude scenario against the real binary.
func TestClaudeCorpus(t *testing.T) {
	srv := hookServer(t)
	runClaudeScenarios(t, claudeCorpus(srv.URL), true)
}

// runClaudeScenarios runs each scenario as a subtest against the real
// binary.
func runClaudeScenarios(t *testing.T, scenarios []claudeScenario, parallel bool) {
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			if parallel {
				t.Parallel()
			}
			c := buildClaudeCase(t, sc)
			failures, stderr := conformance.RunCase(c, binPath, t.TempDir(), t.Logf)
			if len(failures) > 0 {
				if len(stderr) > 3000 {
					stderr = "…" + stderr[len(stderr)-3000:]
				}
				t.Errorf("%s\n  %s\n  --- server stderr (tail) ---\n%s", c.Name, strings.Join(failures, "\n  "), stderr)
			}
		})
	}
}
