//go:build windows

package truststore

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"
	"unsafe"

	"github.com/natefinch/atomic"
	"golang.org/x/sys/windows"
)

// On Windows the trust file and its directory are protected by their
// security descriptor, not by mode bits: the owner must be the token user
// of this process, and the DACL may grant write access to nobody but that
// user, LocalSystem and BUILTIN\Administrators. hookside creates the
// directory, and every file it writes there, with exactly that protected
// DACL (no inherited entries), so a store it wrote always passes.

// writeRights are the access rights that let a trustee change, replace or
// re-protect a file or directory (a directory's FILE_ADD_FILE and
// FILE_ADD_SUBDIRECTORY share the bits of FILE_WRITE_DATA and
// FILE_APPEND_DATA).
const writeRights = windows.FILE_WRITE_DATA | windows.FILE_APPEND_DATA | windows.FILE_WRITE_EA |
	fileDeleteChild | windows.DELETE | windows.WRITE_DAC | windows.WRITE_OWNER |
	windows.GENERIC_WRITE | windows.GENERIC_ALL

// fileDeleteChild is FILE_DELETE_CHILD (x/sys/windows does not define it).
const fileDeleteChild = 0x40

// ACE types that grant access (plain, object, callback, callback object).
const (
	aceAllowed               = 0x0
	aceAllowedObject         = 0x5
	aceAllowedCallback       = 0x9
	aceAllowedCallbackObject = 0xB
	aceInheritOnly           = 0x8
)

// tokenUser returns the SID of this process's token user.
func tokenUser() (*windows.SID, error) {
	tu, err := windows.GetCurrentProcessToken().GetTokenUser()
	if err != nil {
		return nil, fmt.Errorf("cannot tell which Windows user runs hookside (to keep the trust file to that user): %w", err)
	}
	return tu.User.Sid, nil
}

// trustedWriter reports whether sid may hold write rights on the store.
func trustedWriter(sid, user *windows.SID) bool {
	return sid.Equals(user) || sid.IsWellKnown(windows.WinLocalSystemSid) ||
		sid.IsWellKnown(windows.WinBuiltinAdministratorsSid)
}

// checkSecurity reads the owner and DACL of h and returns why they do not
// protect the store ("" when they do).
func checkSecurity(h windows.Handle) (string, error) {
	why, _, err := securityOf(h)
	return why, err
}

// securityOf is checkSecurity that also reports whether the DACL is
// protected (inherits nothing from the parent).
func securityOf(h windows.Handle) (why string, protected bool, err error) {
	user, err := tokenUser()
	if err != nil {
		return "", false, err
	}
	sd, err := windows.GetSecurityInfo(h, windows.SE_FILE_OBJECT,
		windows.OWNER_SECURITY_INFORMATION|windows.DACL_SECURITY_INFORMATION)
	if err != nil {
		return "", false, fmt.Errorf("read security descriptor: %w", err)
	}
	ctl, _, _ := sd.Control()
	return judgeSecurity(sd, user), ctl&windows.SE_DACL_PROTECTED != 0, nil
}

// judgeSecurity is checkSecurity's rule over a security descriptor.
func judgeSecurity(sd *windows.SECURITY_DESCRIPTOR, user *windows.SID) string {
	owner, _, err := sd.Owner()
	if err != nil || owner == nil {
		return "has no owner"
	}
	if !owner.Equals(user) {
		return fmt.Sprintf("owned by %s, not %s", owner, user)
	}
	dacl, _, err := sd.DACL()
	if err != nil || dacl == nil {
		return "has no DACL (everyone has full access)"
	}
	for i := uint32(0); i < uint32(dacl.AceCount); i++ {
		var ace *windows.ACCESS_ALLOWED_ACE
		if err := windows.GetAce(dacl, i, &ace); err != nil {
			return fmt.Sprintf("DACL entry %d unreadable: %v", i, err)
		}
		switch ace.Header.AceType {
		case aceAllowed, aceAllowedCallback:
		case aceAllowedObject, aceAllowedCallbackObject:
			// The SID of an object ACE follows optional GUIDs: without
			// reading them, any write right in it fails closed.
			if ace.Mask&writeRights != 0 {
				return fmt.Sprintf("DACL entry %d is an object ACE granting write access", i)
			}
			continue
		default:
			continue
		}
		if ace.Header.AceFlags&aceInheritOnly != 0 || ace.Mask&writeRights == 0 {
			continue
		}
		sid := (*windows.SID)(unsafe.Pointer(&ace.SidStart))
		if !trustedWriter(sid, user) {
			return fmt.Sprintf("DACL grants write access to %s", sid)
		}
	}
	return ""
}

