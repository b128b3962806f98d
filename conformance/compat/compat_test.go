// Package compat is the compatibility corpus: hook scripts written the way
// people write Claude Code hooks (bash with $(cat) and jq, python
// json.load, node for-await, …), each run unchanged through both of
// hookside's dialects — the zcode config (<home>/config.json) and the
// spark settings (~/.spark/settings.json, profile "spark") — with the merged
// answer asserted. Cases are generated per dialect and run by the
// conformance driver against the real binary (`go test ./conformance/...`).
package compat

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookside/hookside/conformance"
)

var binPath string

func TestMain(m *testing.M) {
	tmp, err := os.MkdirTemp("", "hookside-compat-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if p := os.Getenv("HOOKSIDE_CONFORMANCE_BIN"); p != "" {
		binPath = p
	} else {
		binPath = filepath.Join(tmp, "hookside")
		out, err := exec.Command("go", "build", "-o", binPath, "github.com/hookside/hookside/cmd/hookside").CombinedOutput()
		if err != nil {
			fmt.Fprintf(os.Stderr, "go build ./cmd/hookside: %v\n%s", err, out)
			os.Exit(1)
		}
	}
	code := m.Run()
	_ = os.RemoveAll(tmp)
	os.Exit(code)
}

// handler is one hook as a Claude Code–shaped settings entry.
type handler struct {
	Command string   `json:"command"`
	Args    []string `json:"args,omitempty"`
}

// scenario is one corpus entry, dialect-neutral.
type scenario struct {
	name, description string
	// scripts: file name under scripts/ → path under the case root
	scripts map[string]string
	event   string
	matcher string
	hooks   []handler
	// plugin: the hooks go into plugin/hooks/hooks.json instead of the
	// dialect's user file (identical in both dialects).
	plugin bool
	// cwd of the session ("" = ${WS})
	cwd string
	// runs: the hooks/run inputs and the expected merged results, in order
	runs []runExpect
}

type runExpect struct {
	input  any
	expect any // pattern for the result of hooks/run
}

