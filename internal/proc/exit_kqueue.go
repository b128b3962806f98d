//go:build darwin || freebsd

package proc

import (
	"errors"
	"fmt"

	"golang.org/x/sys/unix"
)

// AwaitExit blocks until the child pid has exited, without reaping it
// (kqueue EVFILT_PROC with NOTE_EXIT): the caller's wait reaps it
// afterwards. While it is a zombie its pid, which is also its process
// group id, cannot be reused, so the group kill that follows the leader's
// exit cannot hit a stranger. A pid the kernel reports as gone (ESRCH: it
// has exited already, or was reaped) counts as exited. Other kqueue
// errors are returned; the caller then falls back to waiting for it.
func AwaitExit(pid int) error {
	kq, err := unix.Kqueue()
	if err != nil {
		return fmt.Errorf("proc: kqueue: %w", err)
	}
	defer unix.Close(kq)
	var ch unix.Kevent_t
	unix.SetKevent(&ch, pid, unix.EVFILT_PROC, unix.EV_ADD|unix.EV_ONESHOT)
	ch.Fflags = unix.NOTE_EXIT
	events := make([]unix.Kevent_t, 1)
	for {
		n, err := unix.Kevent(kq, []unix.Kevent_t{ch}, events, nil)
		switch {
		case errors.Is(err, unix.EINTR):
			continue
		case errors.Is(err, unix.ESRCH):
			return nil
		case err != nil:
			return fmt.Errorf("proc: kevent EVFILT_PROC %d: %w", pid, err)
		case n > 0 && events[0].Flags&unix.EV_ERROR != 0:
			if unix.Errno(events[0].Data) == unix.ESRCH {
				return nil
			}
			return fmt.Errorf("proc: kevent EVFILT_PROC %d: %w", pid, unix.Errno(events[0].Data))
		case n > 0:
			return nil
		}
	}
}
