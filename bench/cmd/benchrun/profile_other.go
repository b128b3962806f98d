//go:build !unix

package main

import "os"

// profileStartSignal is nil where there is no SIGUSR1: the profile of
// profileServe starts with the server, its warm-up in it.
var profileStartSignal os.Signal
