package v2bridge

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/hookside/hookside/v2bridge/store"
)

// TestPlainTextSaysWhatFailedWithoutTheStore: no store wording reaches the
// text, whatever wraps what; the typed error is untouched.
func TestPlainTextSaysWhatFailedWithoutTheStore(t *testing.T) {
	for _, c := range []struct {
		err  error
		want string
	}{
		{store.ErrNotFound, "not found"},
		{store.ErrInvalid, "invalid argument"},
		{fmt.Errorf("run x: %w", store.ErrNotFound), "run x"},
		{fmt.Errorf("legacy binding: definition d: %w", store.ErrNotFound), "legacy binding: definition d"},
		{store.ErrBadCursor, "bad cursor (pass a nextCursor from a previous page)"},
		{store.ErrMailboxFull, fmt.Sprintf("the session mailbox is full (%d unread messages)", store.MaxUnread)},
		{fmt.Errorf("%w: status %q", store.ErrInvalid, "bogus"), `status "bogus"`},
		{store.ErrClosed, "the database is closed"},
		{fmt.Errorf("renew: %w", store.ErrLeaseLost), "renew: the run was taken over by another worker (its lease expired)"},
		{store.ErrConflict, "the record already exists"},
		{store.ErrHashMismatch, "not the current execution hash"},
		{fmt.Errorf("%w: %w", store.ErrBusy, store.ErrNotFound), "the database is locked by another process (busy timeout exceeded)"},
		{fmt.Errorf("%w: %w", store.ErrFull, errors.New("database or disk is full (13)")), "the disk holding the database is full (free some space; the request can be retried): database or disk is full (13)"},
		{errors.New("store: something new"), "something new"},
		{errors.New("definition d: store: something new"), "definition d: something new"},
		{errors.New("a plain message"), "a plain message"},
	} {
		got := PlainText(c.err)
		if got != c.want || strings.Contains(got, "store:") {
			t.Errorf("PlainText(%q) = %q, want %q", c.err, got, c.want)
		}
	}
}
