package rpc

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookside/hookside/truststore"
)

// TestTrustErrorKeepsTheStoreWording: a trust file write that fails
// reaches the host with the store's own message — no "trust store:" or
// "truststore:" prefix (docs/protocol.md: messages carry no internal layer
// names) — as -32011 when the file is corrupt and -32603 otherwise (a busy
// lock, an unusable directory).
func TestTrustErrorKeepsTheStoreWording(t *testing.T) {
	root := t.TempDir()
	notDir := filepath.Join(root, "file")
	if err := os.WriteFile(notDir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	_, ioErr := truststore.Open(filepath.Join(notDir, "security"), truststore.Options{}).Revoke("/repo", []string{strings.Repeat("a", 64)})
	if ioErr == nil {
		t.Fatal("revoke under a file, not a directory, succeeded")
	}
	busy := fmt.Errorf("%w: its lock F.lock is held by pid 1 for over 5s; nothing was written: try again when that process is done", truststore.ErrLockTimeout)
	corrupt := fmt.Errorf("%w; nothing was written", truststore.ErrCorrupt)
	for _, c := range []struct {
		err  error
		code int64
	}{{busy, CodeInternalError}, {ioErr, CodeInternalError}, {corrupt, CodeTrustCorrupt}} {
		var we *Error
		if !errors.As(trustError(c.err), &we) || we.Code != c.code || we.Message != c.err.Error() ||
			strings.Contains(strings.ToLower(we.Message), "truststore") || strings.Contains(we.Message, "trust store:") {
			t.Errorf("trustError(%q) = %+v, want code %d and the message as it is", c.err, we, c.code)
		}
	}
}
