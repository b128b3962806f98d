package truststore

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strconv"
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
	// 0600", "not valid JSON at line 3, column 3: … (a missing comma
	// before this)", "wrong shape: records[0].digest (line 5, column 17)
	// is a JSON number", "unsupported version 2, want 1". Lines and
	// columns are 1-based, columns counted in characters.
	Why string
	// MovedTo is the <file>.corrupt-<timestamp> it was renamed to; "" when
	// it was left in place (see Kept).
	MovedTo string
	// Kept says why it was left in place: "read-only" (a status read), or
	// why the rename failed. "" when it was moved (by this process, or by
	// another one meanwhile: MovedTo "" then).
	Kept string
	// Write is set when a write (Grant, Revoke) found the file corrupt and
	// was refused.
	Write bool
}

// Error names the file, the reason, where the file is now and what the
// user can do, in the user's words (no package prefix), e.g. "the
// workspace hook trust file /h/security/workspace-hook-trust-v1.json is
// corrupt (mode 0644: permission bits beyond 0600): moved aside to
// /h/security/workspace-hook-trust-v1.json.corrupt-<timestamp>; every
// workspace hook is untrusted until granted again: a grant from a new
// session or from hookside hooks trust grant starts a fresh trust file (to
// keep the earlier grants instead, chmod 600 the moved file and move it
// back)", plus "; nothing was written" when Write is set.
func (e *CorruptError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "the workspace hook trust file %s is corrupt (%s)", e.Path, e.Why)
	switch {
	case e.MovedTo != "":
		fmt.Fprintf(&b, ": moved aside to %s; every workspace hook is untrusted until granted again: a grant from a new session or from hookside hooks trust grant starts a fresh trust file (to keep the earlier grants instead, %s and move it back)", e.MovedTo, repairHint(e.Why, "the moved file"))
	case e.Kept == readOnlyKept:
		b.WriteString(": left in place (a read-only status: the next session, grant or revoke moves it aside)")
	case e.Kept != "":
		fmt.Fprintf(&b, ": it could not be moved aside (%s); %s or move it away, then grant again", e.Kept, repairHint(e.Why, "it"))
	default:
		b.WriteString(": another process moved it aside meanwhile (hookside hooks trust status lists the copy, with how to restore it)")
		if e.Write {
			b.WriteString("; nothing was written: run the command again, it writes into the trust file that replaced it")
			return b.String()
		}
	}
	if e.Write {
		b.WriteString("; nothing was written")
	}
	return b.String()
}

// repairHint says how to fix file, a trust file corrupt for why: "chmod
// 600 <file>" for a mode problem, "chown <file> to your user" for an owner
// problem, else "repair <file>".
func repairHint(why, file string) string {
	switch {
	case strings.HasPrefix(why, "mode "):
		return "chmod 600 " + file
	case strings.HasPrefix(why, "owned by "):
		return "chown " + file + " to your user"
	}
	return "repair " + file
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

// jsonWhy words an error decoding data: truncated, not JSON, or the wrong
// shape, with the line and column (1-based, as an editor shows them) it is
// about and, for a value of the wrong type, its path with array indexes
// ("records[0].digest").
func jsonWhy(data []byte, err error) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn) && jsonpos.Truncated(syn):
		return "truncated JSON: it ends inside a value, at " + lineCol(data, len(data)) + ": " + err.Error()
	case errors.As(err, &syn):
		f := jsonpos.SyntaxFault(data, syn)
		return "not valid JSON at " + lineCol(data, f.Off) + ": " + f.Text
	case errors.As(err, &typ) && typ.Field == "":
		return "wrong shape: the top level is a JSON " + typ.Value + ", want an object"
	case errors.As(err, &typ):
		path := jsonpos.TypeErrorPath(data, typ)
		if path == "" {
			path = typ.Field
		}
		return "wrong shape: " + path + " (" + lineCol(data, jsonpos.TypeErrorOffset(data, typ)) + ") is a JSON " + typ.Value
	}
	return "wrong shape: " + err.Error()
}

// lineCol is "line L, column C" of offset off in data.
func lineCol(data []byte, off int) string {
	line, col := jsonpos.LineCol(data, off)
	return "line " + strconv.Itoa(line) + ", column " + strconv.Itoa(col)
}

// atPath is " (line L, column C)" of the value at path in data, or "" when
// data has none there.
func atPath(data []byte, path string) string {
	if off, ok := jsonpos.PathOffset(data, path); ok {
		return " (" + lineCol(data, off) + ")"
	}
	return ""
}
