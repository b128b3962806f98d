package truststore

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
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
	// Bytes is its size.
	Bytes int64 `json:"bytes"`
}

// movedAsideLayout is the timestamp of a moved-aside file's name
// (Store.moveAside).
const movedAsideLayout = "20060102T150405.000000000Z"

// MovedAsideFiles lists the moved-aside copies of the trust file at path,
// newest first: the regular files of its directory named
// <base>.corrupt-<timestamp>. Empty (not nil) when there are none or the
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
		if !ok || !e.Type().IsRegular() {
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
		out = append(out, MovedAside{Path: filepath.Join(dir, e.Name()), MovedAt: at, Bytes: fi.Size()})
	}
	slices.SortFunc(out, func(a, b MovedAside) int { return b.MovedAt.Compare(a.MovedAt) })
	return out
}
