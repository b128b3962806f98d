package v2bridge

import (
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
