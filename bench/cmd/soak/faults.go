//go:build linux

package main

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

const (
	faultKill    = "kill -9 of a random app-server, then a restart"
	faultStall   = "SIGSTOP of a random app-server for 3 s (run lease 2 s), then SIGCONT"
	faultDisk    = "full disk: the tmpfs home filled for 3 s"
	faultCorrupt = "corrupted trust file (torn in half)"
)

// faultLoop injects one fault every interval, cycling through the kinds
// (the process hit is random).
func (s *soak) faultLoop() {
	kinds := []string{faultKill, faultStall, faultCorrupt, faultDisk}
	interval := max(4*time.Second, s.dur/24)
	for n := 0; s.sleep(interval); n++ {
		kind := kinds[n%len(kinds)]
		var detail string
		var ok bool
		switch kind {
		case faultKill:
			detail, ok = s.killOne()
		case faultStall:
			detail, ok = s.stallOne()
		case faultCorrupt:
			detail, ok = s.trust.corrupt()
		case faultDisk:
			if !s.tmpfs {
				s.mu.Lock()
				f := s.fault(kind)
				if len(f.detail) == 0 {
					f.detail = append(f.detail, "skipped: "+s.tmpfsNote)
				}
				s.mu.Unlock()
				continue
			}
			detail, ok = s.fillDisk()
		}
		s.mu.Lock()
		f := s.fault(kind)
		f.injected++
		if ok {
			f.survived++
		}
		if len(f.detail) < 6 {
			f.detail = append(f.detail, detail)
		}
		s.mu.Unlock()
		fmt.Fprintf(os.Stderr, "soak: %s: %s\n", kind, detail)
	}
}

func (s *soak) randomLive() *proc {
	live := s.liveProcs()
	if len(live) == 0 {
		return nil
	}
	return live[rand.IntN(len(live))]
}

// killOne SIGKILLs a random app-server and starts its slot again; it
// survived when the new incarnation answers (initialize, then a V2 call).
func (s *soak) killOne() (string, bool) {
	p := s.randomLive()
	if p == nil {
		return "no live app-server", false
	}
	p.killed.Store(true)
	s.mu.Lock()
	s.killedInc[p.token] = true
	s.slots[p.slot] = nil
	s.mu.Unlock()
	_ = p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.dead
	t0 := time.Now()
	if err := s.bringUp(p.slot, p.inc+1); err != nil {
		return fmt.Sprintf("slot %d: restart failed: %v", p.slot, err), false
	}
	s.mu.Lock()
	q := s.slots[p.slot]
	s.mu.Unlock()
	f, err := q.call("v2/settings/get", map[string]any{}, 5*time.Second+s.slack)
	if err != nil || f.Error != nil {
		return fmt.Sprintf("slot %d restarted, v2/settings/get failed: %v %v", p.slot, err, f.Error), false
	}
	return fmt.Sprintf("slot %d (pid %d) killed; incarnation %d answered in %s", p.slot, p.pid(), p.inc+1, time.Since(t0).Round(time.Millisecond)), true
}

// stallOne stops a random app-server past the run lease; it survived when
// it answers again after SIGCONT.
func (s *soak) stallOne() (string, bool) {
	p := s.randomLive()
	if p == nil {
		return "no live app-server", false
	}
	p.stallGen.Add(1)
	if err := p.cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		p.stallGen.Add(1)
		return "SIGSTOP: " + err.Error(), false
	}
	time.Sleep(runLease + time.Second)
	_ = p.cmd.Process.Signal(syscall.SIGCONT)
	p.stallGen.Add(1)
	t0 := time.Now()
	f, err := p.call("v2/settings/get", map[string]any{}, 5*time.Second+s.slack)
	if err != nil || f.Error != nil {
		return fmt.Sprintf("slot %d: after SIGCONT v2/settings/get failed: %v %v", p.slot, err, f.Error), false
	}
	return fmt.Sprintf("slot %d stopped %s; answered %s after SIGCONT", p.slot, runLease+time.Second, time.Since(t0).Round(time.Millisecond)), true
}

// fillDisk fills the tmpfs home, holds it full for 3 s, frees it; it
// survived when every live app-server acknowledges an emit within 10 s.
func (s *soak) fillDisk() (string, bool) {
	path := filepath.Join(s.home, "soak-fill")
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return "open fill file: " + err.Error(), false
	}
	buf := make([]byte, 1<<20)
	var n int64
	for {
		w, err := f.Write(buf)
		n += int64(w)
		if err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				_ = f.Close()
				_ = os.Remove(path)
				return "fill: " + err.Error(), false
			}
			break
		}
	}
	// The last bytes: a page may still be free after a 1 MiB write failed.
	small := buf[:512]
	for {
		if _, err := f.Write(small); err != nil {
			break
		}
	}
	before := s.snapshotCounts()
	time.Sleep(3 * time.Second)
	_ = f.Close()
	_ = os.Remove(path)
	refused := s.snapshotCounts().diff(before)
	t0 := time.Now()
	ok := true
	for _, p := range s.liveProcs() {
		if !waitFor(10*time.Second, func() bool {
			f, err := p.call("v2/events/emit", emitParams("turn.completed", "disk-check", fmt.Sprintf("%s-disk-%d", p.token, time.Now().UnixNano())), 5*time.Second+s.slack)
			if err == nil {
				s.emitted(f, "turn.completed", "app-server")
			}
			return err == nil && f.Error == nil
		}) {
			ok = false
		}
	}
	return fmt.Sprintf("%d MiB written until ENOSPC; during the 3 s: %s; every live app-server acknowledged an emit %s after space came back", n>>20, refused, time.Since(t0).Round(time.Millisecond)), ok
}

func (s *soak) liveProcs() []*proc {
	s.mu.Lock()
	defer s.mu.Unlock()
	var live []*proc
	for _, p := range s.slots {
		if p != nil && p.alive() {
			live = append(live, p)
		}
	}
	return live
}

type countSnap map[string]int64

func (s *soak) snapshotCounts() countSnap {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := countSnap{}
	for k, v := range s.counts {
		c[k] = v
	}
	return c
}

// diff lists the refusals counted since before.
func (c countSnap) diff(before countSnap) string {
	out := ""
	for k, v := range c {
		if d := v - before[k]; d > 0 && (strings.Contains(k, "refused") || strings.Contains(k, "failed")) {
			if out != "" {
				out += "; "
			}
			out += fmt.Sprintf("%s ×%d", k, d)
		}
	}
	if out == "" {
		return "no refusal counted"
	}
	return out
}
