package runner

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// A claude-profile input's cwd, when it has one, is a string holding an
// absolute path: anything else is an *InputError for field cwd (the hook
// would otherwise get, and start in, the session's directory instead of
// the one the host named). Absent or null, the session's cwd is used.
func TestClaudeInputCwdMustBeAbsolute(t *testing.T) {
	e := newClaudeEnv(t)
	marker := filepath.Join(e.dir, "ran")
	writeJSON(t, filepath.Join(e.claudeHome, "settings.json"), handlers("Stop", "", sh("pwd > "+marker)))
	s := e.open(t, SessionOptions{})
	for _, c := range []struct{ cwd, reason string }{
		{`"rel/dir"`, `must be an absolute path, not "rel/dir"`},
		{`""`, `must be an absolute path, not ""`},
		{`5`, "must be a string, not a number"},
		{`{"p":1}`, "must be a string, not an object"},
	} {
		_, err := s.RunClaude(context.Background(), RunRequest{Event: "Stop", TurnID: "t", Input: json.RawMessage(`{"cwd":` + c.cwd + `}`)}, nil)
		var ie *InputError
		if !errors.As(err, &ie) || ie.Field != "cwd" || !strings.Contains(ie.Reason, c.reason) {
			t.Errorf("cwd %s: %v, want InputError cwd %q", c.cwd, err, c.reason)
		}
		if _, x := s.ExplainClaude("Stop", json.RawMessage(`{"cwd":`+c.cwd+`}`)); x == nil {
			t.Errorf("explain with cwd %s: no error", c.cwd)
		}
	}
	for _, in := range []string{`{}`, `{"cwd":null}`, `{"cwd":` + strconv.Quote(e.cwd) + `}`} {
		if m := runClaude(t, s, "Stop", in); !strings.Contains(claudeOutcomes(m), "succeeded") {
			t.Errorf("input %s: %s", in, claudeOutcomes(m))
		}
	}
}
