package exec

import "sync"

// hookPIDs are the hook leaders this process started and has not reaped
// yet. The reaper (reaper_linux.go) never touches them; every other child
// of a subreaper hookside is a process that escaped its hook.
var hookPIDs = struct {
	// starting is held shared from just before a hook is forked until its
	// pid is registered, and exclusively by a reaper scan, so a hook being
	// started is never mistaken for an escapee.
	starting sync.RWMutex
	mu       sync.Mutex
	m        map[int]struct{}
}{m: map[int]struct{}{}}

// beginStart holds off reaper scans while a hook is forked; the returned
// function registers pid (0 = the start failed) and ends the hold.
func beginStart() func(pid int) {
	hookPIDs.starting.RLock()
	return func(pid int) {
		if pid > 0 {
			hookPIDs.mu.Lock()
			hookPIDs.m[pid] = struct{}{}
			hookPIDs.mu.Unlock()
		}
		hookPIDs.starting.RUnlock()
	}
}

// reaped forgets a hook leader once it has been waited for.
func reaped(pid int) {
	hookPIDs.mu.Lock()
	delete(hookPIDs.m, pid)
	hookPIDs.mu.Unlock()
}

// isHook reports whether pid is a registered hook leader.
func isHook(pid int) bool {
	hookPIDs.mu.Lock()
	defer hookPIDs.mu.Unlock()
	_, ok := hookPIDs.m[pid]
	return ok
}
