//go:build unix

package fsid

import (
	"errors"
	"path/filepath"
	"syscall"
	"testing"
)

func TestReadFileNeverBlocksOnFIFO(t *testing.T) {
	p := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if _, err := ReadFile(p, 10); !errors.Is(err, ErrNotRegular) {
		t.Fatalf("FIFO: %v; want ErrNotRegular", err)
	}
}
