package truststore

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/google/shlex"

	"github.com/hookside/hookside/runner/config"
)

// Script pinning is hookside's addition beyond the spec. The spec's digest
// covers the declaration only (§"按什么摘要信任"; NOTICE: trust "不等于对……其他
// 项目脚本的统一审核"), so `node ./scripts/guard.mjs` stays trusted when
// guard.mjs is rewritten. A record may therefore pin the workspace files the
// declaration names; a changed pin demotes the record (Evaluate, step 6).

// ScriptPaths returns the workspace files h's command line names, as
// workspace-relative paths with "/" separators, sorted and unique.
//
// Words come from the process hook's command and args, or from the command
// hook's string split with shlex (falling back to whitespace on unbalanced
// quotes); shell operators stuck to a word (`;`, `&`, `|`, parentheses) are
// trimmed and redirections (`<f`, `>f`, `2>f`) are skipped. ${ZCODE_PROJECT_DIR}
// and ${CLAUDE_PROJECT_DIR} (braced or not) stand for workspaceRoot. A relative
// word is resolved against workspaceRoot (hooks run in the session cwd, which
// discovery places inside the root; resolving against the root is the
// conservative choice). A word counts when it names an existing regular file
// that is inside workspaceRoot both lexically and after symlink resolution;
// everything else (`node`, `-e`, `&&`, paths outside the root, directories) is
// ignored. Over-inclusion only makes trust stricter.
func ScriptPaths(h config.Hook, workspaceRoot string) []string {
	if workspaceRoot == "" {
		return nil
	}
	root, err := filepath.Abs(workspaceRoot)
	if err != nil {
		return nil
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil
	}
	defer r.Close()
	var words []string
	if h.Type == config.TypeProcess {
		words = append([]string{h.Command}, h.Args...)
	} else if words, err = shlex.Split(h.Command); err != nil {
		words = strings.Fields(h.Command)
	}
	seen := map[string]bool{}
	var out []string
	for _, w := range words {
		rel, ok := workspaceRel(w, root)
		if !ok || seen[rel] {
			continue
		}
		seen[rel] = true
		// os.Root follows symlinks only while they stay inside the root.
		if fi, err := r.Stat(filepath.FromSlash(rel)); err == nil && fi.Mode().IsRegular() {
			out = append(out, rel)
		}
	}
	sort.Strings(out)
	return out
}

// workspaceRel turns one command-line word into a clean root-relative path
// with "/" separators, or reports false.
func workspaceRel(w, root string) (string, bool) {
	w = strings.TrimLeft(w, "(")
	w = strings.TrimRight(w, ";&|)")
	if w == "" || w[0] == '<' || w[0] == '>' || w[0] == '-' || w[0] == '~' ||
		strings.HasPrefix(w, "2>") || strings.HasPrefix(w, "1>") {
		return "", false
	}
	for _, v := range []string{"${ZCODE_PROJECT_DIR}", "$ZCODE_PROJECT_DIR", "${CLAUDE_PROJECT_DIR}", "$CLAUDE_PROJECT_DIR"} {
		if strings.HasPrefix(w, v) {
			w = root + w[len(v):]
			break
		}
	}
	if strings.ContainsAny(w, "$`*?\x00") {
		return "", false
	}
	p := filepath.FromSlash(w)
	if filepath.IsAbs(p) {
		r, err := filepath.Rel(root, filepath.Clean(p))
		if err != nil {
			return "", false
		}
		p = r
	}
	p = filepath.Clean(p)
	if p == "." || p == ".." || strings.HasPrefix(p, ".."+string(filepath.Separator)) || filepath.IsAbs(p) {
		return "", false
	}
	return filepath.ToSlash(p), true
}

// cleanRel reports whether rel is a clean, relative, "/"-separated path
// that stays below the root (as ScriptPaths produces).
func cleanRel(rel string) bool {
	return rel != "" && rel != "." && !strings.HasPrefix(rel, "/") && path.Clean(rel) == rel &&
		rel != ".." && !strings.HasPrefix(rel, "../")
}

// PinScripts hashes every file ScriptPaths finds for h and returns the
// ScriptPins of a record (nil when h names no workspace file).
func PinScripts(h config.Hook, workspaceRoot string) (map[string]string, error) {
	paths := ScriptPaths(h, workspaceRoot)
	if len(paths) == 0 {
		return nil, nil
	}
	r, err := os.OpenRoot(workspaceRoot)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	pins := make(map[string]string, len(paths))
	for _, rel := range paths {
		sum, _, err := pinnedHash(r, rel, nil)
		if err != nil {
			return nil, fmt.Errorf("pin %s: %w", rel, err)
		}
		pins[rel] = sum
	}
	return pins, nil
}

