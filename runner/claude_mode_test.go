package runner

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/hookside/hookside/internal/hook"
)

// TestClaudePermissionModeDefault: a claude-profile hook's stdin always
// has permission_mode: the input's, else the session's mode, else
// ClaudeDefaultMode ("default"), as Claude Code always sends one.
func TestClaudePermissionModeDefault(t *testing.T) {
	e := newClaudeEnv(t)
	out := filepath.Join(e.dir, "stdin.json")
	writeJSON(t, filepath.Join(e.claudeHome, "settings.json"), handlers("UserPromptSubmit", "", sh(`cat > "`+out+`"`)))
	for _, tc := range []struct{ mode, input, want string }{
		{"", `{"prompt":"p"}`, "default"},
		{"plan", `{"prompt":"p"}`, "plan"},
		{"plan", `{"prompt":"p","permission_mode":"acceptEdits"}`, "acceptEdits"},
	} {
		s := e.open(t, SessionOptions{Mode: tc.mode})
		runClaude(t, s, hook.UserPromptSubmit, tc.input)
		s.Close()
		var in map[string]any
		b, _ := os.ReadFile(out)
		if err := json.Unmarshal(b, &in); err != nil || in["permission_mode"] != tc.want {
			t.Errorf("mode %q input %s: permission_mode %v (%v), want %q", tc.mode, tc.input, in["permission_mode"], err, tc.want)
		}
	}
}
