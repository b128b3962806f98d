package proc

import (
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// sysSweeper lists processes with sysctl kern.proc.all and reads each one's
// environment from its KERN_PROCARGS2 record, which the kernel gives for
// the caller's own processes (and to root). The listing gives each
// process's start time, user and state at no extra cost: other users'
// processes (whose records the kernel refuses) and zombies are left out.
var sysSweeper = sweeper{procs: sysctlPIDs, environ: sysctlEnviron, kill: killPID}

// szomb is macOS's p_stat of a zombie (sys/proc.h SZOMB).
const szomb = 5

func sysctlPIDs() ([]procEntry, error) {
	kps, err := unix.SysctlKinfoProcSlice("kern.proc.all")
	if err != nil {
		return nil, err
	}
	uid := uint32(os.Getuid())
	procs := make([]procEntry, 0, len(kps))
	for i := range kps {
		p := &kps[i]
		if p.Eproc.Ucred.Uid != uid || p.Proc.P_stat == szomb {
			continue
		}
		st := p.Proc.P_starttime
		procs = append(procs, procEntry{pid: int(p.Proc.P_pid), start: time.Unix(int64(st.Sec), int64(st.Usec)*1000)})
	}
	return procs, nil
}

func sysctlEnviron(pid int) ([]byte, error) {
	b, err := unix.SysctlRaw("kern.procargs2", pid)
	if err != nil {
		return nil, err
	}
	return procArgs2Env(b)
}
