//go:build unix && !linux && !darwin && !freebsd

package exec

import "os"

// execAwaitExit waits for the leader p and reaps it. Without waitid(WNOWAIT)
// or kqueue's NOTE_EXIT the group kill that follows has a tiny window in
// which the PID, if the group is already empty, could have been reused.
func execAwaitExit(p *os.Process) execExit {
	st, _ := p.Wait()
	return execExit{state: st}
}

// sweepAfterRun is false here: proc.Sweep has no process-list backend.
func sweepAfterRun() bool { return false }
