//go:build unix

package rpc

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestHostClosedStdoutShutsDown: the host closes its reading end of the
// server's stdout while a hook runs and keeps stdin open. The next frame
// the server writes fails (EPIPE) and the server shuts down at once, not
// after the grace (docs/protocol.md, Cancellation, shutdown, exit): one
// warning on stderr, the hook's process group killed, the session's
// temporary directory removed, and Serve returns 1.
func TestHostClosedStdoutShutsDown(t *testing.T) {
	h := startGoneHost(t)
	input := filepath.Join(h.dir, "input.json")
	script := h.script("sleepy.sh", "cat > "+input+"\necho $$ > "+h.fifo("started")+"\nexec sleep 30\n")
	writeHookConfig(t, h.home, script)
	h.handshake()

	h.send(runReq(3, "Bash"))
	pid := h.pid("started")
	var in struct {
		TranscriptPath string `json:"transcript_path"`
	}
	if b, err := os.ReadFile(input); err != nil || json.Unmarshal(b, &in) != nil || in.TranscriptPath == "" {
		t.Fatalf("the hook's input has no transcript_path: %s, %v", b, err)
	}
	tmpDir := filepath.Dir(in.TranscriptPath)
	if _, err := os.Stat(tmpDir); err != nil {
		t.Fatalf("the session's temporary directory: %v", err)
	}

	h.outR.Close() // the host closes stdout; stdin stays open
	h.send(`{"jsonrpc":"2.0","id":4,"method":"hooks/list","params":{"sessionId":"s1"}}` + "\n")
	if code := h.wait(); code != 1 {
		t.Fatalf("Serve returned %d, want 1", code)
	}
	groupGone(t, pid)
	if _, err := os.Stat(tmpDir); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the session's temporary directory %s is left: %v", tmpDir, err)
	}
	if n := strings.Count(h.logs.String(), `level=WARN msg="the host closed stdout: shutting down" err=`); n != 1 {
		t.Fatalf("want one warning that the host closed stdout, got %d:\n%s", n, h.logs.String())
	}
}

// TestHostClosedStdoutCutsTheEOFGrace: the host closes stdin (EOF: the
// shutdown grace begins), then stdout; when the reply of one request in
// flight cannot be written, the other is cancelled (its hook killed) at
// once instead of after the grace.
func TestHostClosedStdoutCutsTheEOFGrace(t *testing.T) {
	h := startGoneHost(t)
	sleepy := h.script("sleepy.sh", "cat > /dev/null\necho $$ > "+h.fifo("sleepy")+"\nexec sleep 30\n")
	gate := h.fifo("gate")
	gated := h.script("gated.sh", "cat > /dev/null\necho $$ > "+h.fifo("gated")+"\nread x < "+gate+"\n")
	cfg := fmt.Sprintf(`{"hooks":{"enabled":true,"events":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"process","command":%q}]},{"matcher":"Read","hooks":[{"type":"process","command":%q}]}]}}}`, sleepy, gated)
	writeFile(t, filepath.Join(h.home, "config.json"), cfg, 0o600)
	h.handshake()

	h.send(runReq(3, "Bash"))
	h.send(runReq(4, "Read"))
	pid := h.pid("sleepy")
	h.pid("gated")
	h.inW.Close() // EOF: a grace of 10 minutes begins
	h.outR.Close()
	go func() {
		if f, err := os.OpenFile(gate, os.O_WRONLY, 0); err == nil {
			f.WriteString("go\n") // the gated hook ends; its frames cannot be written
			f.Close()
		}
	}()
	// 0 when the server took the EOF first (the usual order), 1 when it
	// saw the failed write before the EOF.
	if code := h.wait(); code != 0 && code != 1 {
		t.Fatalf("Serve returned %d, want 0 or 1", code)
	}
	groupGone(t, pid)
}

// goneHost is a host over real OS pipes whose server has a shutdown grace
// of 10 minutes: a test that closes the server's stdout fails if the
// server waits it out.
type goneHost struct {
	t             *testing.T
	home, ws, dir string
	inW, outR     *os.File
	out           *bufio.Reader
	logs          *syncBuffer
	done          chan int
}

func startGoneHost(t *testing.T) *goneHost {
	h := &goneHost{t: t, home: t.TempDir(), ws: t.TempDir(), dir: t.TempDir(), logs: &syncBuffer{}, done: make(chan int, 1)}
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	h.inW, h.outR, h.out = inW, outR, bufio.NewReader(outR)
	t.Cleanup(func() { inW.Close(); inR.Close(); outR.Close(); outW.Close() })
	go func() {
		h.done <- Serve(context.Background(), inR, outW, Options{Home: h.home, ShutdownGrace: 10 * time.Minute,
			Logger: slog.New(slog.NewTextHandler(h.logs, nil))})
	}()
	return h
}

// script writes an executable #!/bin/sh script named name in h.dir.
func (h *goneHost) script(name, body string) string {
	p := filepath.Join(h.dir, name)
	writeFile(h.t, p, "#!/bin/sh\n"+body, 0o755)
	return p
}

// fifo makes the named pipe name in h.dir.
func (h *goneHost) fifo(name string) string {
	p := filepath.Join(h.dir, name)
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		h.t.Fatal(err)
	}
	return p
}

func (h *goneHost) send(frame string) {
	h.t.Helper()
	if _, err := io.WriteString(h.inW, frame); err != nil {
		h.t.Fatal(err)
	}
}

// handshake sends initialize and session/open and reads their replies.
func (h *goneHost) handshake() {
	h.t.Helper()
	for i, p := range []struct {
		method string
		params any
	}{
		{"initialize", map[string]any{"protocolVersion": "1", "clientInfo": map[string]any{"name": "test"}}},
		{"session/open", map[string]any{"sessionId": "s1", "cwd": h.ws}},
	} {
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": i + 1, "method": p.method, "params": p.params})
		h.send(string(b) + "\n")
		if line, err := h.out.ReadString('\n'); err != nil || !strings.Contains(line, `"result"`) {
			h.t.Fatalf("%s: %q, %v", p.method, line, err)
		}
	}
}

// pid returns the pid a hook wrote to the fifo name in h.dir (the hook
// has started), checking that it leads its own process group.
func (h *goneHost) pid(name string) int {
	h.t.Helper()
	pids := make(chan string, 1)
	go func() {
		b, _ := os.ReadFile(filepath.Join(h.dir, name)) // until the hook has written
		pids <- strings.TrimSpace(string(b))
	}()
	select {
	case s := <-pids:
		pid, err := strconv.Atoi(s)
		if err != nil {
			h.t.Fatalf("hook pid %q", s)
		}
		if pgid, err := syscall.Getpgid(pid); err != nil || pgid != pid {
			h.t.Fatalf("hook %d leads no process group of its own: pgid %d, %v", pid, pgid, err)
		}
		return pid
	case <-time.After(20 * time.Second):
		h.t.Fatalf("the hook writing %s did not start", name)
		return 0
	}
}

// wait returns Serve's status; the bound is below the hooks' 30 s sleep
// and far below the grace.
func (h *goneHost) wait() int {
	h.t.Helper()
	select {
	case code := <-h.done:
		return code
	case <-time.After(20 * time.Second):
		h.t.Fatal("Serve did not return after the host closed stdout")
		return 0
	}
}

// groupGone fails unless the process group pgid has no process left.
func groupGone(t *testing.T, pgid int) {
	t.Helper()
	if err := syscall.Kill(-pgid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Fatalf("the hook's process group %d is still there (kill: %v)", pgid, err)
	}
}
