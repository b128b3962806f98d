//go:build unix

package rpc

import (
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// pollable returns r, or, when r is an *os.File on a pipe or socket (stdin
// as a host hands it over is one in blocking mode), a non-blocking
// duplicate the runtime poller serves. A blocking read holds an OS thread in the
// read syscall between requests, and every request then crosses threads:
// the runtime has to hand the reader's processor to the goroutine that
// runs the request. With the poller, the thread that wakes on the
// request's bytes runs it. The duplicate shares the open file description,
// so fd 0 is non-blocking too; nothing else in hookside reads it. done
// closes the duplicate (a no-op when r is returned).
func pollable(r io.Reader) (in io.Reader, done func()) {
	done = func() {}
	f, ok := r.(*os.File)
	if !ok {
		return r, done
	}
	fi, err := f.Stat()
	if err != nil || fi.Mode()&(os.ModeNamedPipe|os.ModeSocket) == 0 {
		return r, done
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return r, done
	}
	dup := -1
	if rc.Control(func(fd uintptr) {
		if d, err := unix.FcntlInt(fd, unix.F_DUPFD_CLOEXEC, 0); err == nil {
			dup = d
		}
	}) != nil || dup < 0 {
		return r, done
	}
	if err := unix.SetNonblock(dup, true); err != nil {
		_ = unix.Close(dup)
		return r, done
	}
	nf := os.NewFile(uintptr(dup), f.Name())
	return nf, func() { _ = nf.Close() }
}
