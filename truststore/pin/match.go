package pin

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/hookside/hookside/internal/fsid"
	"github.com/hookside/hookside/internal/hook"
)

// Matches reports whether the pins resolved for h now at the Site at,
// relative to workspaceRoot, equal granted exactly: MatchIndex with the
// one pin set granted.
func Matches(granted Pins, h hook.Hook, workspaceRoot string, at Site, c *HashCache) bool {
	return MatchIndex([]Pins{granted}, h, workspaceRoot, at, c) == 0
}

// MatchIndex returns the index of the pin set in granted that equals,
// exactly, the pins resolved for h now at the Site at relative to
// workspaceRoot (PinScriptsAt succeeds and is Equal to it: same paths,
// kinds, hashes, link targets, trees and glob matches — and that set still
// holds, Hold), or, when no set is equal, of the first set that covers
// them (covers: everything they resolve to that exists is that set's,
// unchanged; the rest names nothing), or -1 when none does. A present pin
// the Site resolves that a set lacks or holds with another hash (a script
// in another session directory, a file appearing in a PATH entry inside
// the root) is a mismatch with that set; so is every set when the pins
// cannot be resolved (an error). An empty workspaceRoot
// resolves nothing: the first empty set matches (no I/O).
//
// With a cache, the resolution is remembered per declaration and Site and
// reused while it is provably the same: every pin it resolved still holds
// (Hold, by stat identity), every candidate it found naming nothing
// still names nothing, and every path before a ".." is still the same
// directory or symlink. Any other case resolves again. So a check costs one
// Hold of the remembered resolution and one comparison per set, however
// many sets are granted. Safe for concurrent use.
func MatchIndex(granted []Pins, h hook.Hook, workspaceRoot string, at Site, c *HashCache) int {
	if workspaceRoot == "" {
		for i := range granted {
			if granted[i].Empty() {
				return i
			}
		}
		return -1
	}
	key := resolveKeyOf(h, workspaceRoot, at)
	if m, ok := c.lookupResolved(key); ok && Hold(m.pins, workspaceRoot, c) && stillNothing(workspaceRoot, m.skipped) && linksSame(m.links) {
		return indexEqual(granted, m.pins)
	}
	now, skipped, links, err := resolveAt(h, workspaceRoot, at)
	if err != nil {
		return -1
	}
	c.storeResolved(key, resolved{pins: now, skipped: skipped, links: links})
	i := indexEqual(granted, now)
	if i >= 0 && !granted[i].Empty() && !Hold(granted[i], workspaceRoot, c) {
		return -1 // changed between resolving and checking: judge at the next check
	}
	return i
}

// indexEqual returns the index of the first set in sets Equal to p, or,
// when none is, of the first set that covers p (covers), or -1.
func indexEqual(sets []Pins, p Pins) int {
	for i := range sets {
		if sets[i].Equal(p) {
			return i
		}
	}
	for i := range sets {
		if covers(sets[i], p) {
			return i
		}
	}
	return -1
}

// covers reports whether everything p resolves to that exists is in set,
// unchanged: every present pin of p (a file, a tree, a link and its
// target) is set's pin of that path with the same hash, and every glob of
// p that matches something is set's with the same matches. p's absent
// pins and empty globs need nothing: they name no file, so nothing runs
// from them — and the next check sees a file appearing there (it is then
// present and not in set). So a session in another directory (a Claude
// Code run whose cwd is a subdirectory, where `git diff` pins an absent
// sub/diff and `bash .claude/hooks/g.sh` the absent sub/.claude/hooks/g.sh
// besides the reviewed .claude/hooks/g.sh) runs what was reviewed, and is
// admitted, while any file there that no review showed is a change.
func covers(set, p Pins) bool {
	for rel, sum := range p.Scripts {
		if sum == AbsentPin {
			continue
		}
		if set.Scripts[rel] != sum || set.Dirs[rel] != p.Dirs[rel] || set.Links[rel] != p.Links[rel] {
			return false
		}
	}
	for pat, sum := range p.Globs {
		if sum != NoMatches && set.Globs[pat] != sum {
			return false
		}
	}
	return true
}

// stillNothing reports whether every root-relative path in rels still
// names nothing inside the root (what pinOne skips: the same os.Root
// lookup, so a symlink leading out of the root is not "nothing"). The root
// is opened for this check only: a declaration without pins keeps no
// handle on the workspace (on Windows one keeps it from being deleted).
func stillNothing(workspaceRoot string, rels []string) bool {
	if len(rels) == 0 {
		return true
	}
	r, err := os.OpenRoot(workspaceRoot)
	if err != nil {
		return false
	}
	defer r.Close()
	for _, rel := range rels {
		if _, err := r.Stat(filepath.FromSlash(rel)); !fsid.IsNotExist(err) {
			return false
		}
	}
	return true
}

// resolved is a remembered resolution: its pins, the candidates that
// named nothing, and the paths before a "..".
type resolved struct {
	pins    Pins
	skipped []string
	links   map[string]string // paths before a "..": reused only while the same (linksSame)
}

// resolveKeyOf is everything a resolution depends on besides the files:
// the fields of h the scanner reads, the root and the Site.
func resolveKeyOf(h hook.Hook, workspaceRoot string, at Site) string {
	var b strings.Builder
	for _, s := range []string{string(h.Type), h.Command, string(h.Shell.Kind()), h.Shell.Program(),
		h.Source.PluginRoot, workspaceRoot, at.Dir, at.ProjectDir} {
		b.WriteString(s)
		b.WriteByte(0)
	}
	b.WriteByte(1)
	for _, a := range h.Args {
		b.WriteString(a)
		b.WriteByte(0)
	}
	b.WriteByte(1)
	for _, p := range at.Path {
		b.WriteString(p)
		b.WriteByte(0)
	}
	return b.String()
}

func (c *HashCache) lookupResolved(key string) (resolved, bool) {
	if c == nil {
		return resolved{}, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	m, ok := c.resolved[key]
	return m, ok
}

func (c *HashCache) storeResolved(key string, m resolved) {
	if c == nil {
		return
	}
	c.mu.Lock()
	if len(c.resolved) >= maxCachedSums {
		clear(c.resolved)
	}
	c.resolved[key] = m
	c.mu.Unlock()
}
