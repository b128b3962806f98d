package proc

import "golang.org/x/sys/unix"

// sysSweeper lists processes with sysctl kern.proc.proc and reads each
// one's environment from kern.proc.env (NUL-separated entries), which the
// kernel gives for the caller's own processes.
var sysSweeper = sweeper{procs: kinfoPIDs, environ: sysctlEnviron, kill: killPID}

func kinfoPIDs() ([]procEntry, error) {
	recs, err := kinfoAll()
	if err != nil {
		return nil, err
	}
	procs := make([]procEntry, 0, len(recs))
	for _, r := range recs {
		procs = append(procs, procEntry{pid: kinfoInt32(r, kinfoOffPID)})
	}
	return procs, nil
}

func sysctlEnviron(pid int) ([]byte, error) {
	return unix.SysctlRaw("kern.proc.env", pid)
}

// ChildPIDs returns the pids of this process's children (ki_ppid equal to
// its pid): after AcquireReaper, the hook escapees re-parented to it.
func ChildPIDs() ([]int, error) {
	recs, err := kinfoAll()
	if err != nil {
		return nil, err
	}
	self := unix.Getpid()
	var out []int
	for _, r := range recs {
		if kinfoInt32(r, kinfoOffPPID) == self {
			out = append(out, kinfoInt32(r, kinfoOffPID))
		}
	}
	return out, nil
}
