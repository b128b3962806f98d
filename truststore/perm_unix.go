//go:build !windows

package truststore

import (
	"fmt"
	"io/fs"
	"os"

	"github.com/natefinch/atomic"

	"github.com/hookside/hookside/internal/fsid"
)

// checkFile is the ownership check of the open trust file on Unix: owned by
// our uid, no permission bit beyond 0600. A failure is a *corruptError.
func checkFile(_ *os.File, fi fs.FileInfo) error {
	if perm := fi.Mode().Perm(); perm&^0o600 != 0 {
		return &corruptError{fmt.Sprintf("mode %04o: permission bits beyond 0600", perm)}
	}
	if uid, ok := fsid.Owner(fi); ok && uid != fsid.CurrentUser() {
		return &corruptError{fmt.Sprintf("owned by uid %d, not the current user (uid %d)", uid, fsid.CurrentUser())}
	}
	return nil
}

// checkDirOwner is the read-side check of the security directory on Unix:
// owned by our uid and not writable by group or others. A failure is a
// *corruptError.
func checkDirOwner(dir string, fi fs.FileInfo) error {
	if uid, ok := fsid.Owner(fi); ok && uid != fsid.CurrentUser() {
		return &corruptError{fmt.Sprintf("security directory %s is owned by uid %d, not %d", dir, uid, fsid.CurrentUser())}
	}
	if perm := fi.Mode().Perm(); perm&0o022 != 0 {
		return &corruptError{fmt.Sprintf("security directory %s has mode %04o (writable by others), want 0700", dir, perm)}
	}
	return nil
}

// protectDir enforces 0700 on the security directory we own (MkdirAll does
// not change an existing directory, and the umask may narrow a new one). A
// directory owned by another user is refused with ErrCorrupt.
func protectDir(dir string, fi fs.FileInfo) error {
	if uid, ok := fsid.Owner(fi); ok && uid != fsid.CurrentUser() {
		return fmt.Errorf("%w: security directory %s is owned by uid %d, not %d; write refused", ErrCorrupt, dir, uid, fsid.CurrentUser())
	}
	if fi.Mode().Perm() != 0o700 {
		if err := os.Chmod(dir, 0o700); err != nil {
			return fmt.Errorf("cannot restrict %s to the current user (chmod 700): %w; nothing was written", dir, err)
		}
	}
	return nil
}

// protectFile gives a new temp file the trust file's protection: 0600
// (os.CreateTemp's default, enforced against odd umasks).
func protectFile(f *os.File) error { return f.Chmod(0o600) }

// replaceFile renames src over dst (rename(2) is atomic on Unix).
func replaceFile(src, dst string) error { return atomic.ReplaceFile(src, dst) }

// syncDir fsyncs the directory so a rename in it is durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// holderPath is where the lock holder records itself: inside the lock file
// (flock(2) is advisory, so others can read it).
func holderPath(lockPath string) string { return lockPath }

// retry runs fn once: Unix has no transient sharing errors.
func retry(fn func() error) error { return fn() }
