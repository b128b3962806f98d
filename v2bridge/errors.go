package v2bridge

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/hookside/hookside/v2bridge/store"
)

// Sentinels the RPC layer maps to wire codes (docs/protocol.md §5).
var (
	// ErrNotFound: no definition, binding or run with that id (-32013).
	ErrNotFound = store.ErrNotFound
	// ErrConflict: a binding for that hook and scope (or a definition with
	// that id) already exists.
	ErrConflict = store.ErrConflict
	// ErrRunState: retry/cancel refused in the run's state (§11.2).
	ErrRunState = errors.New("run state does not allow this operation")
)

// storeErr turns store errors into the bridge's: not found and conflicts stay
// recognisable (errors.Is), invalid arguments become *InvalidError on field,
// database trouble wraps ErrUnavailable.
func storeErr(err error, field string) error {
	var rse *store.RunStateError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &rse):
		return fmt.Errorf("%w: %w", ErrRunState, err)
	case errors.Is(err, store.ErrNotFound), errors.Is(err, store.ErrConflict):
		return err
	case errors.Is(err, store.ErrInvalid):
		return &InvalidError{Field: field, Reason: err.Error()}
	case errors.Is(err, store.ErrBusy), errors.Is(err, store.ErrCorrupt), errors.Is(err, store.ErrClosed),
		errors.Is(err, store.ErrSchemaTooNew):
		return fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	return fmt.Errorf("%w: %w", ErrUnavailable, err)
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// newUUID returns a random (version 4) UUID: the source id of last resort
// (§3.2).
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}
