package pin

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/hookside/hookside/internal/fsid"
)

// Hold reports whether every pin still holds: each pinned file hashes
// as pinned (through the same link target for ScriptLinks), each pinned
// directory has the same tree (within the bounds), each absent pin
// still names nothing, each glob still has the same matches.
func Hold(p Pins, workspaceRoot string, c *HashCache) bool {
	if workspaceRoot == "" {
		return false
	}
	var r *os.Root
	defer func() {
		if c == nil && r != nil {
			r.Close() // uncached: this call opened it (a cached root is shared)
		}
	}()
	root := func() (*os.Root, error) { // opened on first need
		var err error
		if r == nil {
			r, err = c.root(workspaceRoot)
		}
		return r, err
	}
	for rel, want := range p.Scripts {
		if !cleanRel(rel) {
			return false
		}
		full := filepath.Join(workspaceRoot, filepath.FromSlash(rel))
		if p.Dirs[rel] {
			dr, err := root()
			if err != nil || !dirHolds(dr, workspaceRoot, rel, p.Links[rel], want, c) {
				return false
			}
			continue
		}
		if want == AbsentPin {
			// One stat: the pin holds only while nothing is reachable there.
			if !fsid.Absent(full) {
				return false
			}
			continue
		}
		// Fast path: one stat. If the path still leads to the very file
		// (device, inode, size, mtime, ctime) verified before, its content
		// and sum are unchanged.
		key := pathKey{workspaceRoot, rel}
		if fi, err := os.Stat(full); err == nil {
			if sum, ok := c.lookupPath(key, fsid.Of(fi)); ok {
				if sum != want {
					return false
				}
				continue
			}
		}
		var got string
		var id fsid.ID
		var err error
		if target, ok := p.Links[rel]; ok {
			got, id, err = linkedHash(full, target, c)
		} else {
			var fr *os.Root
			if fr, err = root(); err == nil {
				got, id, err = pinnedHash(fr, rel, c)
			}
		}
		if err != nil || got != want {
			return false
		}
		c.storePath(key, id, got)
	}
	for pat, want := range p.Globs {
		if !cleanRel(pat) {
			return false
		}
		if ms, err := globMatches(workspaceRoot, pat); err != nil || hashList(ms) != want {
			return false
		}
	}
	return true
}

// pinnedHash hashes the regular file rel inside r (never outside it, even
// through symlinks: os.Root refuses to escape).
func pinnedHash(r *os.Root, rel string, c *HashCache) (string, fsid.ID, error) {
	if !cleanRel(rel) {
		return "", fsid.ID{}, errors.New("pin path is not a clean workspace-relative path")
	}
	f, err := fsid.OpenInRoot(r, filepath.FromSlash(rel))
	if err != nil {
		return "", fsid.ID{}, err
	}
	defer f.Close()
	sum, id, _, err := hashOpen(f, c, false)
	return sum, id, err
}

// linkedHash hashes the file full leads to, provided its symlinks still
// resolve to target.
func linkedHash(full, target string, c *HashCache) (string, fsid.ID, error) {
	t, err := filepath.EvalSymlinks(full)
	if err != nil {
		return "", fsid.ID{}, err
	}
	if t != target {
		return "", fsid.ID{}, fmt.Errorf("%s now leads to %s, not %s", full, t, target)
	}
	f, err := fsid.Open(t)
	if err != nil {
		return "", fsid.ID{}, err
	}
	defer f.Close()
	sum, id, _, err := hashOpen(f, c, false)
	return sum, id, err
}

