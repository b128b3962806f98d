package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestHooksRunContinueFalseExits2: a hook answering
// {"continue":false,"stopReason":…} makes `hooks run` exit 2 (the host must
// not proceed) on the zcode and the claude profile, text and --json, with
// the stopReason on stderr; the JSON result keeps continue:false and is
// not marked blocked. A hook answering continue:true exits 0, silently.
func TestHooksRunContinueFalseExits2(t *testing.T) {
	stop := `echo '{"continue":false,"stopReason":"stop \u001b[2J now"}'`
	e := newCLIEnv(t)
	e.userConfig(t, map[string]any{
		"UserPromptSubmit": []any{map[string]any{"hooks": []any{map[string]any{"type": "command", "command": stop}}}},
		"PreToolUse":       []any{map[string]any{"hooks": []any{map[string]any{"type": "command", "command": `echo '{"continue":true}'`}}}},
	})
	ch := filepath.Join(e.root, "claudehome")
	writeFiles(t, map[string]string{filepath.Join(ch, "settings.json"): `{"hooks":{` +
		`"UserPromptSubmit":[{"hooks":[{"type":"command","command":` + strconvQuote(stop) + `}]}],` +
		`"PreToolUse":[{"hooks":[{"type":"command","command":"echo '{\"continue\":true}'"}]}]}}`})
	profiles := map[string][]string{"zcode": nil, "claude": {"--profile", "claude", "--claude-home", ch}}
	for name, extra := range profiles {
		for _, asJSON := range []bool{false, true} {
			args := append([]string{"hooks", "run", "--event", "UserPromptSubmit", "--input", "-"}, extra...)
			if asJSON {
				args = append(args, "--json")
			}
			code, out, errs := e.hookside(t, `{"prompt":"hi"}`, args...)
			if code != 2 {
				t.Fatalf("%s json=%v: exit %d, want 2\n%s%s", name, asJSON, code, out, errs)
			}
			if want := `hookside hooks run: stopped (continue: false): stop \x1b[2J now`; !strings.Contains(errs, want) {
				t.Errorf("%s json=%v: stderr lacks %q:\n%s", name, asJSON, want, errs)
			}
			if asJSON {
				var m struct {
					Blocked  bool `json:"blocked"`
					Continue bool `json:"continue"`
				}
				if err := json.Unmarshal([]byte(out), &m); err != nil || m.Blocked || m.Continue {
					t.Errorf("%s: result %+v (%v): want continue false, not blocked\n%s", name, m, err, out)
				}
			}
			args = append([]string{"hooks", "run", "--event", "PreToolUse", "--input", "-"}, extra...)
			code, out, errs = e.hookside(t, `{"tool_name":"Bash","toolName":"Bash"}`, args...)
			if code != 0 || strings.Contains(errs, "stopped") {
				t.Errorf("%s continue:true: exit %d, want 0\n%s%s", name, code, out, errs)
			}
		}
	}
}

// strconvQuote is s as a JSON string literal.
func strconvQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
