package config

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/internal/nearmiss"
)

// ignored returns the CodeIgnoredField diagnostics of ds as "source message".
func ignored(t *testing.T, ds []hook.Diagnostic) []string {
	t.Helper()
	var out []string
	for _, d := range ds {
		if d.Code == hook.CodeIgnoredField {
			if d.Severity != hook.SeverityWarning {
				t.Errorf("%s: severity %s, want warning", d.Message, d.Severity)
			}
			out = append(out, d.Source+" "+d.Message)
		}
	}
	return out
}

// TestUnknownKeyWarnsWithSuggestion: a misspelt key in a matcher group, a
// declaration or a hookside file's hooks object gives exactly one
// config_ignored_field warning at the key's line:col, naming where it is
// and the key it most likely means; the file still loads.
func TestUnknownKeyWarnsWithSuggestion(t *testing.T) {
	zcode := func(group, entry string) string {
		return `{"hooks": {"enabled": true, "events": {"PreToolUse": [` + "\n" +
			`  {"matcher": "Bash", ` + group + `"hooks": [` + "\n" +
			`    {"type": "command", "command": "true"` + entry + `}]}]}}}`
	}
	claude := func(group, entry string) string {
		return `{"permissions": {"allow": []}, "hooks": {"PreToolUse": [` + "\n" +
			`  {"matcher": "Bash", ` + group + `"hooks": [` + "\n" +
			`    {"type": "command", "command": "true"` + entry + `}]}]}}`
	}
	cases := []struct {
		name    string
		dialect *hook.Dialect // nil: ParseFile (zcode user config)
		doc     string
		want    string // "line:col message"
		hooks   int
	}{
		{"zcode group matchr", nil, `{"hooks": {"events": {"PreToolUse": [` + "\n" + `  {"matchr": "Bash", "hooks": [{"type": "command", "command": "true"}]}]}}}`,
			`2:4 PreToolUse[0]: unknown key "matchr" is ignored; did you mean "matcher"?`, 1},
		{"zcode entry timeoutMS", nil, zcode("", `, "timeoutMS": 5000`),
			`3:44 PreToolUse[0][0]: unknown key "timeoutMS" is ignored; did you mean "timeoutMs"?`, 1},
		{"zcode entry comand", nil, `{"hooks": {"events": {"Stop": [{"hooks": [` + "\n" + `  {"type": "command", "comand": "true"}]}]}}}`,
			`2:23 Stop[0][0]: unknown key "comand" is ignored; did you mean "command"?`, 0},
		{"zcode group Parallel", nil, zcode(`"Parallel": true, `, ""),
			`2:23 PreToolUse[0]: unknown key "Parallel" is ignored; did you mean "parallel"?`, 1},
		{"zcode entry no suggestion", nil, zcode("", `, "retries": 3`),
			`3:44 PreToolUse[0][0]: unknown key "retries" is ignored`, 1},
		{"zcode entry Claude-only key", nil, zcode("", `, "if": "Bash(git *)"`),
			`3:44 PreToolUse[0][0]: unknown key "if" is ignored`, 1},
		{"zcode hooks object", nil, `{"hooks": {"enable": true}}`,
			`1:12 hooks: unknown key "enable" is ignored; did you mean "enabled"?`, 0},
		{"zcode hooks timeout", nil, `{"hooks": {"timeout": 5}}`,
			`1:12 hooks: unknown key "timeout" is ignored; did you mean "timeoutMs"?`, 0},
		{"claude group", hook.Claude, claude(`"matchers": "x", `, ""),
			`2:23 PreToolUse[0]: unknown key "matchers" is ignored; did you mean "matcher"?`, 1},
		{"claude entry", hook.Claude, claude("", `, "statusMesage": "x"`),
			`3:44 PreToolUse[0][0]: unknown key "statusMesage" is ignored; did you mean "statusMessage"?`, 1},
		{"claude http entry", hook.Claude, `{"hooks": {"Stop": [{"hooks": [` + "\n" + `{"type": "http", "url": "http://127.0.0.1/h", "header": {}}]}]}}`,
			`2:47 Stop[0][0]: unknown key "header" is ignored; did you mean "headers"?`, 1},
		{"spark entry", hook.Spark, claude("", `, "tiemout": 5`),
			`3:44 PreToolUse[0][0]: unknown key "tiemout" is ignored; did you mean "timeout"?`, 1},
		{"zcode refused type keeps its typo", nil, `{"hooks": {"events": {"Stop": [{"hooks": [` + "\n" + `  {"type": "prompt", "prompt": "p", "modle": "m"}]}]}}}`,
			`2:37 Stop[0][0]: unknown key "modle" is ignored`, 0},
		{"plugin entry", hook.Plugin, claude("", `, "Async": true`),
			`3:44 PreToolUse[0][0]: unknown key "Async" is ignored; did you mean "async"?`, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var diags []hook.Diagnostic
			var n int
			if c.dialect == nil {
				f, ds := ParseFile("c.json", []byte(c.doc), hook.SourceUser)
				diags, n = ds, len(f.Hooks)
			} else {
				f, ds := ParseSettingsFile(c.dialect, "c.json", []byte(c.doc), hook.SourceUser)
				diags, n = ds, len(f.Hooks)
			}
			got := ignored(t, diags)
			if len(got) != 1 || got[0] != "c.json:"+c.want {
				t.Fatalf("config_ignored_field = %q, want [%q] (all: %+v)", got, "c.json:"+c.want, diags)
			}
			if n != c.hooks {
				t.Errorf("%d hooks loaded, want %d (diagnostics %+v)", n, c.hooks, diags)
			}
		})
	}
}

