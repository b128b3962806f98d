//go:build windows

package fsid

import (
	"errors"
	"io/fs"
	"os"
	"unsafe"

	"golang.org/x/sys/windows"
)

// sysID: a Windows FileInfo has no file index; Of gives size and times only.
func sysID(fs.FileInfo, *ID) {}

// Lstat returns the identity of path itself (a symlink is not followed):
// size, times and mode only (see OfFile).
func Lstat(path string) (ID, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return ID{}, err
	}
	return Of(fi), nil
}

// fileBasicInfo is FILE_BASIC_INFO (x/sys/windows does not define it).
type fileBasicInfo struct {
	CreationTime, LastAccessTime, LastWriteTime, ChangeTime int64
	FileAttributes                                          uint32
	_                                                       uint32
}

// OfFile returns the identity of an open file: volume serial number and
// file index (GetFileInformationByHandle), size, last-write time and the
// change time of FILE_BASIC_INFO.
func OfFile(f *os.File) (ID, error) {
	fi, err := f.Stat()
	if err != nil {
		return ID{}, err
	}
	id := Of(fi)
	h := windows.Handle(f.Fd())
	var bi windows.ByHandleFileInformation
	if err := windows.GetFileInformationByHandle(h, &bi); err != nil {
		return id, nil // size and times still detect most changes
	}
	id.Dev = uint64(bi.VolumeSerialNumber)
	id.Ino = uint64(bi.FileIndexHigh)<<32 | uint64(bi.FileIndexLow)
	var basic fileBasicInfo
	if windows.GetFileInformationByHandleEx(h, windows.FileBasicInfo, (*byte)(unsafe.Pointer(&basic)), uint32(unsafe.Sizeof(basic))) == nil {
		id.Ctime = filetimeNano(basic.ChangeTime)
	}
	return id, nil
}

// filetimeNano converts 100-ns intervals since 1601 to Unix nanoseconds.
func filetimeNano(ft int64) int64 {
	return (ft - 116444736000000000) * 100
}

// Open opens path read-only. (Windows has no FIFOs that block an open of
// a path; ReadRegular refuses anything but a regular file.)
func Open(path string) (*os.File, error) { return os.Open(path) }

// OpenInRoot is Open for rel inside r (never outside it).
func OpenInRoot(r *os.Root, rel string) (*os.File, error) { return r.Open(rel) }

// OpenNoFollow is Open that refuses a symlink or other reparse point at
// path (checked with Lstat just before the open): the error then wraps
// ErrSymlink.
func OpenNoFollow(path string) (*os.File, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if fi.Mode()&(fs.ModeSymlink|fs.ModeIrregular) != 0 {
		return nil, &fs.PathError{Op: "open", Path: path, Err: ErrSymlink}
	}
	return os.Open(path)
}

// Absent reports whether nothing is reachable at path.
func Absent(path string) bool {
	_, err := os.Stat(path)
	return IsNotExist(err)
}

// IsNotExist reports whether err says the path names nothing.
func IsNotExist(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, windows.ERROR_PATH_NOT_FOUND) ||
		errors.Is(err, windows.ERROR_DIRECTORY)
}

// Owner: Windows files have an owner SID, not a user id; ok is false.
func Owner(fs.FileInfo) (uid int, ok bool) { return 0, false }

// CurrentUser is -1 on Windows (no user ids).
func CurrentUser() int { return -1 }
