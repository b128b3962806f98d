//go:build !unix

package main

// monoNs has no CLOCK_MONOTONIC to share with the hook on this OS.
func monoNs() (int64, bool) { return 0, false }