// TestEveryKnownKeyIsQuiet: a group and a declaration carrying every key of
// their dialect's set (with values of the right type) get no unknown-key
// warning, nor does a hooks object with all its keys, nor the top-level keys
// of a settings file that belong to Claude Code.
func TestEveryKnownKeyIsQuiet(t *testing.T) {
	value := map[string]string{
		"type": `"command"`, "command": `"true"`, "args": `["a"]`, "shell": `true`,
		"async": `false`, "timeoutMs": `1000`, "timeout": `1`, "maxOutputBytes": `100`,
		"enabled": `true`, "statusMessage": `"s"`, "if": `"Bash(git *)"`, "once": `true`,
		"onFailure": `"block"`, "asyncRewake": `false`, "rewakeMessage": `"m"`,
		"rewakeSummary": `"s"`, "url": `"http://127.0.0.1/"`, "headers": `{}`,
		"allowedEnvVars": `[]`, "prompt": `"p"`, "model": `"m"`, "continueOnBlock": `false`,
		"server": `"s"`, "tool": `"t"`, "input": `{}`,
	}
	entry := func(d *hook.Dialect) string {
		var kv []string
		for _, k := range handlerKeys(d) {
			kv = append(kv, fmt.Sprintf("%q: %s", k, value[k]))
		}
		return "{" + strings.Join(kv, ", ") + "}"
	}
	group := func(d *hook.Dialect) string {
		return `[{"matcher": "Bash", "parallel": true, "hooks": [` + entry(d) + `]}]`
	}
	unknown := func(t *testing.T, ds []hook.Diagnostic) {
		t.Helper()
		for _, d := range ds {
			if d.Code == hook.CodeIgnoredField && strings.Contains(d.Message, "unknown key") {
				t.Errorf("unexpected %s %s", d.Source, d.Message)
			}
		}
	}
	t.Run("zcode", func(t *testing.T) {
		doc := `{"other": 1, "storage": {"dir": "x"}, "hooks": {"enabled": true, "timeoutMs": 5, "maxOutputBytes": 5, "events": {"PreToolUse": ` + group(hook.Zcode) + `}}}`
		_, ds := ParseFile("c.json", []byte(doc), hook.SourceUser)
		unknown(t, ds)
	})
	for _, d := range []*hook.Dialect{hook.Claude, hook.Spark, hook.Plugin} {
		t.Run(d.Name, func(t *testing.T) {
			doc := `{"permissions": {}, "env": {}, "disableAllHooks": false, "description": "d", "hooks": {"PreToolUse": ` + group(d) + `}}`
			_, ds := ParseSettingsFile(d, "s.json", []byte(doc), hook.SourceUser)
			unknown(t, ds)
		})
	}
}

