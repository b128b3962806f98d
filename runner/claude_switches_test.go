package runner

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestSwitchCacheReadsOnlyChangedFiles checks that the settings files are
// read again exactly when one of them was created, edited, replaced or
// removed, and at every run while one was modified too recently to trust
// its timestamp.
func TestSwitchCacheReadsOnlyChangedFiles(t *testing.T) {
	dir := t.TempDir()
	user := filepath.Join(dir, "settings.json")
	local := filepath.Join(dir, "settings.local.json")
	paths := [4]string{"", user, filepath.Join(dir, "absent.json"), local}
	old := time.Now().Add(-time.Hour)
	write := func(p, body string, mod time.Time) {
		t.Helper()
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, mod, mod); err != nil {
			t.Fatal(err)
		}
	}
	write(user, `{"disableAllHooks":false}`, old)

	var c switchCache
	reads := 0
	get := func() claudeSwitches {
		return c.get(paths, func() claudeSwitches {
			reads++
			return readClaudeSwitches(nil, paths[0], paths[1], paths[2], paths[3])
		})
	}
	expect := func(step string, wantReads int, wantDisabled bool) {
		t.Helper()
		sw := get()
		if reads != wantReads || sw.DisableAll != wantDisabled {
			t.Fatalf("%s: reads %d (want %d), DisableAll %v (want %v)", step, reads, wantReads, sw.DisableAll, wantDisabled)
		}
	}
	expect("first run", 1, false)
	expect("nothing changed", 1, false)
	expect("nothing changed again", 1, false)

	// A file that appears.
	write(local, `{"disableAllHooks":true}`, old.Add(time.Minute))
	expect("local settings created", 2, true)
	expect("unchanged since", 2, true)

	// An edit of the same size with another modification time.
	write(local, `{"disableAllHooks":fals}`+" ", old.Add(2*time.Minute))
	write(local, `{"disableAllHooks":false}`, old.Add(3*time.Minute))
	expect("local settings edited", 3, false)

	// The same size and modification time, but another file (an editor's
	// save by rename).
	tmp := local + ".tmp"
	write(tmp, `{"disableAllHooks":true }`, old.Add(3*time.Minute))
	if err := os.Rename(tmp, local); err != nil {
		t.Fatal(err)
	}
	expect("local settings replaced", 4, true)

	// Removed.
	if err := os.Remove(local); err != nil {
		t.Fatal(err)
	}
	expect("local settings removed", 5, false)
	expect("still removed", 5, false)

	// Modified just now: read at every run until its timestamp is old
	// enough to tell a later edit apart.
	write(user, `{"disableAllHooks":true}`, time.Now())
	expect("user settings edited now", 6, true)
	expect("within the racy window", 7, true)
}
