package v2bridge

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookside/hookside/runner/exec"
	"github.com/hookside/hookside/v2bridge/store"
)

func shellJob(dir, session, script string) exec.AsyncJob {
	return exec.AsyncJob{
		SessionID: session, TurnID: "t1", Event: "Stop", HookID: "user:/c.json#Stop[0][0]",
		Argv: []string{"sh", "-c", script}, Dir: dir, Env: []string{"FROM_SESSION=yes"},
		Stdin: []byte(`{"transcript_path":"` + exec.TranscriptPlaceholder + `"}` + "\n"), Transcript: []byte("hello\n"),
		TimeoutMs: 5000, MaxOutputBytes: 4096,
	}
}

func waitRun(t *testing.T, b *Bridge, id string, want string) store.Run {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		r, err := b.db.GetRun(bg, id)
		if err == nil && r.Status == want {
			return r
		}
		if time.Now().After(deadline) {
			t.Fatalf("run %s: %+v %v, want %s", id, r, err, want)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// An async shell hook runs through the queue with its cwd, env additions,
// stdin and transcript; its output summary is redacted by content.
func TestShellHookRunsThroughQueue(t *testing.T) {
	b := openBridge(t, t.TempDir(), nil)
	dir := t.TempDir()
	id, err := b.EnqueueShellHook(bg, shellJob(dir, "s1",
		`pwd > out; echo $FROM_SESSION >> out; cat "$(sed 's/.*"transcript_path":"\([^"]*\)".*/\1/')" >> out; echo token=supersecretvalue`))
	if err != nil {
		t.Fatal(err)
	}
	r := waitRun(t, b, id, store.RunSucceeded)
	got, _ := os.ReadFile(filepath.Join(dir, "out"))
	if want := dir + "\nyes\nhello\n"; string(got) != want {
		t.Fatalf("hook saw %q, want %q", got, want)
	}
	if s := string(r.OutputSummary); strings.Contains(s, "supersecret") || !strings.Contains(s, "[REDACTED]") {
		t.Fatalf("output summary not redacted: %s", s)
	}
}

// session/close cancels the session's queued async hooks; other sessions'
// are untouched.
func TestCancelQueuedShellHooks(t *testing.T) {
	b := openBridge(t, t.TempDir(), func(o *Options) { o.Workers = 1 })
	dir := t.TempDir()
	// The one worker is busy with this one; the next ones stay queued.
	first, err := b.EnqueueShellHook(bg, shellJob(dir, "busy", "sleep 1"))
	if err != nil {
		t.Fatal(err)
	}
	waitRun(t, b, first, store.RunRunning)
	var mine []string
	for i := 0; i < 3; i++ {
		id, err := b.EnqueueShellHook(bg, shellJob(dir, "s1", "touch ran-s1"))
		if err != nil {
			t.Fatal(err)
		}
		mine = append(mine, id)
	}
	other, _ := b.EnqueueShellHook(bg, shellJob(dir, "s2", "touch ran-s2"))
	n, err := b.CancelQueuedShellHooks(bg, "s1")
	if err != nil || n != 3 {
		t.Fatalf("cancelled %d, %v", n, err)
	}
	for _, id := range mine {
		waitRun(t, b, id, store.RunCancelled)
	}
	waitRun(t, b, other, store.RunSucceeded)
	if _, err := os.Stat(filepath.Join(dir, "ran-s1")); err == nil {
		t.Fatal("a cancelled hook ran")
	}
}
