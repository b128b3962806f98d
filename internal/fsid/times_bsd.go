//go:build darwin || freebsd || ios

package fsid

import "syscall"

func statTimes(st *syscall.Stat_t) (mtime, ctime int64, ok bool) {
	return st.Mtimespec.Nano(), st.Ctimespec.Nano(), true
}
