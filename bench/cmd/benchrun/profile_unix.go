//go:build unix

package main

import (
	"os"
	"syscall"
)

// profileStartSignal starts the CPU profile of the server inprocProfile
// profiles (profileServe), after the warm-up.
var profileStartSignal os.Signal = syscall.SIGUSR1
