package exec

// sweepAfterRun reports whether Run sweeps a finished hook's run token:
// always on macOS, which has no subreaper, so a process that left the
// hook's group (setsid, a double fork) passes to launchd.
func sweepAfterRun() bool { return true }
