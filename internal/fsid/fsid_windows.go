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

// Lstat returns the identity of path itself (a symlink or junction is not
// followed): it opens the path for attributes only, sharing read, write and
// delete (so it never blocks a rename over the file), and reads volume
// serial number, file index, size and times as OfFile does. It costs one
// open; an open that fails reads as an error.
func Lstat(path string) (ID, error) {
	f, err := openShared(path, windows.FILE_READ_ATTRIBUTES)
	if err != nil {
		return ID{}, err
	}
	defer f.Close()
	return OfFile(f)
}

// Stat returns the identity of the file path leads to (reparse points
// followed), as OfFile reads it: one open, sharing read, write and delete.
func Stat(path string) (ID, error) {
	p, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return ID{}, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	h, err := windows.CreateFile(p, windows.FILE_READ_ATTRIBUTES,
		windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE|windows.FILE_SHARE_DELETE, nil,
		windows.OPEN_EXISTING, windows.FILE_FLAG_BACKUP_SEMANTICS, 0)
	if err != nil {
		return ID{}, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	f := os.NewFile(uintptr(h), path)
	defer f.Close()
	return OfFile(f)
}

// openShared opens path itself (FILE_FLAG_OPEN_REPARSE_POINT: a reparse
// point is opened, not followed; FILE_FLAG_BACKUP_SEMANTICS: directories
// too) with the given access, sharing read, write and delete.
func openShared(path string, access uint32) (*os.File, error) {
	p, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	h, err := windows.CreateFile(p, access,
		windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE|windows.FILE_SHARE_DELETE, nil,
		windows.OPEN_EXISTING, windows.FILE_FLAG_OPEN_REPARSE_POINT|windows.FILE_FLAG_BACKUP_SEMANTICS, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	return os.NewFile(uintptr(h), path), nil
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
// a path; readRegular refuses anything but a regular file.)
func Open(path string) (*os.File, error) { return os.Open(path) }

// OpenInRoot is Open for rel inside r (never outside it).
func OpenInRoot(r *os.Root, rel string) (*os.File, error) { return r.Open(rel) }

// OpenNoFollow opens path read-only without following a reparse point
// (symlink, junction or other): a reparse point at path is refused with an
// error wrapping ErrSymlink, checked on the open handle (no window between
// check and open). The handle shares read, write and delete, so a reader
// never blocks an atomic replace of the file (MoveFileEx).
func OpenNoFollow(path string) (*os.File, error) {
	// Lstat first as well: under Wine a link os.Symlink made opens as
	// "not found" instead of as a reparse point.
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&(fs.ModeSymlink|fs.ModeIrregular) != 0 {
		return nil, &fs.PathError{Op: "open", Path: path, Err: ErrSymlink}
	}
	f, err := openShared(path, windows.GENERIC_READ)
	if err != nil {
		return nil, err
	}
	var bi windows.ByHandleFileInformation
	if err := windows.GetFileInformationByHandle(windows.Handle(f.Fd()), &bi); err != nil {
		f.Close()
		return nil, &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	if bi.FileAttributes&windows.FILE_ATTRIBUTE_REPARSE_POINT != 0 {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: path, Err: ErrSymlink}
	}
	return f, nil
}

// Absent reports whether nothing is reachable at path.
func Absent(path string) bool {
	_, err := os.Stat(path)
	return IsNotExist(err)
}

// IsNotExist reports whether err says the path names nothing: also a
// name Windows does not allow (ERROR_INVALID_NAME: `*`, `?`, `<` … in a
// component, such as a glob's literal word `hooks/*.sh`), since no file
// can be called that.
func IsNotExist(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, windows.ERROR_PATH_NOT_FOUND) ||
		errors.Is(err, windows.ERROR_DIRECTORY) || errors.Is(err, windows.ERROR_INVALID_NAME)
}

// Owner: Windows files have an owner SID, not a user id; ok is false.
func Owner(fs.FileInfo) (uid int, ok bool) { return 0, false }

// CurrentUser is -1 on Windows (no user ids).
func CurrentUser() int { return -1 }
