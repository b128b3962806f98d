package rpc

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// sleepyHook writes home/sleepy.sh, a hook that records its pid in the
// returned file (atomically: written, then renamed) and sleeps 30 s.
func sleepyHook(t *testing.T, home string) (script, pidFile string) {
	t.Helper()
	script, pidFile = filepath.Join(home, "sleepy.sh"), filepath.Join(home, "hook.pid")
	if err := os.WriteFile(script, []byte("#!/bin/sh\necho $$ > "+pidFile+".tmp && mv "+pidFile+".tmp "+pidFile+"\nexec sleep 30\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return script, pidFile
}

// waitHookPID waits up to 5 s for the sleepy hook to start, removes its pid
// file (so that the next start can be waited for) and returns the pid.
func waitHookPID(t *testing.T, pidFile string) int {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		if b, err := os.ReadFile(pidFile); err == nil {
			var pid int
			if _, err := fmt.Sscan(string(b), &pid); err == nil {
				os.Remove(pidFile)
				return pid
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("the hook did not start")
		}
		time.Sleep(5 * time.Millisecond)
	}
}
