package exec

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/sys/unix"
)

// acquireSubreaper makes this process the child subreaper of its
// descendants (prctl PR_SET_CHILD_SUBREAPER).
func acquireSubreaper() error {
	return unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
}

// reapOnSIGCHLD is false: Run scans for escapees itself once a hook's
// leader has exited (reapAfterHook), which is when the processes it
// orphaned have been re-parented to hookside; the tick catches the rest.
const reapOnSIGCHLD = false

// reapAfterHook kills and reaps the escapees among the children the main
// thread adopted (one read of /proc), right after a hook's leader has
// exited; a no-op unless EnableSubreaper was called.
func reapAfterHook() {
	if subreaperEnabled() {
		reapFrom(childPIDs(true))
	}
}

// mainChildren is the main thread's children file, the list orphans are
// adopted onto, kept open: re-reading it with pread costs one syscall,
// where opening a procfs file costs a path walk (about 50 µs here).
var mainChildren = sync.OnceValue(func() int {
	fd, err := unix.Open("/proc/self/task/"+strconv.Itoa(os.Getpid())+"/children", unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1
	}
	return fd
})

// childPIDs lists this process's children from /proc/self/task/*/children;
// mainOnly reads the main thread's list only, the one orphans are adopted
// by (one pread, without the runtime poller).
func childPIDs(mainOnly bool) []int {
	if mainOnly {
		return mainChildPIDs()
	}
	files, _ := filepath.Glob("/proc/self/task/*/children")
	var out []int
	for _, t := range files {
		b, err := os.ReadFile(t)
		if err != nil {
			continue
		}
		out = append(out, parsePIDs(b)...)
	}
	return out
}

func mainChildPIDs() []int {
	fd := mainChildren()
	if fd < 0 {
		return nil
	}
	buf := make([]byte, 512)
	for {
		n, err := unix.Pread(fd, buf, 0)
		if err == unix.EINTR {
			continue
		}
		if err != nil || n <= 0 {
			return nil
		}
		if n < len(buf) {
			return parsePIDs(buf[:n])
		}
		buf = make([]byte, 2*len(buf)) // more children than fit: read it all again
	}
}

func parsePIDs(b []byte) []int {
	var out []int
	for _, f := range strings.Fields(string(b)) {
		if pid, err := strconv.Atoi(f); err == nil {
			out = append(out, pid)
		}
	}
	return out
}
