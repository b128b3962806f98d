//go:build !linux

// Command soak needs Linux: it stops processes with SIGSTOP, scans /proc
// for leftover hook processes and mounts a tmpfs home for the full-disk
// fault.
package main

import (
	"fmt"
	"os"
	"runtime"
)

func main() {
	fmt.Fprintf(os.Stderr, "soak: runs on Linux only (it needs /proc, SIGSTOP and tmpfs); this is %s\n", runtime.GOOS)
	os.Exit(2)
}
