//go:build unix

package main

import "golang.org/x/sys/unix"

// monoNs reads CLOCK_MONOTONIC in ns, the clock bench/hook/hook.c's stamp
// mode writes, so that the driver's and the hook's instants compare.
func monoNs() (int64, bool) {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts); err != nil {
		return 0, false
	}
	return ts.Nano(), true
}
