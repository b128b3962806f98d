package runner

import (
	"sync"
	"time"

	"github.com/hookside/hookside/internal/fsid"
)

// racyWindow is how long after a settings file's modification time its
// switches are re-read at every run: a filesystem with coarse timestamps
// (FAT: 2 s, HFS+: 1 s) could hide a second edit made in the same tick.
const racyWindow = 2 * time.Second

// switchCache is a claude session's last reading of its four settings
// files (managed, user, project, local: claudeSettingsFiles) and the
// switches decoded from them. Each run stats the four files; only when one
// of them was created, removed, replaced or written since (another
// fsid.ID) are they read and decoded again. A settings file with a
// permissions list is several KiB of JSON, decoded on every hooks/run
// otherwise. The switches stay live: an edit counts from the next run, as
// without the cache.
type switchCache struct {
	mu    sync.Mutex
	ok    bool // sw is the reading of files as ids describe them
	paths [4]string
	ids   [4]fsid.ID // zero: the file did not exist
	sw    claudeSwitches
}

// get returns the switches of paths: the cached ones when no file changed
// since they were read, else read's.
func (c *switchCache) get(paths [4]string, read func() claudeSwitches) claudeSwitches {
	now := time.Now()
	var ids [4]fsid.ID
	stable := true
	for i, p := range paths {
		if p == "" {
			continue
		}
		id, err := fsid.Stat(p)
		switch {
		case err == nil:
			ids[i] = id
			stable = stable && now.Sub(time.Unix(0, id.Mtime)) >= racyWindow
		case !fsid.IsNotExist(err):
			stable = false // unreadable now: no reading to keep
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ok && stable && c.paths == paths && c.ids == ids {
		return c.sw
	}
	// Stat before reading: an edit made while reading changes the file's
	// identity, so the next run reads again.
	c.sw = read()
	c.paths, c.ids, c.ok = paths, ids, stable
	return c.sw
}
