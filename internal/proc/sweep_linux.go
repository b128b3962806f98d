package proc

import (
	"os"
	"strconv"
)

// sysSweeper lists processes from /proc; /proc/<pid>/environ is readable
// for the caller's own processes (and by root), which are all Sweep needs.
// The listing gives no start times (they would cost a read of each
// process's stat, as much as its environment).
var sysSweeper = sweeper{procs: procPIDs, environ: procEnviron, kill: killPID}

func procPIDs() ([]procEntry, error) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil, err
	}
	procs := make([]procEntry, 0, len(entries))
	for _, e := range entries {
		if pid, err := strconv.Atoi(e.Name()); err == nil {
			procs = append(procs, procEntry{pid: pid})
		}
	}
	return procs, nil
}

func procEnviron(pid int) ([]byte, error) {
	return os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
}
