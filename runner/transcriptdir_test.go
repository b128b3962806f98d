package runner

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/hookside/hookside/internal/proc"
)

// The directories of processes that are gone (or whose pid now belongs to
// another process) are removed; those of running processes, this one's
// and names of another shape are kept.
func TestSweepStaleTranscriptDirs(t *testing.T) {
	base := t.TempDir()
	name := func(pid int, startMs int64) string {
		return transcriptDirName + strconv.Itoa(pid) + "-" + strconv.FormatInt(startMs, 10) + "-123"
	}
	child := exec.Command("sleep", "30")
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = child.Process.Kill(); _ = child.Wait() }()
	st, err := proc.ProcStartTime(child.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	keep := []string{
		name(child.Process.Pid, st.UnixMilli()),
		filepath.Base(strings.TrimSuffix(transcriptDirPrefix(), "-")) + "-mine",
		transcriptDirName + "123456789", // an older name: no pid and start
		"unrelated",
	}
	drop := []string{
		name(gone.Process.Pid, st.UnixMilli()),         // exited
		name(child.Process.Pid, st.UnixMilli()-60_000), // the pid is another process now
	}
	for _, n := range append(append([]string{}, keep...), drop...) {
		if err := os.MkdirAll(filepath.Join(base, n, "sub"), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	sweepStale(base)
	for _, n := range keep {
		if _, err := os.Stat(filepath.Join(base, n)); err != nil {
			t.Errorf("%s removed: %v", n, err)
		}
	}
	for _, n := range drop {
		if _, err := os.Stat(filepath.Join(base, n)); !os.IsNotExist(err) {
			t.Errorf("%s kept: %v", n, err)
		}
	}
	if p := transcriptDirPrefix(); !strings.HasPrefix(p, transcriptDirName+strconv.Itoa(os.Getpid())+"-") {
		t.Errorf("this process's prefix %q", p)
	}
}
