package conformance

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// markerVar is set in the server's environment to the case root. Hooks
// inherit the host's environment (PROTOCOL.md §3), so every hook process
// and its descendants carry it: that is how leftovers are found.
const markerVar = "HOOKSIDE_CONFORMANCE_ROOT"

// leftoverProcesses returns the processes (other than this test process)
// whose environment carries the case marker or whose cwd is under root,
// after waiting up to grace for them to go away. Survivors are killed so
// one case cannot disturb the next. Linux only (/proc); elsewhere nil.
func leftoverProcesses(root string, grace time.Duration) []string {
	if runtime.GOOS != "linux" {
		return nil
	}
	deadline := time.Now().Add(grace)
	for {
		pids := scanProcs(root)
		if len(pids) == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			var out []string
			for _, pid := range pids {
				out = append(out, fmt.Sprintf("pid %d: %s", pid, cmdline(pid)))
				killPID(pid)
			}
			return out
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func scanProcs(root string) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	self := os.Getpid()
	marker := []byte(markerVar + "=" + root + "\x00")
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		dir := filepath.Join("/proc", e.Name())
		if st, err := os.ReadFile(filepath.Join(dir, "stat")); err == nil && isZombie(st) {
			continue // exited; its parent has not reaped it yet
		}
		env, _ := os.ReadFile(filepath.Join(dir, "environ"))
		if bytes.Contains(env, marker) {
			pids = append(pids, pid)
			continue
		}
		if cwd, err := os.Readlink(filepath.Join(dir, "cwd")); err == nil &&
			(cwd == root || strings.HasPrefix(cwd, root+"/")) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// isZombie reads the state field of /proc/<pid>/stat.
func isZombie(stat []byte) bool {
	i := bytes.LastIndexByte(stat, ')')
	return i >= 0 && i+2 < len(stat) && (stat[i+2] == 'Z' || stat[i+2] == 'X')
}

func cmdline(pid int) string {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	return strings.TrimSpace(strings.ReplaceAll(string(b), "\x00", " "))
}

// alive reports whether pid exists and is not a zombie.
func alive(pid int) bool {
	if runtime.GOOS == "linux" {
		st, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		return err == nil && !isZombie(st)
	}
	return exists(pid)
}

// expectProcessGone reads the pids (one per line) a hook wrote to pidFile
// and waits until none of them is alive.
func expectProcessGone(pidFile string, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		b, err := os.ReadFile(pidFile)
		if err != nil {
			if time.Now().After(deadline) {
				return fmt.Errorf("expectProcessGone: %v", err)
			}
			time.Sleep(20 * time.Millisecond)
			continue
		}
		var live []string
		for _, f := range strings.Fields(string(b)) {
			pid, err := strconv.Atoi(f)
			if err == nil && alive(pid) {
				live = append(live, fmt.Sprintf("%d (%s)", pid, cmdline(pid)))
			}
		}
		if len(live) == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("expectProcessGone %s: still alive after %v: %s", pidFile, timeout, strings.Join(live, ", "))
		}
		time.Sleep(20 * time.Millisecond)
	}
}
