//go:build linux

package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"sync"
	"time"
)

// trustDriver runs CLI grants and revokes of the workspace declarations,
// keeps what every acknowledged one implies, and samples the trust file.
type trustDriver struct {
	s       *soak
	digests []string
	// ops hold it shared; the corruption fault holds it exclusively, so
	// that "what was acknowledged" is known on both sides of a corruption.
	gate sync.RWMutex

	mu        sync.Mutex
	trusted   map[string]bool // digest → trusted after its last acknowledged op
	uncertain map[string]bool // an op failed: state unknown until the next ack
	acked     map[string]int  // "grant"/"revoke" → acknowledged
	failed    map[string]int  // "grant exit N" → count
	garbage   []byte          // the injected corrupt content (not counted as incomplete)
	why       []string        // the first stderr of each kind of failed op

	reads, complete, absent, injected, incomplete int
	firstIncomplete                               string
}

func (s *soak) newTrustDriver() (*trustDriver, error) {
	out, _, err := s.cli("", "hooks", "trust", "status", "--workspace", s.ws, "--json", "--home", s.home)
	if err != nil {
		return nil, err
	}
	var st struct {
		Declarations []struct {
			Digest string `json:"digest"`
		} `json:"declarations"`
	}
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		return nil, fmt.Errorf("hooks trust status: %w", err)
	}
	t := &trustDriver{s: s, trusted: map[string]bool{}, uncertain: map[string]bool{}, acked: map[string]int{}, failed: map[string]int{}}
	for _, d := range st.Declarations {
		t.digests = append(t.digests, d.Digest)
	}
	if len(t.digests) != trustDecls {
		return nil, fmt.Errorf("hooks trust status lists %d declarations, want %d", len(t.digests), trustDecls)
	}
	return t, nil
}

// worker w grants and revokes the digests with index ≡ w (mod 2), so the
// ops on one digest are sequential and their order known.
func (t *trustDriver) worker(w int) {
	for t.s.sleep(time.Duration(50+rand.IntN(100)) * time.Millisecond) {
		i := w + 2*rand.IntN(len(t.digests)/2)
		d := t.digests[i]
		t.mu.Lock()
		op := "grant"
		if t.trusted[d] && rand.IntN(2) == 0 {
			op = "revoke"
		}
		t.mu.Unlock()
		t.gate.RLock()
		t.do(op, d)
		t.gate.RUnlock()
	}
}

// do runs one CLI op and records what its exit status implies.
func (t *trustDriver) do(op, d string) int {
	_, code, err := t.s.cli("", "hooks", "trust", op, "--workspace", t.s.ws, "--digest", d, "--home", t.s.home)
	t.mu.Lock()
	defer t.mu.Unlock()
	if err != nil && code == 0 {
		code = -1
	}
	if code != 0 {
		key := fmt.Sprintf("%s exit %d", op, code)
		if t.failed[key] < 2 {
			t.why = append(t.why, key+": "+err.Error())
		}
		t.failed[key]++
		t.uncertain[d] = true
		return code
	}
	t.acked[op]++
	t.trusted[d] = op == "grant"
	delete(t.uncertain, d)
	return 0
}

// corrupt overwrites the trust file with a torn JSON document, then makes
// one grant: hookside must refuse it (exit 3) and set the file aside, or
// find it already set aside by another process. Either way every earlier
// grant is gone by design (the file is quarantined, not repaired).
func (t *trustDriver) corrupt() (string, bool) {
	t.gate.Lock()
	defer t.gate.Unlock()
	b, err := os.ReadFile(t.s.trustPath)
	if err != nil {
		return "no trust file yet: " + err.Error(), false
	}
	garbage := b[:len(b)/2]
	t.mu.Lock()
	t.garbage = garbage
	t.mu.Unlock()
	if err := os.WriteFile(t.s.trustPath, garbage, 0o600); err != nil {
		return "write: " + err.Error(), false
	}
	t.mu.Lock()
	for d := range t.trusted {
		t.trusted[d] = false
	}
	clear(t.uncertain)
	t.mu.Unlock()
	d := t.digests[rand.IntN(len(t.digests))]
	code := t.do("grant", d)
	switch code {
	case 3:
		// Refused; the next op starts a fresh file.
		t.mu.Lock()
		delete(t.uncertain, d)
		t.mu.Unlock()
		code2 := t.do("grant", d)
		return fmt.Sprintf("torn file (%d of %d bytes): grant refused with exit 3, the next grant exit %d", len(garbage), len(b), code2), code2 == 0
	case 0:
		return fmt.Sprintf("torn file (%d of %d bytes): already set aside by an app-server; the grant succeeded on a fresh file", len(garbage), len(b)), true
	default:
		return fmt.Sprintf("torn file: grant exit %d", code), false
	}
}

// sample reads the trust file every 20 ms: it must always parse (a torn
// write would show here), except for the content the fault injected.
func (t *trustDriver) sample() {
	for t.s.sleep(20 * time.Millisecond) {
		b, err := os.ReadFile(t.s.trustPath)
		t.mu.Lock()
		t.reads++
		switch {
		case err != nil:
			t.absent++
		case t.garbage != nil && string(b) == string(t.garbage):
			t.injected++
		case json.Valid(b):
			t.complete++
		default:
			t.incomplete++
			if t.firstIncomplete == "" {
				t.firstIncomplete = fmt.Sprintf("%d bytes: %s", len(b), compact(b))
			}
		}
		t.mu.Unlock()
	}
}

// settle makes one acknowledged op on every digest whose state a failed
// op left unknown, so that verify can check all of them.
func (t *trustDriver) settle() {
	t.mu.Lock()
	var todo []string
	for d := range t.uncertain {
		todo = append(todo, d)
	}
	t.mu.Unlock()
	for _, d := range todo {
		op := "grant"
		if rand.IntN(2) == 0 {
			op = "revoke"
		}
		t.do(op, d)
	}
}

// verify compares `hooks trust status` with what the acknowledged ops
// imply: (checked, wrong, skipped as uncertain, detail).
func (t *trustDriver) verify() (int, int, int, []string) {
	out, _, err := t.s.cli("", "hooks", "trust", "status", "--workspace", t.s.ws, "--json", "--home", t.s.home)
	if err != nil {
		return 0, 1, 0, []string{"hooks trust status: " + err.Error()}
	}
	var st struct {
		Declarations []struct {
			Digest     string `json:"digest"`
			TrustState string `json:"trustState"`
		} `json:"declarations"`
	}
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		return 0, 1, 0, []string{"hooks trust status: " + err.Error()}
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	checked, wrong, skipped := 0, 0, 0
	var detail []string
	for _, d := range st.Declarations {
		if t.uncertain[d.Digest] {
			skipped++
			continue
		}
		checked++
		want := "pending_trust"
		if t.trusted[d.Digest] {
			want = "trusted_persistent"
		}
		if d.TrustState != want {
			wrong++
			detail = append(detail, fmt.Sprintf("declaration %.12s: %s, acknowledged ops imply %s", d.Digest, d.TrustState, want))
		}
	}
	return checked, wrong, skipped, detail
}
