//go:build unix

package config

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A FIFO where a workspace config file is expected must not block
// discovery (a repository can ship one; opening it for reading would wait
// for a writer forever).
func TestDiscoverDoesNotBlockOnFIFO(t *testing.T) {
	ws := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(ws, "zcode.json"), 0o644); err != nil {
		t.Skip("mkfifo:", err)
	}
	done := make(chan *Workspace, 1)
	go func() { done <- DiscoverWorkspace(WorkspaceOptions{Cwd: ws}) }()
	select {
	case w := <-done:
		if len(w.Hooks) != 0 || len(w.Diagnostics) != 1 {
			t.Fatalf("declarations %d, diagnostics %+v", len(w.Hooks), w.Diagnostics)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("DiscoverWorkspace blocked on a FIFO")
	}
}
