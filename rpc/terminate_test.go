//go:build unix

package rpc

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A host that closes stdin and then terminates the server (SIGTERM in
// cmd/hookside) does not wait out the shutdown grace: termination cancels
// the in-flight hook at once, also during the drain EOF started.
func TestTerminationDuringEOFDrainCancelsAtOnce(t *testing.T) {
	home := t.TempDir()
	cfg := `{"hooks":{"enabled":true,"events":{"PreToolUse":[{"hooks":[{"type":"command","command":"sleep 600","timeoutMs":600000}]}]}}}`
	if err := os.WriteFile(filepath.Join(home, "config.json"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan int, 1)
	go func() {
		done <- Serve(ctx, inR, outW, Options{Home: home, ShutdownGrace: 10 * time.Minute, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		outW.Close()
	}()
	lines := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	send := func(s string) {
		if _, err := io.WriteString(inW, s+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	wait := func(want string) {
		t.Helper()
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					t.Fatalf("output ended before %s", want)
				}
				if strings.Contains(l, want) {
					return
				}
			case <-time.After(60 * time.Second):
				t.Fatalf("no %s", want)
			}
		}
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"1","clientInfo":{"name":"t"}}}`)
	wait(`"id":1`)
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 2, "method": "session/open", "params": map[string]any{"sessionId": "s1", "cwd": home}})
	send(string(b))
	wait(`"id":2`)
	send(`{"jsonrpc":"2.0","id":3,"method":"hooks/run","params":{"sessionId":"s1","event":"PreToolUse","turnId":"t","input":{"toolName":"Bash"}}}`)
	wait(`hook/started`)
	inW.Close() // EOF: shutdown with a 10 min grace
	time.Sleep(50 * time.Millisecond)
	cancel() // terminated while draining
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("Serve waited out the shutdown grace after it was terminated")
	}
}
