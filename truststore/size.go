package truststore

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
)

// MaxFileBytes bounds the trust file: Load reads a larger one as corrupt
// (it is no file hookside wrote), and Grant refuses to write one
// (*TooLargeError), so that no grant leaves a file every later read
// refuses. 16 MiB holds thousands of records: every declaration of many
// workspaces with their snapshots and pins.
const MaxFileBytes = 16 << 20

// ErrTooLarge means a write was refused because the trust file would be
// larger than MaxFileBytes. A *TooLargeError wraps it.
var ErrTooLarge = errors.New("the workspace hook trust file would be too large")

// TooLargeError is Grant's refusal of a write that would make the trust
// file larger than MaxFileBytes; nothing was written and the file is as it
// was.
type TooLargeError struct {
	// Path is the trust file.
	Path string
	// Size is the file's size in bytes had it been written.
	Size int
	// Records is how many records it would have held.
	Records int
	// Workspace is the workspace whose records take the most of it, with
	// their size in bytes and number, to say which grants to revoke.
	Workspace             string
	WorkspaceBytes, Count int
}

// Error says which file, the size it would have, the limit (in MiB and
// bytes), that nothing was written and what to do, e.g. "cannot write the
// workspace hook trust file F: it would be 16.01 MiB (16787654 bytes, 17
// records), over the 16 MiB (16777216 bytes) a trust file may hold (a
// larger one reads as corrupt, and every workspace hook would be
// blocked); nothing was written: revoke the grants you no longer use
// (hookside hooks trust revoke --workspace PATH|IDENTITY --digest D, or
// --all for every grant of a workspace; the most are local:/w's: 12.50
// MiB in 14 records), then grant again".
func (e *TooLargeError) Error() string {
	most := ""
	if e.Workspace != "" {
		most = fmt.Sprintf("; the most are %s's: %s in %d records", e.Workspace, mib(e.WorkspaceBytes), e.Count)
	}
	return fmt.Sprintf("cannot write the workspace hook trust file %s: it would be %s (%d bytes, %d records), over the %d MiB (%d bytes) a trust file may hold "+
		"(a larger one reads as corrupt, and every workspace hook would be blocked); nothing was written: revoke the grants you no longer use "+
		"(hookside hooks trust revoke --workspace PATH|IDENTITY --digest D, or --all for every grant of a workspace%s), then grant again",
		e.Path, mib(e.Size), e.Size, e.Records, MaxFileBytes>>20, MaxFileBytes, most)
}

// Unwrap returns ErrTooLarge.
func (e *TooLargeError) Unwrap() error { return ErrTooLarge }

// tooLarge is the *TooLargeError of writing recs as size bytes to path.
func tooLarge(path string, size int, recs []Record) *TooLargeError {
	e := &TooLargeError{Path: path, Size: size, Records: len(recs)}
	bytes, count := map[string]int{}, map[string]int{}
	for i := range recs {
		b, _ := json.MarshalIndent(&recs[i], "    ", "  ") // as the file holds it
		w := recs[i].WorkspaceID
		bytes[w] += len(b)
		count[w]++
		if bytes[w] > e.WorkspaceBytes || bytes[w] == e.WorkspaceBytes && w < e.Workspace {
			e.Workspace, e.WorkspaceBytes, e.Count = w, bytes[w], count[w]
		}
	}
	return e
}

// tooLargeWhy is the corrupt reason of a trust file of size bytes, larger
// than MaxFileBytes.
func tooLargeWhy(size int64) string {
	return fmt.Sprintf("%d bytes, larger than the %d MiB (%d bytes) a trust file may hold: not a file hookside wrote", size, MaxFileBytes>>20, MaxFileBytes)
}

// mib words n bytes in MiB with two decimals, rounded up, so that a size
// over a limit never reads as the limit ("16.01 MiB").
func mib(n int) string {
	return fmt.Sprintf("%.2f MiB", math.Ceil(float64(n)*100/(1<<20))/100)
}