// NewRecord returns the record that trusts h in workspaceID, with its
// snapshot and, when workspaceRoot is not empty, its script pins.
// GrantedAt is left zero; Store.Grant stamps it.
func NewRecord(workspaceID string, h config.Hook, workspaceRoot string) (Record, error) {
	r := Record{WorkspaceID: workspaceID, Digest: Digest(h), Snapshot: SnapshotOf(h)}
	if workspaceRoot != "" {
		pins, err := PinScripts(h, workspaceRoot)
		if err != nil {
			return Record{}, err
		}
		r.ScriptPins = pins
	}
	return r, nil
}

// pinsHold reports whether every pinned file still hashes as pinned.
func pinsHold(pins map[string]string, workspaceRoot string, c *HashCache) bool {
	if workspaceRoot == "" {
		return false
	}
	var r *os.Root
	for rel, want := range pins {
		// Fast path: one stat. If the path still leads to the very file
		// (device, inode, size, mtime, ctime) verified inside the root
		// before, its content and sum are unchanged.
		key := pathKey{workspaceRoot, rel}
		if fi, err := os.Stat(filepath.Join(workspaceRoot, filepath.FromSlash(rel))); err == nil && cleanRel(rel) {
			if sum, ok := c.lookupPath(key, idOf(fi)); ok {
				if sum != want {
					return false
				}
				continue
			}
		}
		if r == nil {
			var err error
			if r, err = c.root(workspaceRoot); err != nil {
				return false
			}
		}
		got, id, err := pinnedHash(r, rel, c)
		if err != nil || got != want {
			return false
		}
		c.storePath(key, id, got)
	}
	return true
}

// pinnedHash hashes the regular file rel inside r (never outside it, even
// through symlinks: os.Root refuses to escape).
func pinnedHash(r *os.Root, rel string, c *HashCache) (string, fileID, error) {
	if !cleanRel(rel) {
		return "", fileID{}, errors.New("pin path is not a clean workspace-relative path")
	}
	f, err := r.Open(filepath.FromSlash(rel))
	if err != nil {
		return "", fileID{}, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", fileID{}, err
	}
	if !fi.Mode().IsRegular() {
		return "", fileID{}, fmt.Errorf("%s is not a regular file", rel)
	}
	id := idOf(fi)
	if sum, ok := c.lookup(id); ok {
		return sum, id, nil
	}
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fileID{}, err
	}
	sum := hex.EncodeToString(h.Sum(nil))
	c.store(id, sum)
	return sum, id, nil
}

// HashCache remembers SHA-256 sums of pinned files keyed by stat identity
// (device, inode, size, mtime, ctime, all to the nanosecond), and keeps the
// workspace root open for up to a second, so an admission check on an
// unchanged file costs open+fstat+close and no read. Safe for concurrent
// use; a nil *HashCache works and caches nothing.
type HashCache struct {
	mu    sync.Mutex
	sums  map[fileID]string
	paths map[pathKey]pathEntry // verified (root, rel) -> file identity and sum
	roots map[string]rootEntry
}

type pathKey struct{ root, rel string }

type pathEntry struct {
	id  fileID
	sum string
}

type rootEntry struct {
	r  *os.Root
	at time.Time
}

type fileID struct {
	dev, ino     uint64
	size         int64
	mtime, ctime int64
}

func idOf(fi os.FileInfo) fileID {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileID{size: fi.Size(), mtime: fi.ModTime().UnixNano()}
	}
	return idOfStat(st)
}

func idOfStat(st *syscall.Stat_t) fileID {
	return fileID{dev: uint64(st.Dev), ino: st.Ino, size: st.Size,
		mtime: st.Mtim.Nano(), ctime: st.Ctim.Nano()}
}

// NewHashCache returns an empty cache.
func NewHashCache() *HashCache {
	return &HashCache{sums: map[fileID]string{}, paths: map[pathKey]pathEntry{}, roots: map[string]rootEntry{}}
}

// rootTTL bounds how long an opened workspace root is reused (a root that
// is moved or replaced is seen within this time). Replaced *os.Root values
// are closed by their finalizer, never while another check may use them.
const rootTTL = time.Second

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

func (c *HashCache) lookupPath(k pathKey, id fileID) (string, bool) {
	if c == nil || id.ino == 0 {
		return "", false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.paths[k]
	return e.sum, ok && e.id == id
}

func (c *HashCache) storePath(k pathKey, id fileID, sum string) {
	if c == nil || id.ino == 0 {
		return
	}
	c.mu.Lock()
	if len(c.paths) >= maxCachedSums {
		clear(c.paths)
	}
	c.paths[k] = pathEntry{id, sum}
	c.mu.Unlock()
}

func (c *HashCache) lookup(id fileID) (string, bool) {
	if c == nil || id.ino == 0 {
		return "", false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	sum, ok := c.sums[id]
	return sum, ok
}

func (c *HashCache) store(id fileID, sum string) {
	if c == nil || id.ino == 0 {
		return
	}
	c.mu.Lock()
	if len(c.sums) >= maxCachedSums {
		clear(c.sums) // edits leave old identities behind; start over
	}
	c.sums[id] = sum
	c.mu.Unlock()
}
