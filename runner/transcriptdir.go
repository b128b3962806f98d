package runner

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/hookside/hookside/internal/proc"
)

// Session transcript directories are named
// hookside-session-<pid>-<start>-<random>, where <start> is the process's
// start time (Unix milliseconds, proc.ProcStartTime): Session.Close
// removes its own, and the first session of a process removes those a
// process that is gone left behind (killed with SIGKILL, or crashed)
// before making its own.

const transcriptDirName = "hookside-session-"

// transcriptDirPrefix is this process's pattern for os.MkdirTemp.
var transcriptDirPrefix = sync.OnceValue(func() string {
	pid := os.Getpid()
	start, err := proc.ProcStartTime(pid)
	if err != nil {
		return transcriptDirName
	}
	return transcriptDirName + strconv.Itoa(pid) + "-" + strconv.FormatInt(start.UnixMilli(), 10) + "-"
})

var sweepOnce sync.Once

// sweepTranscriptDirs removes, once per process, the session directories
// in base whose process has exited or is another process now (its start
// time differs). Directories without a pid and start time in their name
// are left alone.
func sweepTranscriptDirs(base string) {
	sweepOnce.Do(func() { sweepStale(base) })
}

func sweepStale(base string) {
	ents, err := os.ReadDir(base)
	if err != nil {
		return
	}
	for _, e := range ents {
		pid, start, ok := parseTranscriptDir(e.Name())
		if !ok || !e.IsDir() || pid == os.Getpid() {
			continue
		}
		t, err := proc.ProcStartTime(pid)
		switch {
		case err == nil && t.UnixMilli() == start:
			continue // its process still runs
		case err != nil && !errors.Is(err, proc.ErrNoProcess):
			continue // cannot tell (access denied): keep it, as truststore's lock does
		}
		// Gone, or its pid now names another process.
		_ = os.RemoveAll(filepath.Join(base, e.Name()))
	}
}

// parseTranscriptDir reads the pid and start time from a session
// directory's name.
func parseTranscriptDir(name string) (pid int, start int64, ok bool) {
	rest, found := strings.CutPrefix(name, transcriptDirName)
	if !found {
		return 0, 0, false
	}
	parts := strings.SplitN(rest, "-", 3)
	if len(parts) != 3 {
		return 0, 0, false
	}
	pid, err1 := strconv.Atoi(parts[0])
	start, err2 := strconv.ParseInt(parts[1], 10, 64)
	if err1 != nil || err2 != nil || pid <= 0 || start <= 0 || time.UnixMilli(start).After(time.Now().Add(time.Minute)) {
		return 0, 0, false
	}
	return pid, start, true
}
