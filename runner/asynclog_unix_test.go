//go:build unix

package runner

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/hookside/hookside/truststore"
)

// TestAsyncHooksReportsOutcomes: AsyncHooks lists the background hooks a
// run started, running until they end, then with their exit code and
// duration; one still running at Close is reported stopped.
func TestAsyncHooksReportsOutcomes(t *testing.T) {
	d := t.TempDir()
	cfg := filepath.Join(d, "config.json")
	writeJSON(t, cfg, map[string]any{"hooks": map[string]any{"enabled": true, "events": map[string]any{
		"Stop": []any{map[string]any{"hooks": []any{
			map[string]any{"type": "command", "command": "sleep 0.2; exit 3", "async": true, "timeoutMs": 10000},
			map[string]any{"type": "command", "command": "sleep 30", "async": true, "timeoutMs": 60000},
		}}},
	}}})
	s, _ := NewSession(SessionOptions{ID: "s1", Cwd: d, UserConfigPath: cfg,
		Workspace: WorkspaceOptions{Home: d, Policy: truststore.PolicyUserDecides}})
	defer s.Close()
	run(t, s, "Stop", "{}")
	hs := s.AsyncHooks()
	if len(hs) != 2 || !hs[0].Running || !hs[1].Running || hs[0].Command != "sleep 0.2; exit 3" || hs[0].Event != "Stop" {
		t.Fatalf("right after the run: %+v", hs)
	}
	for deadline := time.Now().Add(10 * time.Second); s.AsyncHooks()[0].Running; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the short async hook did not end")
		}
	}
	hs = s.AsyncHooks()
	if a := hs[0]; a.ExitCode != 3 || a.Stopped || a.TimedOut || a.DurationMs < 150 || !hs[1].Running {
		t.Fatalf("after the short hook ended: %+v", hs)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if s.WaitAsync(ctx) {
		t.Fatal("WaitAsync: the sleep 30 hook ended")
	}
	s.Close()
	if a := s.AsyncHooks()[1]; a.Running || !a.Stopped || a.ExitCode != -1 || a.DurationMs >= 30000 {
		t.Fatalf("after Close: %+v", a)
	}
}
