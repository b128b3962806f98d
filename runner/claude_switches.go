package runner

import (
	"errors"
	"io/fs"
	"os"
	"sync"
	"time"
)

// racyWindow is how long after a settings file's modification time its
// switches are re-read at every run: a filesystem with coarse timestamps
// (FAT: 2 s, HFS+: 1 s) could hide a second edit made in the same tick.
const racyWindow = 2 * time.Second

// switchCache is a claude session's last reading of its four settings
// files (managed, user, project, local: claudeSettingsFiles) and the
// switches decoded from them. Each run stats the four files; only when one
// of them was created, removed, replaced or written since (another file,
// size, modification time or mode) are they read and decoded again. A
// settings file with a permissions list is several KiB of JSON, decoded
// on every hooks/run otherwise. The switches stay live: an edit counts
// from the next run, as without the cache.
type switchCache struct {
	mu    sync.Mutex
	ok    bool // sw is the reading of files as infos describe them
	paths [4]string
	infos [4]os.FileInfo // nil: the file did not exist
	sw    claudeSwitches
}

// get returns the switches of paths: the cached ones when no file changed
// since they were read, else read's.
func (c *switchCache) get(paths [4]string, read func() claudeSwitches) claudeSwitches {
	now := time.Now()
	var infos [4]os.FileInfo
	stable := true
	for i, p := range paths {
		if p == "" {
			continue
		}
		fi, err := os.Stat(p)
		switch {
		case err == nil:
			infos[i] = fi
			stable = stable && now.Sub(fi.ModTime()) >= racyWindow
		case !errors.Is(err, fs.ErrNotExist):
			stable = false // unreadable now: no reading to keep
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ok && stable && c.paths == paths && sameInfos(c.infos, infos) {
		return c.sw
	}
	// Stat before reading: an edit made while reading changes the file's
	// stamp, so the next run reads again.
	c.sw = read()
	c.paths, c.infos, c.ok = paths, infos, stable
	return c.sw
}

// sameInfos reports whether two stats of the same paths show the same
// files, unchanged.
func sameInfos(a, b [4]os.FileInfo) bool {
	for i := range a {
		switch {
		case a[i] == nil || b[i] == nil:
			if a[i] != b[i] {
				return false
			}
		case !os.SameFile(a[i], b[i]) || a[i].Size() != b[i].Size() ||
			!a[i].ModTime().Equal(b[i].ModTime()) || a[i].Mode() != b[i].Mode():
			return false
		}
	}
	return true
}