// checkFile is the ownership check of the open trust file on Windows. A
// failure is a *corruptError.
func checkFile(f *os.File, _ fs.FileInfo) error {
	why, err := checkSecurity(windows.Handle(f.Fd()))
	if err != nil {
		return err
	}
	if why != "" {
		return &corruptError{why}
	}
	return nil
}

// checkDirOwner is the read-side check of the security directory on
// Windows. A failure is a *corruptError.
func checkDirOwner(dir string, _ fs.FileInfo) error {
	why, _, err := dirSecurity(dir)
	if err != nil {
		return err
	}
	if why != "" {
		return &corruptError{fmt.Sprintf("security directory %s %s", dir, why)}
	}
	return nil
}

// reparseWhy is dirSecurity's reason for a reparse point.
const reparseWhy = "is a reparse point (symlink or junction)"

// dirSecurity opens dir itself (a junction or symlink is refused) and
// judges its security descriptor.
func dirSecurity(dir string) (why string, protected bool, err error) {
	p, err := windows.UTF16PtrFromString(dir)
	if err != nil {
		return "", false, err
	}
	h, err := windows.CreateFile(p, windows.READ_CONTROL|windows.FILE_READ_ATTRIBUTES,
		windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE|windows.FILE_SHARE_DELETE, nil,
		windows.OPEN_EXISTING, windows.FILE_FLAG_BACKUP_SEMANTICS|windows.FILE_FLAG_OPEN_REPARSE_POINT, 0)
	if err != nil {
		return "", false, &fs.PathError{Op: "open", Path: dir, Err: err}
	}
	defer windows.CloseHandle(h)
	var bi windows.ByHandleFileInformation
	if err := windows.GetFileInformationByHandle(h, &bi); err != nil {
		return "", false, &fs.PathError{Op: "stat", Path: dir, Err: err}
	}
	if bi.FileAttributes&windows.FILE_ATTRIBUTE_REPARSE_POINT != 0 {
		return reparseWhy, false, nil
	}
	return securityOf(h)
}

// storeDACL is the protected DACL of the store: full control for the
// token user, LocalSystem and Administrators, inherited by what is
// created inside, nothing inherited from above.
func storeDACL(user *windows.SID) (*windows.ACL, error) {
	sd, err := windows.SecurityDescriptorFromString("D:P(A;OICI;FA;;;" + user.String() + ")(A;OICI;FA;;;SY)(A;OICI;FA;;;BA)")
	if err != nil {
		return nil, err
	}
	dacl, _, err := sd.DACL()
	return dacl, err
}

// protectPath sets owner = token user and the protected store DACL on path
// (SetNamedSecurityInfo opens its own handle with WRITE_DAC and
// WRITE_OWNER).
func protectPath(path string) error {
	user, err := tokenUser()
	if err != nil {
		return err
	}
	dacl, err := storeDACL(user)
	if err != nil {
		return err
	}
	const info = windows.OWNER_SECURITY_INFORMATION | windows.DACL_SECURITY_INFORMATION |
		windows.PROTECTED_DACL_SECURITY_INFORMATION
	if err := windows.SetNamedSecurityInfo(path, windows.SE_FILE_OBJECT, info, user, nil, dacl, nil); err != nil {
		return fmt.Errorf("cannot restrict %s to the current user (owner and access list): %w", path, err)
	}
	return nil
}

// protectDir checks the security directory on every write and, when its
// DACL is not protected (a directory just created inherits its parent's)
// or its owner or DACL do not protect it, sets owner = token user and the
// protected store DACL and checks again; a directory that still fails (a
// reparse point, or a descriptor we may not set) is refused with
// ErrCorrupt.
func protectDir(dir string, _ fs.FileInfo) error {
	why, protected, err := dirSecurity(dir)
	if err != nil || why == "" && protected {
		return err
	}
	if why != reparseWhy {
		if err := protectPath(dir); err != nil {
			return err
		}
		if why, _, err = dirSecurity(dir); err != nil {
			return err
		}
	}
	if why != "" {
		return fmt.Errorf("%w: security directory %s %s; write refused", ErrCorrupt, dir, why)
	}
	return nil
}

