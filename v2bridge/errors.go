package v2bridge

import (
	"errors"
	"fmt"
	"strings"

	"github.com/hookside/hookside/v2bridge/store"
)

// Sentinels the RPC layer maps to wire codes (docs/protocol.md §5).
var (
	// ErrNotFound: no definition, binding or run with that id (-32013).
	ErrNotFound = store.ErrNotFound
	// ErrConflict: a binding for that hook and scope (or a definition with
	// that id) already exists (-32016); the error is a *ConflictError.
	ErrConflict = store.ErrConflict
	// ErrRunState: retry/cancel refused in the run's state (§11.2).
	ErrRunState = errors.New("run state does not allow this operation")
	// ErrHashMismatch: UpdateBindingChecked refused a hash that is not the
	// definition's current execution hash (-32016); the error is a
	// *HashMismatchError.
	ErrHashMismatch = store.ErrHashMismatch
)

// HashMismatchError is UpdateBindingChecked's refusal: it names the
// binding, its definition, the current hash and the given one.
type HashMismatchError = store.HashMismatchError

// ConflictError is a create that would duplicate a stored definition id or
// a binding's (hook, scope kind, scope id) (§7.1). Its message names the
// record and the way out, never the database's text. errors.Is(err,
// ErrConflict) holds.
type ConflictError struct {
	Kind    string // "definition" or "binding"
	ID      string // the definition id, or the binding's hook id
	Scope   string // binding: the scope kind
	ScopeID string // binding: the scope id ("" for application)
}

func (e *ConflictError) Error() string {
	switch {
	case e.Kind == "definition":
		return fmt.Sprintf("a definition with id %s already exists; use update or upsert", e.ID)
	case e.Kind == "binding" && e.ScopeID == "":
		return fmt.Sprintf("a binding of hook %s at scope %s already exists; use update or upsert", e.ID, e.Scope)
	case e.Kind == "binding":
		return fmt.Sprintf("a binding of hook %s at scope %s %s already exists; use update or upsert", e.ID, e.Scope, e.ScopeID)
	}
	return "the record already exists"
}

// Is makes errors.Is(err, ErrConflict) hold.
func (e *ConflictError) Is(target error) bool { return target == ErrConflict }

// DatabaseError is a failure of the V2 database: Error is a plain reason
// (locked, corrupt, closed, too new, or a generic failure), Detail the
// driver's text, for the debug log only. errors.Is(err, ErrUnavailable)
// holds, and so does errors.Is for the store sentinel it wraps.
type DatabaseError struct {
	Reason string
	Err    error
}

func (e *DatabaseError) Error() string { return "database error: " + e.Reason }

// Detail is the underlying error's full text (driver messages included).
func (e *DatabaseError) Detail() string {
	if e.Err == nil {
		return ""
	}
	return e.Err.Error()
}

// Unwrap returns ErrUnavailable and the underlying error.
func (e *DatabaseError) Unwrap() []error { return []error{ErrUnavailable, e.Err} }

// dbError wraps a store failure as a *DatabaseError with its plain reason.
func dbError(err error) error {
	var de *DatabaseError
	if errors.As(err, &de) {
		return err
	}
	reason := "the database operation failed"
	switch {
	case errors.Is(err, store.ErrBusy):
		reason = "the database is locked by another process (busy timeout exceeded)"
	case errors.Is(err, store.ErrFull):
		reason = "the disk holding the database is full (free some space; the request can be retried)"
	case errors.Is(err, store.ErrCorrupt):
		reason = "the database file is corrupt or not an SQLite database"
	case errors.Is(err, store.ErrClosed):
		reason = "the database is closed"
	case errors.Is(err, store.ErrSchemaTooNew):
		reason = "the database was written by a newer hookside"
	}
	return &DatabaseError{Reason: reason, Err: err}
}

// storeErr turns store errors into the bridge's: not found stays
// recognisable (errors.Is), a constraint violation becomes a *ConflictError
// (without the driver's text), invalid arguments become *InvalidError on
// field, database trouble a *DatabaseError (ErrUnavailable).
func storeErr(err error, field string) error {
	var rse *store.RunStateError
	var ce *ConflictError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &rse):
		return fmt.Errorf("%w: %w", ErrRunState, err)
	case errors.Is(err, store.ErrNotFound), errors.As(err, &ce), errors.Is(err, store.ErrHashMismatch):
		return err
	case errors.Is(err, store.ErrConflict):
		return &ConflictError{}
	case errors.Is(err, store.ErrInvalid):
		return &InvalidError{Field: field, Reason: PlainText(err)}
	}
	return dbError(err)
}

// storeWords are the store sentinels' texts ("store: not found", …) in the
// user's words; "" drops the text, because the error code already says it
// (-32013 not found, -32602 invalid params).
var storeWords = []struct {
	err   error
	words string
}{
	{store.ErrNotFound, ""},
	{store.ErrInvalid, ""},
	{store.ErrConflict, "the record already exists"},
	{store.ErrHashMismatch, "not the current execution hash"},
	{store.ErrLeaseLost, "the run was taken over by another worker (its lease expired)"},
	{store.ErrBusy, "the database is locked by another process (busy timeout exceeded)"},
	{store.ErrFull, "the disk holding the database is full (free some space; the request can be retried)"},
	{store.ErrCorrupt, "the database file is corrupt or not an SQLite database"},
	{store.ErrSchemaTooNew, "the database was written by a newer hookside"},
	{store.ErrClosed, "the database is closed"},
}

// PlainText is err's text in the user's words, without the store's own
// wording, which names an internal layer ("store: …"): ErrNotFound's and
// ErrInvalid's texts are dropped ("run x: store: not found" is "run x",
// "store: invalid argument: bad cursor (…)" is "bad cursor (…)"; alone
// they are "not found" and "invalid argument"), the other store sentinels
// say what failed ("store: closed" is "the database is closed"), and any
// other "store: " at the start of a part of the message goes. The typed
// error (errors.Is, errors.As) and so the wire code are err's; only its
// text is rewritten.
func PlainText(err error) string {
	msg := err.Error()
	for _, sw := range storeWords {
		w := sw.err.Error()
		if sw.words != "" {
			msg = strings.ReplaceAll(msg, w, sw.words)
			continue
		}
		if msg == w {
			return strings.TrimPrefix(w, "store: ")
		}
		msg = strings.ReplaceAll(msg, ": "+w, "")
		msg = strings.ReplaceAll(msg, w+": ", "")
	}
	msg = strings.TrimPrefix(msg, "store: ")
	return strings.ReplaceAll(msg, ": store: ", ": ")
}
