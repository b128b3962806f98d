package pin

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"sort"
)

// AbsentPin is the pin of a path that named nothing when it was pinned (64
// zeros: no file hashes to it). The pin holds while the path resolves to
// nothing; once anything exists there, the pin is changed.
const AbsentPin = "0000000000000000000000000000000000000000000000000000000000000000"

// Pins are the files a record pins besides its declaration.
type Pins struct {
	// Scripts maps root-relative paths ("/" separators) to the SHA-256 of
	// the content they lead to, or AbsentPin.
	Scripts map[string]string
	// Links maps the paths of Scripts whose symlinks lead outside the root
	// to the resolved absolute target at pin time.
	Links map[string]string
	// Globs maps root-relative glob patterns to the SHA-256 of their sorted,
	// "\n"-joined root-relative matches.
	Globs map[string]string
	// Dirs holds the paths of Scripts that are directories: their sum is
	// the treeSum of everything below them (bounded, MaxDirFiles and
	// MaxDirBytes).
	Dirs map[string]bool
	// Unfollowed are the words of the command line (and of the scripts it
	// sources) with an expansion pinning cannot follow ($VAR, $(…), ~, a
	// too large brace expansion), sorted: what they name is pinned only as
	// far as it is known (the directory before the expansion, a default
	// value). Shown to the reviewer as "unpinned"; derived from the
	// declaration, so not recorded and not compared (Equal).
	Unfollowed []string
}

// Empty reports whether p pins nothing.
func (p Pins) Empty() bool { return len(p.Scripts) == 0 && len(p.Globs) == 0 }

// Equal reports whether p and q pin the same things the same way.
func (p Pins) Equal(q Pins) bool {
	return maps.Equal(p.Scripts, q.Scripts) && maps.Equal(p.Links, q.Links) && maps.Equal(p.Globs, q.Globs) && maps.Equal(p.Dirs, q.Dirs)
}

// Paths returns the pinned paths (not the glob patterns), sorted.
func (p Pins) Paths() []string {
	out := make([]string, 0, len(p.Scripts))
	for k := range p.Scripts {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// DirList returns the paths of Dirs, sorted (nil when none).
func (p Pins) DirList() []string { return slices.Sorted(maps.Keys(p.Dirs)) }

// Validate checks the shape of pins read from the trust file or granted.
func (p Pins) Validate() error {
	for rel, sum := range p.Scripts {
		if !cleanRel(rel) || !validSum(sum) {
			return fmt.Errorf("bad script pin %q", rel)
		}
	}
	for rel, target := range p.Links {
		if sum, ok := p.Scripts[rel]; !ok || sum == AbsentPin || !filepath.IsAbs(target) || filepath.Clean(target) != target {
			return fmt.Errorf("bad script link %q", rel)
		}
	}
	for rel, ok := range p.Dirs {
		if sum, in := p.Scripts[rel]; !ok || !in || sum == AbsentPin {
			return fmt.Errorf("bad script dir %q", rel)
		}
	}
	for pat, sum := range p.Globs {
		if !cleanRel(pat) || !validSum(sum) {
			return fmt.Errorf("bad script glob %q", pat)
		}
	}
	return nil
}

// PinEntry is one pin in a flat, sortable form (bundle digest, display).
type PinEntry struct {
	Path   string `json:"path"`             // root-relative path or glob pattern
	Kind   string `json:"kind"`             // "file", "absent", "link", "dir", "dirlink" or "glob"
	SHA256 string `json:"sha256,omitempty"` // content (file, link), tree (dir, dirlink) or match list (glob) hash; "" when absent
	Target string `json:"target,omitempty"` // link target; "" otherwise
}

// Entries returns p's pins sorted by path, kind, hash, target.
func (p Pins) Entries() []PinEntry {
	out := make([]PinEntry, 0, len(p.Scripts)+len(p.Globs))
	for rel, sum := range p.Scripts {
		switch {
		case sum == AbsentPin:
			out = append(out, PinEntry{Path: rel, Kind: "absent"})
		case p.Dirs[rel] && p.Links[rel] != "":
			out = append(out, PinEntry{Path: rel, Kind: "dirlink", SHA256: sum, Target: p.Links[rel]})
		case p.Dirs[rel]:
			out = append(out, PinEntry{Path: rel, Kind: "dir", SHA256: sum})
		case p.Links[rel] != "":
			out = append(out, PinEntry{Path: rel, Kind: "link", SHA256: sum, Target: p.Links[rel]})
		default:
			out = append(out, PinEntry{Path: rel, Kind: "file", SHA256: sum})
		}
	}
	for pat, sum := range p.Globs {
		out = append(out, PinEntry{Path: pat, Kind: "glob", SHA256: sum})
	}
	SortEntries(out)
	return out
}

// SortEntries sorts es by path, kind, hash, target.
func SortEntries(es []PinEntry) {
	sort.Slice(es, func(i, j int) bool {
		a, b := es[i], es[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		if a.SHA256 != b.SHA256 {
			return a.SHA256 < b.SHA256
		}
		return a.Target < b.Target
	})
}

// NoMatches is the SHA256 of a glob pin (PinEntry kind "glob") whose
// pattern matches nothing now: the hash of the empty match list. A review
// shows such a pin as matching nothing rather than by its hash.
var NoMatches = hashList(nil)