// TestRefusedTypeIsOneDiagnostic: a declaration whose type is a handler
// type of some dialect but not of its file's (a Claude Code prompt hook in
// a zcode file, a process hook in spark settings, …) gets exactly one
// diagnostic, at its type: its type's own fields are not also reported as
// unknown keys, nor its timeout key as the other dialect's.
func TestRefusedTypeIsOneDiagnostic(t *testing.T) {
	fields := map[hook.HookType]string{
		hook.TypeProcess: `"command": "true", "args": ["a"], "timeoutMs": 1000, "maxOutputBytes": 10`,
		hook.TypeCommand: `"command": "true", "timeout": 1, "timeoutMs": 1000, "async": true, "asyncRewake": true, "rewakeMessage": "m"`,
		hook.TypeHTTP:    `"url": "http://127.0.0.1/h", "headers": {}, "allowedEnvVars": [], "timeout": 5`,
		hook.TypePrompt:  `"prompt": "done?", "model": "m", "continueOnBlock": true, "timeout": 30, "statusMessage": "s"`,
		hook.TypeAgent:   `"prompt": "check", "model": "m", "timeout": 60, "once": true`,
		hook.TypeMCPTool: `"server": "s", "tool": "t", "input": {"a": "b"}, "timeout": 5, "if": "Bash(*)"`,
	}
	types := []hook.HookType{hook.TypeProcess, hook.TypeCommand, hook.TypeHTTP, hook.TypePrompt, hook.TypeAgent, hook.TypeMCPTool}
	refused := 0
	for _, d := range []*hook.Dialect{hook.Zcode, hook.Spark, hook.Plugin, hook.Claude} {
		for _, ty := range types {
			if !hook.IsKnownType(ty) {
				t.Fatalf("%s is not a known type", ty)
			}
			if d.Runs(ty) || ty == hook.TypeCommand {
				continue
			}
			refused++
			t.Run(d.Name+"/"+string(ty), func(t *testing.T) {
				entry := `{"type": "` + string(ty) + `", ` + fields[ty] + `}`
				var ds []hook.Diagnostic
				var n int
				if d == hook.Zcode {
					f, got := ParseFile("c.json", []byte(`{"hooks": {"events": {"Stop": [{"hooks": [`+"\n"+entry+`]}]}}}`), hook.SourceUser)
					ds, n = got, len(f.Hooks)
				} else {
					f, got := ParseSettingsFile(d, "c.json", []byte(`{"hooks": {"Stop": [{"hooks": [`+"\n"+entry+`]}]}}`), hook.SourceUser)
					ds, n = got, len(f.Hooks)
				}
				if n != 0 || len(ds) != 1 || !strings.HasPrefix(ds[0].Source, "c.json:2:10") || !strings.Contains(ds[0].Message, `"`+string(ty)+`"`) {
					t.Fatalf("%d hooks, diagnostics %+v; want none loaded and one diagnostic at the type (c.json:2:10)", n, ds)
				}
			})
		}
	}
	if refused < 10 {
		t.Fatalf("only %d refused (dialect, type) pairs; the dialects' type tables moved?", refused)
	}
	if hook.IsKnownType("prompts") {
		t.Error(`"prompts" is not a known type`)
	}
}

func TestSuggestKey(t *testing.T) {
	for key, want := range map[string]string{
		"matchr": "matcher", "timeoutMS": "timeoutMs", "comand": "command",
		"TYPE": "type", "hook": "hooks", "xyz": "", "timeoutSeconds": "",
	} {
		if got := nearmiss.Suggest(key, append(append([]string{}, groupKeys...), entryKeys...)); got != want {
			t.Errorf("nearmiss.Suggest(%q) = %q, want %q", key, got, want)
		}
	}
}

