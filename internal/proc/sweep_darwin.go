package proc

import "golang.org/x/sys/unix"

// sysSweeper lists processes with sysctl kern.proc.all and reads each one's
// environment from its KERN_PROCARGS2 record, which the kernel gives for
// the caller's own processes (and to root).
var sysSweeper = sweeper{pids: sysctlPIDs, environ: sysctlEnviron, kill: killPID}

func sysctlPIDs() ([]int, error) {
	kps, err := unix.SysctlKinfoProcSlice("kern.proc.all")
	if err != nil {
		return nil, err
	}
	pids := make([]int, 0, len(kps))
	for i := range kps {
		pids = append(pids, int(kps[i].Proc.P_pid))
	}
	return pids, nil
}

func sysctlEnviron(pid int) ([]byte, error) {
	b, err := unix.SysctlRaw("kern.procargs2", pid)
	if err != nil {
		return nil, err
	}
	return procArgs2Env(b)
}
