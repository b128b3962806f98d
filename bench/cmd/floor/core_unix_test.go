//go:build unix

package main

import (
	"bufio"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestMain runs the floor's main when the test binary is re-executed as the
// floor (FLOOR_TEST_ARGS holds its arguments, one per line).
func TestMain(m *testing.M) {
	if args, ok := os.LookupEnv("FLOOR_TEST_ARGS"); ok {
		os.Args = append([]string{"floor"}, strings.Split(args, "\n")...)
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// floorProc starts this test binary as `floor args…`.
func floorProc(t *testing.T, args ...string) (*bufio.Writer, *bufio.Reader) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe)
	cmd.Dir = t.TempDir()
	// GORACE: under -race, without the race runtime's 1 s sleep at the
	// floor's exit (its janitor runs with an empty environment and keeps it).
	cmd.Env = append(os.Environ(), "FLOOR_TEST_ARGS="+strings.Join(args, "\n"), "GORACE=atexit_sleep_ms=0")
	cmd.Stderr = os.Stderr
	w, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	r, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = w.Close()
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("floor exited: %v", err)
			}
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			t.Error("floor did not exit on EOF")
		}
	})
	return bufio.NewWriter(w), bufio.NewReader(r)
}

// ask sends one request line and returns the answer line, failing after 5 s.
func ask(t *testing.T, w *bufio.Writer, r *bufio.Reader, req string) string {
	t.Helper()
	if _, err := w.WriteString(req + "\n"); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 1)
	go func() {
		line, _ := r.ReadString('\n')
		got <- strings.TrimSpace(line)
	}()
	select {
	case line := <-got:
		return line
	case <-time.After(5 * time.Second):
		t.Fatal("no answer within 5 s")
		return ""
	}
}

// With -core a hook gets the request line on stdin and its stdout is the
// answer, as without; and it runs in its own process group, killed when the
// leader exits, so a background child holding stdout (which keeps os/exec's
// Run waiting until the deadline) does not hold the answer.
func TestCoreAnswersLikeTheFloorAndEndsTheGroup(t *testing.T) {
	w, r := floorProc(t, "-core", "-timeout", "20s", "--", "/bin/sh", "-c", `sleep 30 & read -r line; printf '{"got":%s}\n' "$line"`)
	for _, req := range []string{`{"n":1}`, `{"n":2}`} {
		start := time.Now()
		if got, want := ask(t, w, r, req), `{"got":`+req+`}`; got != want {
			t.Fatalf("answer %q, want %q", got, want)
		}
		if d := time.Since(start); d > 3*time.Second {
			t.Fatalf("answer after %s: the background child held it", d)
		}
	}
}

// With -core the deadline ends a hook that never exits (SIGTERM to its
// group) and the answer is {} for a hook with no output.
func TestCoreDeadline(t *testing.T) {
	w, r := floorProc(t, "-core", "-timeout", "200ms", "--", "/bin/sh", "-c", "exec sleep 30")
	start := time.Now()
	if got := ask(t, w, r, `{}`); got != "{}" {
		t.Fatalf("answer %q, want {}", got)
	}
	if d := time.Since(start); d < 200*time.Millisecond || d > 3*time.Second {
		t.Fatalf("answer after %s, want about the 200 ms deadline", d)
	}
}
