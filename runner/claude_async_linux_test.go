package runner

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hookside/hookside/internal/hook"
)

// claudeMarkerSession opens a claude session whose SessionStart runs
// command in the foreground (timeout 60 s).
func claudeMarkerSession(t *testing.T, command string) (*Session, claudeEnv) {
	t.Helper()
	e := newClaudeEnv(t)
	writeJSON(t, filepath.Join(e.claudeHome, "settings.json"), map[string]any{"hooks": map[string]any{
		"SessionStart": []any{map[string]any{"hooks": []any{
			map[string]any{"type": "command", "timeout": 60, "command": command},
		}}},
	}})
	return e.open(t, SessionOptions{}), e
}

// claudeWaitGone waits until pid has exited (a zombie left to PID 1
// counts as exited); SIGKILLed processes die at once, the bound is a guard
// under load.
func claudeWaitGone(t *testing.T, pid int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		i := bytes.LastIndexByte(b, ')')
		if err != nil || i < 0 || i+2 < len(b) && (b[i+2] == 'Z' || b[i+2] == 'X') {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("process %d still runs", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func claudeReadPID(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

// A hook whose first stdout line is the runtime async marker is answered
// at once: the reply comes while the hook is still blocked on a FIFO the
// test opens only after the reply, and the hook's later JSON line is in
// the next reply's asyncResults.
func TestClaudeAsyncMarkerRepliesBeforeHookEnds(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "go")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	s, _ := claudeMarkerSession(t, `printf '{"async":true}\n'; read x < "`+fifo+`"; echo '{"systemMessage":"done"}'`)
	m := runClaude(t, s, hook.SessionStart, `{"source":"startup"}`)
	if claudeOutcomes(m) != "started_async" || len(m.AdditionalContext) != 0 || len(m.AsyncResults) != 0 {
		t.Fatalf("first reply: %s context %q async %+v", claudeOutcomes(m), m.AdditionalContext, m.AsyncResults)
	}
	f, err := os.OpenFile(fifo, os.O_WRONLY, 0) // blocks until the hook reads: it is still running
	if err != nil {
		t.Fatal(err)
	}
	_, _ = f.WriteString("go\n")
	_ = f.Close()
	s.async.Wait()
	m = runClaude(t, s, hook.SessionStart, `{"source":"resume"}`)
	if len(m.AsyncResults) != 1 || m.AsyncResults[0].SystemMessage != "done" || m.AsyncResults[0].Event != hook.SessionStart {
		t.Fatalf("next reply: %+v", m.AsyncResults)
	}
}

// asyncTimeout bounds a marker hook: its process group (here a sleep it
// waits for) is killed at that deadline, long before the handler's 60 s.
func TestClaudeAsyncMarkerTimeoutKillsTree(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	s, _ := claudeMarkerSession(t, `sleep 300 & echo $! > "`+pidFile+`"; printf '{"async":true,"asyncTimeout":100}\n'; wait`)
	if m := runClaude(t, s, hook.SessionStart, `{"source":"startup"}`); claudeOutcomes(m) != "started_async" {
		t.Fatalf("reply: %s", claudeOutcomes(m))
	}
	s.async.Wait() // returns once the hook's group was killed at asyncTimeout
	claudeWaitGone(t, claudeReadPID(t, pidFile))
}

// Closing the session kills a marker hook still running and drops its
// output.
func TestClaudeAsyncMarkerKilledAtClose(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	s, _ := claudeMarkerSession(t, `sleep 300 & echo $! > "`+pidFile+`"; printf '{"async":true}\n'; wait; echo '{"systemMessage":"late"}'`)
	if m := runClaude(t, s, hook.SessionStart, `{"source":"startup"}`); claudeOutcomes(m) != "started_async" {
		t.Fatalf("reply: %s", claudeOutcomes(m))
	}
	s.Close()
	claudeWaitGone(t, claudeReadPID(t, pidFile))
	if p := s.claudeSt().takePending(); len(p) != 0 {
		t.Fatalf("a killed hook's output was delivered: %+v", p)
	}
}

// Without the marker the first line changes nothing: the hook is awaited
// and its JSON is the run's answer.
func TestClaudeFirstLineWithoutMarkerIsAwaited(t *testing.T) {
	s, _ := claudeMarkerSession(t, `echo '{"systemMessage":"hi"}'; sleep 0.2; echo more >&2`)
	m := runClaude(t, s, hook.SessionStart, `{"source":"startup"}`)
	if claudeOutcomes(m) != "succeeded" || strings.Join(m.SystemMessages, ",") != "hi" {
		t.Fatalf("reply: %s %+v", claudeOutcomes(m), m)
	}
}