// TestCorpusHasNoUnknownKeys: the configuration files of the conformance
// cases (real-world shapes of every dialect: user configs, workspace files,
// spark and Claude Code settings, plugin hooks.json and plugin.json) get no
// unknown-key warning, except the keys a hostile project file writes on
// purpose to set what a file cannot set.
func TestCorpusHasNoUnknownKeys(t *testing.T) {
	expected := map[string][]string{
		"trust/hostile_project_file_settings.json ws/zcode.json": {"policy", "workspaceHookPolicy"},
	}
	cases, err := filepath.Glob(filepath.Join("..", "..", "conformance", "cases", "*", "*.json"))
	if err != nil || len(cases) == 0 {
		t.Fatalf("no conformance cases found (%v)", err)
	}
	parsed := 0
	for _, cf := range cases {
		var c struct {
			Files map[string]json.RawMessage `json:"files"`
		}
		if err := json.Unmarshal(mustRead(t, cf), &c); err != nil {
			t.Fatalf("%s: %v", cf, err)
		}
		name := filepath.Base(filepath.Dir(cf)) + "/" + filepath.Base(cf)
		for path, raw := range c.Files {
			var content []byte = raw
			var s string
			if json.Unmarshal(raw, &s) == nil {
				content = []byte(s)
			}
			var ds []hook.Diagnostic
			base := filepath.Base(path)
			switch {
			case strings.HasSuffix(path, "hooks/hooks.json") || base == "plugin.json":
				_, ds = ParseSettingsFile(hook.Plugin, path, content, hook.SourceUser)
			case strings.Contains(path, ".spark/"):
				_, ds = ParseSettingsFile(hook.Spark, path, content, hook.SourceUser)
			case base == "settings.json" || base == "settings.local.json":
				_, ds = ParseSettingsFile(hook.Claude, path, content, hook.SourceUser)
			case base == "config.json" || base == "zcode.json" || base == "elsewhere.json":
				_, ds = ParseFile(path, content, hook.SourceUser)
			default:
				continue
			}
			parsed++
			var got []string
			for _, d := range ds {
				if d.Code == hook.CodeIgnoredField && strings.Contains(d.Message, "unknown key") {
					k := d.Message[strings.Index(d.Message, `"`)+1:]
					got = append(got, k[:strings.Index(k, `"`)])
				}
			}
			slices.Sort(got)
			if want := expected[name+" "+path]; !slices.Equal(got, want) {
				t.Errorf("%s %s: unknown keys %q, want %q (%+v)", name, path, got, want, ds)
			}
		}
	}
	if parsed < 100 {
		t.Fatalf("only %d configuration files parsed; the corpus moved?", parsed)
	}
}

// TestOnFailureWarnsItHasNoEffect: Claude Code's onFailure on a handler of
// a Claude Code–shaped file gives one config_ignored_field warning at the
// key saying hookside does not act on it, and the hook still loads; in a
// zcode file it is an unknown key like any other.
func TestOnFailureWarnsItHasNoEffect(t *testing.T) {
	for _, d := range []*hook.Dialect{hook.Claude, hook.Spark, hook.Plugin, hook.Zcode} {
		t.Run(d.Name, func(t *testing.T) {
			entry := `{"type": "command", "command": "./guard.sh", "onFailure": "block"}`
			var ds []hook.Diagnostic
			var n int
			want := `c.json:2:48 PreToolUse[0][0]: onFailure has no effect in hookside`
			if d == hook.Zcode {
				f, got := ParseFile("c.json", []byte(`{"hooks": {"events": {"PreToolUse": [{"hooks": [`+"\n"+`  `+entry+`]}]}}}`), hook.SourceUser)
				ds, n = got, len(f.Hooks)
				want = `c.json:2:48 PreToolUse[0][0]: unknown key "onFailure" is ignored`
			} else {
				f, got := ParseSettingsFile(d, "c.json", []byte(`{"hooks": {"PreToolUse": [{"hooks": [`+"\n"+`  `+entry+`]}]}}`), hook.SourceUser)
				ds, n = got, len(f.Hooks)
			}
			got := ignored(t, ds)
			if len(ds) != 1 || len(got) != 1 || !strings.HasPrefix(got[0], want) {
				t.Fatalf("diagnostics %+v, want one config_ignored_field starting %q", ds, want)
			}
			if n != 1 {
				t.Errorf("%d hooks loaded, want 1", n)
			}
		})
	}
}
