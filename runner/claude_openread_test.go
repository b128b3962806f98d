package runner

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestClaudeOpenReadsEachSettingsFileOnce: opening a claude session reads
// the user and the workspace settings.json once each (fsid.Memo): the
// plugin resolution reads them, the loader, the workspace discovery and
// the switches take the same readings. An edit after the open is still
// seen at the next call.
func TestClaudeOpenReadsEachSettingsFileOnce(t *testing.T) {
	e := newClaudeEnv(t)
	user := filepath.Join(e.claudeHome, "settings.json")
	project := filepath.Join(e.cwd, ".claude", "settings.json")
	writeJSON(t, user, handlers("PreToolUse", "Bash", sh("true")))
	writeJSON(t, project, handlers("Stop", "", sh("true")))
	old := time.Now().Add(-time.Minute) // outside the switches' racy window
	for _, p := range []string{user, project} {
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	s := e.open(t, SessionOptions{})
	if r, h := s.openMemo.Reads(), s.openMemo.Hits(); r != 2 || h < 4 {
		t.Errorf("open read %d files and reused %d readings; want 2 reads (user, project) and at least 4 reuses (loader, workspace discovery, switches ×2)", r, h)
	}
	hooks, _ := s.Hooks()
	if len(hooks) != 2 {
		t.Fatalf("hooks %+v", hooks)
	}
	writeJSON(t, user, map[string]any{"disableAllHooks": true, "hooks": map[string]any{}})
	hooks, _ = s.Hooks()
	for _, h := range hooks {
		if h.Event == "PreToolUse" {
			t.Errorf("the user settings edited after the open are not seen: %+v", hooks)
		}
	}
	if !s.claudeSwitches().DisableAll {
		t.Error("the switches do not see the edit")
	}
}
