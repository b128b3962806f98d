//go:build unix

package fsid

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

func sysID(fi fs.FileInfo, id *ID) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		fromStat(st, id)
	}
}

func fromStat(st *syscall.Stat_t, id *ID) {
	id.Dev, id.Ino, id.Size = uint64(st.Dev), uint64(st.Ino), int64(st.Size) //nolint:unconvert // widths differ across platforms
	if m, c, ok := statTimes(st); ok {
		id.Mtime, id.Ctime = m, c
	}
}

// Lstat returns the identity of path itself (a symlink is not followed).
// It does not allocate: it stats into a stack Stat_t.
func Lstat(path string) (ID, error) {
	var st syscall.Stat_t
	if err := syscall.Lstat(path, &st); err != nil {
		return ID{}, &fs.PathError{Op: "lstat", Path: path, Err: err}
	}
	id := ID{Mode: modeOf(uint32(st.Mode))} //nolint:unconvert // uint16 on darwin and freebsd
	fromStat(&st, &id)
	return id, nil
}

// modeOf keeps the type and permission bits the way os does.
func modeOf(m uint32) fs.FileMode {
	mode := fs.FileMode(m & 0o777)
	switch m & syscall.S_IFMT {
	case syscall.S_IFDIR:
		mode |= fs.ModeDir
	case syscall.S_IFLNK:
		mode |= fs.ModeSymlink
	case syscall.S_IFIFO:
		mode |= fs.ModeNamedPipe
	case syscall.S_IFSOCK:
		mode |= fs.ModeSocket
	case syscall.S_IFCHR:
		mode |= fs.ModeDevice | fs.ModeCharDevice
	case syscall.S_IFBLK:
		mode |= fs.ModeDevice
	}
	if m&syscall.S_ISUID != 0 {
		mode |= fs.ModeSetuid
	}
	if m&syscall.S_ISGID != 0 {
		mode |= fs.ModeSetgid
	}
	if m&syscall.S_ISVTX != 0 {
		mode |= fs.ModeSticky
	}
	return mode
}

// OfFile returns the identity of an open file.
func OfFile(f *os.File) (ID, error) {
	fi, err := f.Stat()
	if err != nil {
		return ID{}, err
	}
	return Of(fi), nil
}

// Open opens path read-only without ever blocking on a FIFO or device
// (O_NONBLOCK); readRegular then refuses anything but a regular file.
func Open(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}

// OpenInRoot is Open for rel inside r (never outside it).
func OpenInRoot(r *os.Root, rel string) (*os.File, error) {
	return r.OpenFile(rel, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}

// OpenNoFollow is Open that refuses a symlink in the last path element
// (O_NOFOLLOW): the error then wraps ErrSymlink.
func OpenNoFollow(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil && errors.Is(err, syscall.ELOOP) {
		return nil, &fs.PathError{Op: "open", Path: path, Err: ErrSymlink}
	}
	return f, err
}

// Absent reports whether nothing is reachable at path (it, or a directory
// on the way, does not exist). It does not allocate.
func Absent(path string) bool {
	var st syscall.Stat_t
	err := syscall.Stat(path, &st)
	return err == syscall.ENOENT || err == syscall.ENOTDIR
}

// IsNotExist reports whether err says the path names nothing: the file or a
// directory on the way is missing, or a path element is not a directory.
func IsNotExist(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}

// Owner returns the owner's user id from a stat result; ok is false where
// the system has none.
func Owner(fi fs.FileInfo) (uid int, ok bool) {
	if st, isStat := fi.Sys().(*syscall.Stat_t); isStat {
		return int(st.Uid), true
	}
	return 0, false
}

// CurrentUser is the effective user id Owner results are compared with.
func CurrentUser() int { return os.Geteuid() }

// Stat returns the identity of the file path leads to.
func Stat(path string) (ID, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return ID{}, err
	}
	return Of(fi), nil
}
