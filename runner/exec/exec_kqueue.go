//go:build darwin || freebsd

package exec

import (
	"os"

	"github.com/hookside/hookside/internal/proc"
)

// execAwaitExit blocks until the leader p has exited but does not reap it
// (kqueue EVFILT_PROC/NOTE_EXIT): while it is a zombie its PID, which is
// also its process group id, cannot be reused, so Run can SIGKILL the
// rest of the group without hitting a stranger. Run reaps it with p.Wait
// afterwards. If kqueue fails it waits for and reaps the leader instead.
func execAwaitExit(p *os.Process) execExit {
	if proc.AwaitExit(p.Pid) == nil {
		return execExit{}
	}
	st, _ := p.Wait()
	return execExit{state: st}
}