func obj(kv ...any) map[string]any {
	m := map[string]any{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	return m
}

func corpus() []scenario {
	sh := func(name string) map[string]string { return map[string]string{name: "bin/" + name} }
	return []scenario{
		{
			name: "bash_cat_jq", description: "bash reading stdin with $(cat) and fields with jq; exit 2 with stderr blocks PreToolUse (PROTOCOL.md §3).",
			scripts: sh("bash_cat_jq.sh"), event: "PreToolUse", matcher: "Bash",
			hooks: []handler{{Command: "${ROOT}/bin/bash_cat_jq.sh"}},
			runs: []runExpect{
				{obj("toolName", "Bash", "toolInput", obj("command", "rm -rf /")), obj(
					"blocked", true, "decision", "deny",
					"blockReason", "Dangerous command blocked: rm -rf / (PreToolUse)",
					"runs", []any{obj("outcome", "blocked", "exitCode", 2)})},
				{obj("toolName", "Bash", "toolInput", obj("command", "ls")), obj(
					"blocked", false, "decision", nil, "runs", []any{obj("outcome", "succeeded")})},
			},
		},
		{
			name: "python_json_load", description: "python json.load(sys.stdin) answering hookSpecificOutput.permissionDecision deny.",
			scripts: sh("python_json_load.py"), event: "PreToolUse", matcher: "Edit|Write",
			hooks: []handler{{Command: "python3 ${ROOT}/bin/python_json_load.py"}},
			runs: []runExpect{
				{obj("toolName", "Edit", "toolInput", obj("file_path", "/srv/app/.env")), obj(
					"blocked", true, "decision", "deny", "decisionReason", "Edit edits /srv/app/.env")},
				{obj("toolName", "Read", "toolInput", obj("file_path", "/srv/app/.env")), obj(
					"blocked", false, "runs", []any{})},
			},
		},
		{
			name: "node_for_await", description: "node reading stdin with for await, answering additionalContext on UserPromptSubmit.",
			scripts: sh("node_for_await.mjs"), event: "UserPromptSubmit",
			hooks: []handler{{Command: "node ${ROOT}/bin/node_for_await.mjs"}},
			runs: []runExpect{{obj("prompt", "hello"), obj(
				"blocked", false,
				"additionalContext", []any{"prompt has 5 chars (session s1)"},
				"modelContext", "UserPromptSubmit hook additional context:\nprompt has 5 chars (session s1)")}},
		},
		{
			name: "stderr_json_exit2", description: "JSON printed on stderr with exit 2: the exit code blocks and the stderr text is the reason.",
			scripts: sh("stderr_json_exit2.sh"), event: "PreToolUse",
			hooks: []handler{{Command: "${ROOT}/bin/stderr_json_exit2.sh"}},
			runs: []runExpect{{obj("toolName", "Bash"), obj(
				"blocked", true, "decision", "deny",
				"blockReason", `{"decision":"block","reason":"policy says no"}`)}},
		},
		{
			name: "unknown_fields", description: "unknown top-level and hookSpecificOutput fields are ignored; the known ones apply.",
			scripts: sh("unknown_fields.sh"), event: "PostToolUse",
			hooks: []handler{{Command: "${ROOT}/bin/unknown_fields.sh"}},
			runs: []runExpect{{obj("toolName", "Bash", "toolResponse", obj("ok", true)), obj(
				"blocked", false, "continue", true, "additionalContext", []any{"lint: 0 problems"},
				"modelContext", "[Hook additional context]\n#1 lint: 0 problems")}},
		},
		{
			name: "hso_without_event_name", description: "hookSpecificOutput without hookEventName is read (only a different name is ignored).",
			scripts: sh("hso_no_event_name.sh"), event: "PreToolUse",
			hooks: []handler{{Command: "${ROOT}/bin/hso_no_event_name.sh"}},
			runs: []runExpect{{obj("toolName", "Read"), obj(
				"blocked", false, "decision", "allow", "decisionReason", "read-only tool")}},
		},
		{
			name: "transcript_path", description: "transcript_path names a readable file holding the current prompt.",
			scripts: sh("transcript_path.sh"), event: "UserPromptSubmit",
			hooks: []handler{{Command: "${ROOT}/bin/transcript_path.sh"}},
			runs: []runExpect{{obj("prompt", "please deploy to prod"), obj(
				"additionalContext", []any{"transcript mentions the prompt"})}},
		},
		{
			name: "claude_project_dir_with_spaces", description: `"$CLAUDE_PROJECT_DIR"/… finds a script in a project whose path has a space; the hook runs in that directory.`,
			scripts: map[string]string{"project_dir.sh": "my project/.claude/hooks/project_dir.sh"},
			event:   "UserPromptSubmit", cwd: "${ROOT}/my project",
			hooks: []handler{{Command: `"$CLAUDE_PROJECT_DIR"/.claude/hooks/project_dir.sh`}},
			runs: []runExpect{{obj("prompt", "x"), obj(
				"additionalContext", []any{map[string]any{"$regex": `^project=.*/my project pwd=.*/my project$`}})}},
		},
		{
			name: "plugin_root", description: "a plugin script found through ${CLAUDE_PLUGIN_ROOT}, and an exec-form (command + args) plugin hook run without a shell.",
			scripts: map[string]string{"plugin_fmt.sh": "plugin/scripts/plugin_fmt.sh", "plugin_args.sh": "plugin/scripts/plugin_args.sh"},
			event:   "PostToolUse", matcher: "Write|Edit", plugin: true,
			hooks: []handler{
				{Command: "${CLAUDE_PLUGIN_ROOT}/scripts/plugin_fmt.sh"},
				{Command: "${CLAUDE_PLUGIN_ROOT}/scripts/plugin_args.sh", Args: []string{"a b", "$HOME"}},
			},
			runs: []runExpect{{obj("toolName", "Write", "toolInput", obj("file_path", "main.go")), obj(
				"additionalContext", []any{"formatted main.go with plugin", "argc=2 first=a b"},
				"runs", []any{obj("source", "plugin", "outcome", "succeeded"), obj("source", "plugin", "outcome", "succeeded")})}},
		},
		{
			name: "stop_ignores_stop_hook_active", description: "a Stop hook that always blocks: the continuation limit (3 per turn) ends the loop (lifecycle §\"Stop 与续跑上限\").",
			scripts: sh("stop_forever.sh"), event: "Stop",
			hooks: []handler{{Command: "${ROOT}/bin/stop_forever.sh"}},
			runs: []runExpect{
				{obj("responseText", "done"), obj("stop", obj("continueTurn", true, "stopHookActive", false, "limit", 3,
					"continuation", "Stop hook additional context:\nrun the tests again"))},
				{obj("responseText", "done"), obj("stop", obj("continueTurn", true, "stopHookActive", true))},
				{obj("responseText", "done"), obj("stop", obj("continueTurn", true, "stopHookActive", true))},
				{obj("responseText", "done"), obj("stop", obj("continueTurn", false, "stopHookActive", true, "continuation", nil))},
			},
		},
		{
			name: "one_megabyte_of_context", description: "1 MB of JSON on stdout: capped at maxOutputBytes (32768); the JSON answer the cap cut is not read as plain text: the run is failed + output_truncated and adds no context; nothing hangs.",
			scripts: sh("big_context.py"), event: "UserPromptSubmit",
			hooks: []handler{{Command: "python3 ${ROOT}/bin/big_context.py"}},
			runs: []runExpect{{obj("prompt", "x"), obj(
				"additionalContext", []any{},
				"modelContext", nil,
				"runs", []any{obj("outcome", "failed", "stdoutTruncated", true, "error", map[string]any{"$regex": `^output_truncated: `})})}},
		},
	}
}

// dialects turn a scenario into files and session params.
var dialects = []string{"zcode", "spark"}

func group(sc scenario) []any {
	hs := make([]any, len(sc.hooks))
	for i, h := range sc.hooks {
		e := obj("type", "command", "command", h.Command, "timeout", 10)
		if h.Args != nil {
			e["args"] = h.Args
		}
		hs[i] = e
	}
	g := obj("hooks", hs)
	if sc.matcher != "" {
		g["matcher"] = sc.matcher
	}
	return []any{g}
}

func buildCase(t *testing.T, sc scenario, dialect string) *conformance.Case {
	files := map[string]any{}
	for src, dst := range sc.scripts {
		b, err := os.ReadFile(filepath.Join("scripts", src))
		if err != nil {
			t.Fatal(err)
		}
		files[dst] = obj("content", string(b), "mode", "0755")
	}
	session := obj()
	if sc.cwd != "" {
		session["cwd"] = sc.cwd
	}
	switch {
	case sc.plugin:
		files["plugin/hooks/hooks.json"] = obj("hooks", obj(sc.event, group(sc)))
		session["pluginDirs"] = []any{"${ROOT}/plugin"}
	case dialect == "zcode":
		// hookside's own shape: a command hook is the string given to sh -c.
		hs := []any{}
		for _, h := range sc.hooks {
			hs = append(hs, obj("type", "command", "command", h.Command))
		}
		g := obj("hooks", hs)
		if sc.matcher != "" {
			g["matcher"] = sc.matcher
		}
		files["${HOME}/config.json"] = obj("hooks", obj("enabled", true, "timeoutMs", 10000, "events", obj(sc.event, []any{g})))
	case dialect == "spark":
		hs := []any{}
		for _, h := range sc.hooks {
			hs = append(hs, obj("type", "command", "command", h.Command, "timeout", 10))
		}
		g := obj("hooks", hs)
		if sc.matcher != "" {
			g["matcher"] = sc.matcher
		}
		// ~/.spark/settings.json: the driver's $HOME is <root>/userhome.
		files["userhome/.spark/settings.json"] = obj("hooks", obj(sc.event, []any{g}))
	}
	if dialect == "spark" {
		session["profile"] = "spark"
	}
	steps := []any{obj("handshake", obj("session", session))}
	for i, r := range sc.runs {
		steps = append(steps,
			obj("send", obj("id", i+1, "method", "hooks/run", "params", obj(
				"sessionId", "s1", "event", sc.event, "turnId", "t1", "input", r.input))),
			obj("expect", obj("id", i+1, "result", r.expect), "timeoutMs", 20000))
	}
	raw, err := json.Marshal(obj("name", sc.name+" ("+dialect+")", "description", sc.description, "files", files, "steps", steps))
	if err != nil {
		t.Fatal(err)
	}
	var c conformance.Case
	if err := json.Unmarshal(raw, &c); err != nil {
		t.Fatal(err)
	}
	c.ID = dialect + "/" + sc.name
	return &c
}

// TestCorpus runs every scenario through both dialects.
func TestCorpus(t *testing.T) {
	for _, sc := range corpus() {
		for _, d := range dialects {
			t.Run(d+"/"+sc.name, func(t *testing.T) {
				t.Parallel()
				c := buildCase(t, sc, d)
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
}
