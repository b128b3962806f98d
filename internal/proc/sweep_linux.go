package proc

import (
	"os"
	"strconv"
)

// sysSweeper lists processes from /proc; /proc/<pid>/environ is readable
// for the caller's own processes (and by root), which are all Sweep needs.
var sysSweeper = sweeper{pids: procPIDs, environ: procEnviron, kill: killPID}

func procPIDs() ([]int, error) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil, err
	}
	pids := make([]int, 0, len(entries))
	for _, e := range entries {
		if pid, err := strconv.Atoi(e.Name()); err == nil {
			pids = append(pids, pid)
		}
	}
	return pids, nil
}

func procEnviron(pid int) ([]byte, error) {
	return os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
}
