package runner

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// BenchmarkRunNoMatch is the server-side cost of a hooks/run whose event
// has hooks but none matches (PROTOCOL.md §3 hot path: no disk, no spawn).
func BenchmarkRunNoMatch(b *testing.B) {
	home := b.TempDir()
	cfg := `{"hooks":{"enabled":true,"events":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"process","command":"/bin/true"}]},{"matcher":"^(Edit|Write)$","hooks":[{"type":"process","command":"/bin/true"}]}]}}}`
	if err := os.WriteFile(filepath.Join(home, "config.json"), []byte(cfg), 0o600); err != nil {
		b.Fatal(err)
	}
	s, _ := NewSession(SessionOptions{ID: "s", Cwd: b.TempDir(), UserConfigPath: filepath.Join(home, "config.json")})
	defer s.Close()
	req := RunRequest{Event: "PreToolUse", TurnID: "t", Input: json.RawMessage(`{"toolName":"Read","toolInput":{"file_path":"/x"},"toolCallId":"c1"}`)}
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m, err := s.Run(ctx, req, nil)
		if err != nil || len(m.Runs) != 0 {
			b.Fatal(err, m.Runs)
		}
	}
}

// BenchmarkRunOneHookVsBareSpawn interleaves Session.Run of one trivial
// process hook with a bare fork/exec of the same program and reports the
// median ratio (the runner's overhead without the JSON-RPC layer).
func BenchmarkRunOneHookVsBareSpawn(b *testing.B) {
	home := b.TempDir()
	cfg := `{"hooks":{"enabled":true,"events":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"process","command":"/bin/true"}]}]}}}`
	if err := os.WriteFile(filepath.Join(home, "config.json"), []byte(cfg), 0o600); err != nil {
		b.Fatal(err)
	}
	s, _ := NewSession(SessionOptions{ID: "s", Cwd: b.TempDir(), UserConfigPath: filepath.Join(home, "config.json")})
	defer s.Close()
	req := RunRequest{Event: "PreToolUse", TurnID: "t", Input: json.RawMessage(`{"toolName":"Bash","toolInput":{"command":"ls"},"toolCallId":"c1"}`)}
	stdin := strings.Repeat("x", 600) + "\n"
	var hook, bare []time.Duration
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		if m, err := s.Run(ctx, req, nil); err != nil || len(m.Runs) != 1 || m.Runs[0].Outcome != "succeeded" {
			b.Fatal(err, m.Runs)
		}
		hook = append(hook, time.Since(t0))
		t1 := time.Now()
		cmd := exec.Command("/bin/true")
		cmd.Stdin = strings.NewReader(stdin)
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
		bare = append(bare, time.Since(t1))
	}
	b.StopTimer()
	sort.Slice(hook, func(i, j int) bool { return hook[i] < hook[j] })
	sort.Slice(bare, func(i, j int) bool { return bare[i] < bare[j] })
	mh, mb := hook[len(hook)/2], bare[len(bare)/2]
	b.ReportMetric(float64(mh.Microseconds()), "hook-µs")
	b.ReportMetric(float64(mb.Microseconds()), "bare-µs")
	b.ReportMetric(float64(mh)/float64(mb), "ratio")
}
