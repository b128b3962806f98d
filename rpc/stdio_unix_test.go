//go:build unix

package rpc

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"os"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// TestServeOverBlockingPipe: stdin as hosts hand it over is a blocking
// pipe; Serve switches a duplicate to the runtime poller and still
// answers, and the descriptor it read from is non-blocking.
func TestServeOverBlockingPipe(t *testing.T) {
	var fds [2]int
	if err := syscall.Pipe(fds[:]); err != nil {
		t.Fatal(err)
	}
	inR, inW := os.NewFile(uintptr(fds[0]), "stdin"), os.NewFile(uintptr(fds[1]), "host")
	defer inR.Close()
	in, done := pollable(inR)
	if in == io.Reader(inR) {
		t.Fatal("pollable returned the blocking pipe itself")
	}
	done()
	if fl, err := unix.FcntlInt(uintptr(fds[0]), unix.F_GETFL, 0); err != nil || fl&unix.O_NONBLOCK == 0 {
		t.Fatalf("F_GETFL = %#x, %v: want O_NONBLOCK", fl, err)
	}

	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	codes := make(chan int, 1)
	go func() {
		codes <- Serve(context.Background(), inR, outW, Options{Home: t.TempDir(), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		outW.Close()
	}()
	if _, err := io.WriteString(inW, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"1","clientInfo":{"name":"t"}}}`+"\n"); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(outR).ReadString('\n')
	if err != nil || !strings.Contains(line, `"protocolVersion":"1"`) {
		t.Fatalf("initialize reply %q, %v", line, err)
	}
	inW.Close()
	if code := <-codes; code != 0 {
		t.Fatalf("Serve returned %d after EOF, want 0", code)
	}
}
