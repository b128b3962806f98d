package truststore

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/hookside/hookside/internal/fsid"
	"github.com/hookside/hookside/internal/jsonpos"
)

// CorruptError is what Load, Grant and Revoke return for a corrupt trust
// file (§"信任存在哪、怎样审查": renamed to .corrupt-<timestamp> for
// inspection): which file, why it is corrupt, and what was done with it.
// It wraps ErrCorrupt.
type CorruptError struct {
	// Path is the trust file.
	Path string
	// Why says what is wrong, e.g. "mode 0644: permission bits beyond
	// 0600", "truncated JSON: unexpected end of JSON input", "unsupported
	// version 2, want 1".
	Why string
	// MovedTo is the <file>.corrupt-<timestamp> it was renamed to; "" when
	// it was left in place (see Kept).
	MovedTo string
	// Kept says why it was left in place: "read-only" (a status read), or
	// why the rename failed. "" when it was moved (or had been replaced by
	// another process meanwhile).
	Kept string
	// Write is set when a write (Grant, Revoke) found the file corrupt and
	// was refused.
	Write bool
}

// Error names the file, the reason and where the file is now.
func (e *CorruptError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%v: %s: %s", ErrCorrupt, e.Path, e.Why)
	switch {
	case e.MovedTo != "":
		fmt.Fprintf(&b, "; moved aside to %s", e.MovedTo)
	case e.Kept == readOnlyKept:
		b.WriteString("; left in place (a read-only status: the next session, grant or revoke moves it aside)")
	case e.Kept != "":
		fmt.Fprintf(&b, "; not moved aside: %s", e.Kept)
	default:
		b.WriteString("; replaced by another process meanwhile")
	}
	if e.Write {
		b.WriteString("; write refused")
	}
	return b.String()
}

// Unwrap returns ErrCorrupt.
func (e *CorruptError) Unwrap() error { return ErrCorrupt }

// movedError is the *CorruptError of a quarantine attempt: moved to dst,
// or kept in place with qerr as the reason when the rename failed.
func (s *Store) movedError(why, dst string, qerr error, write bool) *CorruptError {
	e := &CorruptError{Path: s.path, Why: why, MovedTo: dst, Write: write}
	if qerr != nil {
		e.Kept = qerr.Error()
	}
	return e
}

// readOnlyKept is CorruptError.Kept for a read-only Load.
const readOnlyKept = "read-only"

// movedAside logs the one warning every quarantine gets: the user's grants
// are now in dst, and every workspace hook is untrusted until granted again.
func (s *Store) movedAside(why, dst string) {
	s.log.Warn("workspace hook trust file is corrupt: moved aside; every workspace hook is untrusted until granted again",
		"file", s.path, "reason", why, "movedTo", dst)
}

// notRegular words a trust file that is not a regular file.
func notRegular(m fs.FileMode) string { return fsid.Kind(m) + ", not a regular file" }

// jsonWhy words a decoding error: truncated, not JSON, or the wrong shape.
func jsonWhy(err error) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn) && jsonpos.Truncated(syn):
		return "truncated JSON: " + err.Error()
	case errors.As(err, &syn):
		return "not valid JSON: " + err.Error()
	case errors.As(err, &typ) && typ.Field == "":
		return "wrong shape: the top level is a JSON " + typ.Value + ", want an object"
	case errors.As(err, &typ):
		return "wrong shape: " + typ.Field + " is a JSON " + typ.Value
	}
	return "wrong shape: " + err.Error()
}
