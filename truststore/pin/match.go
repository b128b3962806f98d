package pin

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/hookside/hookside/internal/fsid"
	"github.com/hookside/hookside/internal/hook"
)

// Matches reports whether the pins resolved for h now at the Site at,
// relative to workspaceRoot, equal granted exactly: PinScriptsAt(h,
// workspaceRoot, at) succeeds and is Equal to granted (same paths, kinds,
// hashes, link targets, trees and glob matches), and granted still holds
// (Hold). A pin the Site resolves that granted lacks (a script in another
// session directory, a file appearing in a PATH entry inside the root), or
// one granted has that the Site does not resolve, is a mismatch. An empty
// workspaceRoot resolves nothing: only an empty granted matches (no I/O).
//
// With a cache, the resolution is remembered per declaration and Site and
// reused while it is provably the same: granted holds (Hold, by stat
// identity), the remembered resolution equals granted, and every candidate
// it found naming nothing still names nothing. Any other case resolves
// again. Safe for concurrent use.
func Matches(granted Pins, h hook.Hook, workspaceRoot string, at Site, c *HashCache) bool {
	if workspaceRoot == "" {
		return granted.Empty()
	}
	if !granted.Empty() && !Hold(granted, workspaceRoot, c) {
		return false
	}
	key := resolveKeyOf(h, workspaceRoot, at)
	if m, ok := c.lookupResolved(key); ok && m.pins.Equal(granted) && stillNothing(workspaceRoot, m.skipped) {
		return true
	}
	now, skipped, err := resolveAt(h, workspaceRoot, at)
	if err != nil {
		return false
	}
	c.storeResolved(key, resolved{pins: now, skipped: skipped})
	return now.Equal(granted)
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

// resolved is a remembered resolution: its pins and the candidates that
// named nothing.
type resolved struct {
	pins    Pins
	skipped []string
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
