//go:build linux || openbsd || netbsd || dragonfly || solaris || illumos || aix

package fsid

import "syscall"

func statTimes(st *syscall.Stat_t) (mtime, ctime int64, ok bool) {
	return st.Mtim.Nano(), st.Ctim.Nano(), true
}
