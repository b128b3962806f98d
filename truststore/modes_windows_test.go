//go:build windows

package truststore

import (
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/sys/windows"

	"github.com/hookside/hookside/internal/fsid"
)

// assertMode checks on Windows what stands for the Unix mode: p is owned
// by the token user and its DACL grants write to nobody but the user,
// LocalSystem and Administrators (the mode itself is not used).
func assertMode(t *testing.T, p string, _ os.FileMode) {
	t.Helper()
	why, err := pathSecurity(p)
	if err != nil {
		t.Fatal(err)
	}
	if why != "" {
		t.Errorf("%s: %s", p, why)
	}
}

// pathSecurity judges the security descriptor of p.
func pathSecurity(p string) (string, error) {
	sd, err := windows.GetNamedSecurityInfo(p, windows.SE_FILE_OBJECT,
		windows.OWNER_SECURITY_INFORMATION|windows.DACL_SECURITY_INFORMATION)
	if err != nil {
		return "", err
	}
	user, err := tokenUser()
	if err != nil {
		return "", err
	}
	return judgeSecurity(sd, user), nil
}

// skipModes skips a test that changes Unix mode bits: Windows files have
// none (owner and DACL are checked instead: TestWindowsJudgeSecurity).
func skipModes(t *testing.T) {
	t.Helper()
	t.Skip("windows: the test sets Unix mode bits, which Windows files do not carry; the owner/DACL checks are TestWindowsJudgeSecurity and TestWindowsStoreProtected")
}

// symlinkUsable skips the test when the link os.Symlink made (link, or a
// probe link when link is "") cannot be stat'ed, as under Wine 8.0
// (GetFileAttributesEx: file not found).
func symlinkUsable(t *testing.T, link string) {
	t.Helper()
	if link == "" {
		dir := t.TempDir()
		link = filepath.Join(dir, "probe")
		if err := os.WriteFile(filepath.Join(dir, "target"), nil, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.Join(dir, "target"), link); err != nil {
			t.Skipf("windows: os.Symlink: %v", err)
		}
	}
	if _, err := os.Lstat(link); err != nil {
		t.Skipf("windows: the symlink %s cannot be stat'ed (%v): Wine 8.0 does not read the links os.Symlink makes; not checked on a Windows machine", link, err)
	}
}

// readShared reads path as the store's readers do: sharing delete, retried
// on transient sharing errors.
func readShared(path string) ([]byte, error) {
	var f *os.File
	if err := retry(func() (err error) { f, err = fsid.OpenNoFollow(path); return err }); err != nil {
		return nil, err
	}
	b, err := io.ReadAll(f)
	f.Close()
	if underWine() {
		// Wine 8.0 refuses a rename over a file any handle holds open, so
		// a reader that never lets go would starve the writers (a loaded
		// machine makes every read slower): pace it.
		time.Sleep(25 * time.Millisecond)
	}
	return b, err
}

// underWine reports whether the test runs under Wine (ntdll exports
// wine_get_version there, never on Windows).
func underWine() bool {
	return windows.NewLazySystemDLL("ntdll.dll").NewProc("wine_get_version").Find() == nil
}