// hashOpen hashes an open regular file (using c by identity), returning its
// content too when keep is set: all of it when it is at most maxScanBytes,
// else its first maxScanBytes+1 bytes (so the caller sees it is larger).
func hashOpen(f *os.File, c *HashCache, keep bool) (string, fsid.ID, []byte, error) {
	fi, err := f.Stat()
	if err != nil {
		return "", fsid.ID{}, nil, err
	}
	if !fi.Mode().IsRegular() {
		return "", fsid.ID{}, nil, fmt.Errorf("%s is not a regular file", f.Name())
	}
	id := fsid.Of(fi)
	if !keep {
		if sum, ok := c.lookup(id); ok {
			return sum, id, nil, nil
		}
	}
	h := sha256.New()
	buf := &headBuf{max: maxScanBytes + 1}
	w := io.Writer(h)
	if keep {
		w = io.MultiWriter(h, buf)
	}
	if _, err := io.Copy(w, f); err != nil {
		return "", fsid.ID{}, nil, err
	}
	sum := hex.EncodeToString(h.Sum(nil))
	c.store(id, sum)
	var content []byte
	if keep {
		content = buf.b.Bytes()
		if content == nil {
			content = []byte{}
		}
	}
	return sum, id, content, nil
}

// headBuf keeps the first max bytes written to it.
type headBuf struct {
	b   bytes.Buffer
	max int
}

func (h *headBuf) Write(p []byte) (int, error) {
	if room := h.max - h.b.Len(); room > 0 {
		h.b.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

// HashCache remembers SHA-256 sums of pinned files keyed by stat identity
// (device, inode, size, mtime, ctime, all to the nanosecond), and keeps the
// workspace root open for up to a second, so an admission check on an
// unchanged file costs open+fstat+close and no read. Safe for concurrent
// use; a nil *HashCache works and caches nothing.
type HashCache struct {
	mu    sync.Mutex
	sums  map[fsid.ID]string
	paths map[pathKey]pathEntry // verified (root, rel) -> file identity and sum
	roots map[string]rootEntry
	// resolved: the last resolution per declaration and Site (Matches).
	resolved map[string]resolved
}

type pathKey struct{ root, rel string }

type pathEntry struct {
	id  fsid.ID
	sum string
}

type rootEntry struct {
	r  *os.Root
	at time.Time
}

// NewHashCache returns an empty cache.
func NewHashCache() *HashCache {
	return &HashCache{sums: map[fsid.ID]string{}, paths: map[pathKey]pathEntry{}, roots: map[string]rootEntry{},
		resolved: map[string]resolved{}}
}

// rootTTL bounds how long an opened workspace root is reused (a root that
// is moved or replaced is seen within this time). Replaced *os.Root values
// are closed by their finalizer, never while another check may use them.
const rootTTL = time.Second

// Close closes the workspace roots the cache holds open (on Windows an
// open root keeps its directory from being deleted). The cache stays
// usable: later checks open roots again. Call it when no check runs (a
// check using a closed root fails, which reads as "changed").
func (c *HashCache) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, e := range c.roots {
		e.r.Close()
		delete(c.roots, k)
	}
}

// maxCachedSums bounds the hash cache.
const maxCachedSums = 4096

func (c *HashCache) root(path string) (*os.Root, error) {
	if c == nil {
		return os.OpenRoot(path)
	}
	c.mu.Lock()
	e, ok := c.roots[path]
	c.mu.Unlock()
	if ok && time.Since(e.at) < rootTTL {
		return e.r, nil
	}
	r, err := os.OpenRoot(path)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.roots[path] = rootEntry{r, time.Now()}
	c.mu.Unlock()
	return r, nil
}

func (c *HashCache) lookupPath(k pathKey, id fsid.ID) (string, bool) {
	if c == nil || !id.Unique() {
		return "", false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.paths[k]
	return e.sum, ok && e.id == id
}

func (c *HashCache) storePath(k pathKey, id fsid.ID, sum string) {
	if c == nil || !id.Unique() {
		return
	}
	c.mu.Lock()
	if len(c.paths) >= maxCachedSums {
		clear(c.paths)
	}
	c.paths[k] = pathEntry{id, sum}
	c.mu.Unlock()
}

func (c *HashCache) lookup(id fsid.ID) (string, bool) {
	if c == nil || !id.Unique() {
		return "", false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	sum, ok := c.sums[id]
	return sum, ok
}

func (c *HashCache) store(id fsid.ID, sum string) {
	if c == nil || !id.Unique() {
		return
	}
	c.mu.Lock()
	if len(c.sums) >= maxCachedSums {
		clear(c.sums) // edits leave old identities behind; start over
	}
	c.sums[id] = sum
	c.mu.Unlock()
}
