package runner

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// HookOutputDir is the directory, under the hookside home, where the
// claude profile saves hook outputs too long to pass on
// (output.ClaudeMerged.SpillOversized): <home>/hook-output/. The files
// outlive the session and the `hooks run` command, so the path in the
// answer can be read afterwards; files older than HookOutputMaxAge are
// removed when a later session saves one.
const HookOutputDir = "hook-output"

// HookOutputMaxAge is how long a saved hook output is kept: 7 days.
const HookOutputMaxAge = 7 * 24 * time.Hour

var hookOutputSweep sync.Once

// saveOversized writes an oversized hook output (the whole text the
// answer carried) to a new file hook-output-*.txt, mode 0600, in
// <home>/hook-output/ (0700), or in the session's temporary directory
// (removed at Close) when the session has no hookside home, and returns
// its path. Errors are the directory's or the file's.
func (s *Session) saveOversized(text string) (string, error) {
	dir, err := s.hookOutputDir()
	if err != nil {
		return "", err
	}
	f, err := os.CreateTemp(dir, "hook-output-*.txt")
	if err != nil {
		return "", err
	}
	_, err = f.WriteString(text)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}

func (s *Session) hookOutputDir() (string, error) {
	if s.opts.Workspace.Home == "" {
		return s.transcriptDir()
	}
	dir := filepath.Join(s.opts.Workspace.Home, HookOutputDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	hookOutputSweep.Do(func() { sweepHookOutputs(dir, time.Now().Add(-HookOutputMaxAge)) })
	return dir, nil
}

// sweepHookOutputs removes the saved hook outputs in dir last modified
// before cutoff.
func sweepHookOutputs(dir string, cutoff time.Time) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		if !e.Type().IsRegular() || !strings.HasPrefix(e.Name(), "hook-output-") {
			continue
		}
		if fi, err := e.Info(); err == nil && fi.ModTime().Before(cutoff) {
			_ = os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}