// protectFile gives a new temp file owner = token user and the protected
// store DACL before it replaces the trust file.
func protectFile(f *os.File) error { return protectPath(f.Name()) }

// retryWindow bounds the retry of replaceFile (and of the readers' open):
// another process's open handle without FILE_SHARE_DELETE, or an
// antivirus or indexer scan, makes MoveFileEx and CreateFile fail for a
// moment with ERROR_ACCESS_DENIED or ERROR_SHARING_VIOLATION (the same
// window cmd/go's robustio uses).
const retryWindow = 2 * time.Second

// transient reports whether err is one of the moment-long Windows errors.
func transient(err error) bool {
	return errors.Is(err, windows.ERROR_ACCESS_DENIED) || errors.Is(err, windows.ERROR_SHARING_VIOLATION) ||
		errors.Is(err, windows.ERROR_LOCK_VIOLATION)
}

// retry runs fn until it succeeds, fails otherwise than transiently, or
// retryWindow has passed, backing off from 1 ms to 100 ms.
func retry(fn func() error) error {
	deadline := time.Now().Add(retryWindow)
	backoff := time.Millisecond
	for {
		err := fn()
		if err == nil || !transient(err) || time.Now().After(deadline) {
			return err
		}
		time.Sleep(backoff)
		backoff = min(2*backoff, 100*time.Millisecond)
	}
}

// replaceFile renames src over dst. It first asks for POSIX rename
// semantics (FileRenameInfoEx with FILE_RENAME_FLAG_POSIX_SEMANTICS,
// Windows 10 1809 and later), under which readers that opened dst with
// FILE_SHARE_DELETE (as fsid.OpenNoFollow does) never block the replace;
// where that is refused it falls back to MoveFileEx with
// MOVEFILE_REPLACE_EXISTING and MOVEFILE_WRITE_THROUGH. Either is retried
// while dst is transiently held (retryWindow).
func replaceFile(src, dst string) error {
	return retry(func() error {
		err := posixRename(src, dst)
		if err == nil || transient(err) && !errors.Is(err, windows.ERROR_ACCESS_DENIED) {
			return err
		}
		return atomic.ReplaceFile(src, dst)
	})
}

// FILE_RENAME_INFO flags (x/sys/windows does not define them).
const (
	fileRenameReplaceIfExists = 0x1
	fileRenamePOSIXSemantics  = 0x2
)

// posixRename renames src over dst with FileRenameInfoEx and POSIX
// semantics.
func posixRename(src, dst string) error {
	sp, err := windows.UTF16PtrFromString(src)
	if err != nil {
		return err
	}
	name, err := windows.UTF16FromString(dst)
	if err != nil {
		return err
	}
	h, err := windows.CreateFile(sp, windows.DELETE|windows.SYNCHRONIZE,
		windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE|windows.FILE_SHARE_DELETE, nil,
		windows.OPEN_EXISTING, windows.FILE_FLAG_OPEN_REPARSE_POINT, 0)
	if err != nil {
		return err
	}
	defer windows.CloseHandle(h)
	// FILE_RENAME_INFO: Flags (4 bytes, padded to 8), RootDirectory
	// (handle), FileNameLength (bytes, without the NUL), FileName.
	const head = 20
	buf := make([]byte, head+2*len(name))
	*(*uint32)(unsafe.Pointer(&buf[0])) = fileRenameReplaceIfExists | fileRenamePOSIXSemantics
	*(*uint32)(unsafe.Pointer(&buf[16])) = uint32(2 * (len(name) - 1))
	copy(unsafe.Slice((*uint16)(unsafe.Pointer(&buf[head])), len(name)), name)
	return windows.SetFileInformationByHandle(h, windows.FileRenameInfoEx, &buf[0], uint32(len(buf)))
}

// syncDir is a no-op on Windows: a directory handle cannot be flushed
// (FlushFileBuffers fails with access denied), and MOVEFILE_WRITE_THROUGH
// makes the rename durable before MoveFileEx returns.
func syncDir(string) error { return nil }

// holderPath is where the lock holder records itself: a sidecar file, since
// LockFileEx is mandatory on Windows and nobody else could read a record
// inside the locked byte.
func holderPath(lockPath string) string { return lockPath + ".holder" }
