//go:build unix

package config

import (
	"io/fs"
	"syscall"
)

// fileIdentity returns the device and inode of a stat result.
func fileIdentity(fi fs.FileInfo) (dev, ino uint64) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Dev), uint64(st.Ino) //nolint:unconvert // widths differ across platforms
	}
	return 0, 0
}
