// Package fsid is the one file identity hookside uses to notice that a
// configuration, trust or script file changed, and the one bounded reader
// of small regular files. Operating-system calls live in the per-OS files:
// on Unix the identity is device, inode, size, mtime and ctime from the
// stat result; on Windows it is the volume serial number and file index
// (GetFileInformationByHandle) with size, last-write and change time.
package fsid

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ID identifies one state of a file cheaply. Two IDs of the same path are
// equal while the file has not been replaced, written or chmod'ed (a write
// within one timestamp tick at the same size is the documented blind spot;
// nanosecond times make it rare). Times are Unix nanoseconds.
type ID struct {
	Dev, Ino     uint64
	Size         int64
	Mtime, Ctime int64
	Mode         fs.FileMode
}

// Unique reports whether id names the file itself (device and inode, or
// volume and file index), not only its size and times.
func (id ID) Unique() bool { return id.Ino != 0 }

// Of returns the identity in a stat result. On Windows a FileInfo carries
// no file index: use OfFile for a Unique identity there.
func Of(fi fs.FileInfo) ID {
	id := ID{Size: fi.Size(), Mtime: fi.ModTime().UnixNano(), Mode: fi.Mode()}
	sysID(fi, &id)
	return id
}

// Errors of the readers; each is wrapped with the path or detail.
var (
	// ErrNotRegular: the file is a directory, FIFO, device or socket.
	ErrNotRegular = errors.New("not a regular file")
	// ErrTooLarge: the file is larger than the caller's bound.
	ErrTooLarge = errors.New("file too large")
	// ErrSymlink: OpenNoFollow met a symbolic link (or, on Windows, a
	// reparse point).
	ErrSymlink = errors.New("is a symlink")
)

// NotRegularError is ErrNotRegular (errors.Is matches it) with the path
// and the type of what is there. Its text names both, e.g.
// "/home/u/.hookside/config.json is a directory, not a file".
type NotRegularError struct {
	Path string
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	if e.Mode.IsDir() {
		return e.Path + " is a directory, not a file"
	}
	return e.Path + " is " + Kind(e.Mode) + ", not a regular file"
}

// Unwrap returns ErrNotRegular.
func (e *NotRegularError) Unwrap() error { return ErrNotRegular }

// Kind words the type in m with its article: "a directory", "a symlink",
// "a named pipe", "a socket", "a device", "a special file", or "a regular
// file".
func Kind(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "a regular file"
	case m&fs.ModeSymlink != 0:
		return "a symlink"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "a special file"
}

// readRegular reads all of f (named path in errors), which must be a
// regular file of at most max bytes. It returns the content and the stat
// result of the open file. Errors: *NotRegularError, ErrTooLarge (wrapped,
// with the size) or an I/O error.
func readRegular(f *os.File, path string, max int64) ([]byte, fs.FileInfo, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fi, &NotRegularError{Path: path, Mode: fi.Mode()}
	}
	if fi.Size() > max {
		return nil, fi, fmt.Errorf("%w: %d bytes, larger than the %d-byte limit", ErrTooLarge, fi.Size(), max)
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, fi, err
	}
	if int64(len(data)) > max {
		return nil, fi, fmt.Errorf("%w: larger than the %d-byte limit", ErrTooLarge, max)
	}
	return data, fi, nil
}

// ReadFile opens path with Open and reads it with readRegular.
func ReadFile(path string, max int64) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, _, err := readRegular(f, path, max)
	return data, err
}

// ReadInRoot opens rel inside r with OpenInRoot and reads it with
// readRegular.
func ReadInRoot(r *os.Root, rel string, max int64) ([]byte, error) {
	f, err := OpenInRoot(r, rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, _, err := readRegular(f, filepath.Join(r.Name(), rel), max)
	return data, err
}

// IsEscape reports whether err is os.Root refusing a path that leaves the
// root (a symlink or ".." pointing outside it). os does not export the
// error value, so its text is matched, here only.
func IsEscape(err error) bool {
	return err != nil && strings.Contains(err.Error(), "path escapes from parent")
}

// Within returns path relative to root (filepath.Rel) and whether path is
// root or lies under it, lexically: symlinks are not resolved, and a path
// on another volume is not within.
func Within(root, path string) (string, bool) {
	rel, err := filepath.Rel(root, path)
	return rel, err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
