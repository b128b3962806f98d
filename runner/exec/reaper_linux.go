package exec

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// acquireSubreaper makes this process the child subreaper of its
// descendants (prctl PR_SET_CHILD_SUBREAPER).
func acquireSubreaper() error {
	return unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
}

// childPIDs lists this process's children from /proc/self/task/*/children;
// mainOnly reads the main thread's list only, the one orphans are adopted
// by (one read, on every SIGCHLD).
func childPIDs(mainOnly bool) []int {
	files := []string{"/proc/self/task/" + strconv.Itoa(os.Getpid()) + "/children"}
	if !mainOnly {
		files, _ = filepath.Glob("/proc/self/task/*/children")
	}
	var out []int
	for _, t := range files {
		b, err := os.ReadFile(t)
		if err != nil {
			continue
		}
		for _, f := range strings.Fields(string(b)) {
			if pid, err := strconv.Atoi(f); err == nil {
				out = append(out, pid)
			}
		}
	}
	return out
}
