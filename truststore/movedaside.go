package truststore

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/hookside/hookside/internal/fsid"
)

// MovedAside is a copy of the trust file that a read found corrupt and
// renamed to <file>.corrupt-<timestamp> (§"信任存在哪、怎样审查"): its
// grants are used again only once it is repaired and moved back over the
// trust file.
type MovedAside struct {
	// Path is the moved-aside file.
	Path string `json:"path"`
	// MovedAt is when it was moved aside (UTC, from its name).
	MovedAt time.Time `json:"movedAt"`
	// Bytes is its size (of a symlink: of its target's name).
	Bytes int64 `json:"bytes"`
	// Kind is what it is: "regular file", or the symlink, directory,
	// named pipe, … that stood at the trust file's path (quarantine moves
	// whatever is there).
	Kind string `json:"kind"`
}

// movedAsideLayout is the timestamp of a moved-aside file's name
// (Store.moveAside).
const movedAsideLayout = "20060102T150405.000000000Z"

// MovedAsideFiles lists the moved-aside copies of the trust file at path,
// newest first: the entries of its directory named
// <base>.corrupt-<timestamp>, whatever their kind. Empty (not nil) when there are none or the
// directory cannot be read.
func MovedAsideFiles(path string) []MovedAside {
	out := []MovedAside{}
	dir, base := filepath.Split(path)
	ents, err := os.ReadDir(filepath.Clean(dir))
	if err != nil {
		return out
	}
	prefix := base + ".corrupt-"
	for _, e := range ents {
		stamp, ok := strings.CutPrefix(e.Name(), prefix)
		if !ok {
			continue
		}
		at, err := time.Parse(movedAsideLayout, stamp)
		if err != nil {
			continue
		}
		fi, err := e.Info()
		if err != nil {
			continue
		}
		out = append(out, MovedAside{Path: filepath.Join(dir, e.Name()), MovedAt: at, Bytes: fi.Size(),
			Kind: strings.TrimPrefix(fsid.Kind(fi.Mode()), "a ")})
	}
	slices.SortFunc(out, func(a, b MovedAside) int { return b.MovedAt.Compare(a.MovedAt) })
	return out
}
