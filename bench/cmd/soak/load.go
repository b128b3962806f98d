//go:build linux

package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"time"
)

func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o600)
}

// run drives load and faults for s.dur, then drains and checks; it writes
// the report to out and says whether every invariant held.
func (s *soak) run(out string) (bool, error) {
	s.started = time.Now()
	for slot := range s.nProcs {
		if err := s.bringUp(slot, 0); err != nil {
			return false, err
		}
	}
	if err := s.setupV2(s.slots[0]); err != nil {
		return false, err
	}
	close(s.v2ready)
	var err error
	if s.trust, err = s.newTrustDriver(); err != nil {
		return false, err
	}
	// Warm-up figures of every first incarnation (the RSS/fd bound's base).
	for slot, p := range s.slots {
		rss, fds := procStats(p.pid())
		s.firstStats[slot] = [2]int64{rss, int64(fds)}
	}
	for w := range 2 {
		s.spawn(func() { s.trust.worker(w) })
	}
	s.spawn(s.trust.sample)
	s.spawn(s.cliEmitter)
	s.spawn(s.faultLoop)
	fmt.Fprintf(os.Stderr, "soak: %d app-servers on one home, load and faults for %s …\n", s.nProcs, s.dur)
	time.Sleep(s.dur)
	close(s.stop)
	s.wg.Wait()
	loadEnd := time.Since(s.started)
	fmt.Fprintf(os.Stderr, "soak: load stopped after %s; draining and checking …\n", loadEnd.Round(time.Second))
	inv, err := s.check()
	if err != nil {
		return false, err
	}
	return s.report(out, loadEnd, inv)
}

func (s *soak) spawn(f func()) {
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		f()
	}()
}

// bringUp starts incarnation inc of slot, handshakes and starts its load.
func (s *soak) bringUp(slot, inc int) error {
	p, err := s.startProc(slot, inc)
	if err != nil {
		return err
	}
	if err := p.handshake(); err != nil {
		_ = p.stop(5 * time.Second)
		return fmt.Errorf("slot %d: %w (stderr: %s)", slot, err, tailStr(p.stderr.String()))
	}
	s.mu.Lock()
	s.slots[slot] = p
	s.all = append(s.all, p)
	s.mu.Unlock()
	for k := range s.nSessions {
		s.spawn(func() { s.sessionLoop(p, k) })
	}
	s.spawn(func() { s.emitLoop(p) })
	s.spawn(func() { s.mailboxLoop(p) })
	s.spawn(func() { s.badLoop(p) })
	return nil
}

// running says whether p's load should go on.
func (s *soak) running(p *proc) bool {
	select {
	case <-s.stop:
		return false
	case <-p.dead:
		return false
	default:
		return true
	}
}

func (s *soak) setupV2(p *proc) error {
	steps := []struct {
		method string
		params map[string]any
	}{
		{"v2/settings/update", map[string]any{"enabled": true}},
		{"v2/definitions/create", map[string]any{"definition": map[string]any{
			"id": "soak-command", "name": "soak command", "enabled": true, "eventName": "turn.completed", "timeoutMs": 5000,
			"action": map[string]any{"type": "command", "hook": map[string]any{"type": "command",
				"command": `sleep 0.2; printf '%s\n' "$HOOKSIDE_V2_RUN_ID" >> '` + s.logPath + `'`}}}}},
		{"v2/definitions/create", map[string]any{"definition": map[string]any{
			"id": "soak-notify", "name": "soak notify", "enabled": true, "eventName": "turn.failed", "timeoutMs": notifyTimeout.Milliseconds(),
			"action": map[string]any{"type": "notification", "title": map[string]any{"const": "soak"}, "body": map[string]any{"path": "payload.message"}}}}},
		{"v2/bindings/create", map[string]any{"hookId": "soak-command", "scopeKind": "application"}},
		{"v2/bindings/create", map[string]any{"hookId": "soak-notify", "scopeKind": "application"}},
	}
	for _, st := range steps {
		f, err := p.call(st.method, st.params, 10*time.Second)
		if err != nil {
			return fmt.Errorf("%s: %w", st.method, err)
		}
		if f.Error != nil {
			return fmt.Errorf("%s: %d %s %s", st.method, f.Error.Code, f.Error.Message, compact(f.Error.Data))
		}
	}
	return nil
}

func pickKind() hookKind {
	total := 0
	for _, k := range hookKinds {
		total += k.weight
	}
	r := rand.IntN(total)
	for _, k := range hookKinds {
		if r < k.weight {
			return k
		}
		r -= k.weight
	}
	return hookKinds[0]
}

// sessionLoop opens one session and runs PreToolUse hooks back to back.
func (s *soak) sessionLoop(p *proc, k int) {
	sid := fmt.Sprintf("sess-%s-%d", p.token, k)
	f, err := p.call("session/open", map[string]any{"sessionId": sid, "cwd": s.ws}, 10*time.Second)
	if err != nil || f.Error != nil {
		if err != errGone {
			s.count("session/open failed", 1)
		}
		return
	}
	for n := 0; s.running(p); n++ {
		kind := pickKind()
		id := p.nextID.Add(1)
		line := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"hooks/run","params":{"sessionId":%q,"event":"PreToolUse","turnId":"t%d","input":{"toolName":%q,"toolInput":{"command":"ls"},"toolCallId":"c%d"}}}`+"\n",
			id, sid, n, kind.tool, n)
		bound := time.Duration(kind.timeoutMs)*time.Millisecond + killGrace + pipeAbandon + s.slack
		f, err := p.callRaw(id, "hooks/run "+kind.tool, []byte(line), bound)
		if err != nil {
			continue
		}
		var res struct {
			Runs []struct {
				Outcome string `json:"outcome"`
			} `json:"runs"`
		}
		switch {
		case f.Error != nil:
			s.count("hooks/run error reply: "+f.Error.Message, 1)
		case json.Unmarshal(f.Result, &res) != nil || len(res.Runs) != 1:
			s.count("hooks/run: result without exactly one run", 1)
		case res.Runs[0].Outcome != kind.outcome:
			s.count(fmt.Sprintf("hooks/run %s: outcome %s (expected %s)", kind.tool, res.Runs[0].Outcome, kind.outcome), 1)
		}
	}
}

func emitParams(name, session, turn string) map[string]any {
	return map[string]any{"eventName": name, "session": map[string]any{"id": session}, "turn": map[string]any{"id": turn},
		"workspaces": []any{map[string]any{"id": "w1", "name": "soak"}}, "payload": map[string]any{"message": "soak " + turn}}
}

// emitLoop emits V2 events (70 % turn.completed → command action, 30 %
// turn.failed → notification action) and records every acknowledged one.
func (s *soak) emitLoop(p *proc) {
	select {
	case <-s.v2ready:
	case <-s.stop:
		return
	}
	for n := 0; s.running(p); n++ {
		name := "turn.completed"
		if rand.IntN(10) < 3 {
			name = "turn.failed"
		}
		f, err := p.call("v2/events/emit", emitParams(name, fmt.Sprintf("v2s-%d-%d", p.slot, n%3), fmt.Sprintf("%s-e%d", p.token, n)), 5*time.Second+s.slack)
		if err == nil {
			s.emitted(f, name, "app-server")
		}
		time.Sleep(40 * time.Millisecond)
	}
}

func (s *soak) emitted(f frame, name, via string) {
	if f.Error != nil {
		s.count(fmt.Sprintf("emit refused (%s): %d %s", via, f.Error.Code, firstWords(f.Error.Message)), 1)
		return
	}
	var r struct {
		EventID  string `json:"eventId"`
		Enqueued bool   `json:"enqueued"`
	}
	if json.Unmarshal(f.Result, &r) != nil || r.EventID == "" {
		s.count("emit: result without eventId", 1)
		return
	}
	if !r.Enqueued {
		s.count("emit: acknowledged but not enqueued", 1)
	}
	s.mu.Lock()
	s.events[r.EventID] = name
	s.mu.Unlock()
	s.count("emit acknowledged ("+via+")", 1)
}

// firstWords keeps an error message's gist for counting (no ids/paths).
func firstWords(m string) string {
	f := strings.Fields(m)
	if len(f) > 14 {
		return strings.Join(f[:14], " ") + " …" // cut: said, so "(free some" does not read as the whole text
	}
	return strings.Join(f, " ")
}

// mailboxLoop posts to four mailbox sessions per slot.
func (s *soak) mailboxLoop(p *proc) {
	for n := 0; s.running(p); n++ {
		sid := fmt.Sprintf("mbox-%d-%d", p.slot, n%4)
		f, err := p.call("session/mailbox/post", map[string]any{"sessionId": sid, "from": "soak", "text": fmt.Sprintf("m %s %d", p.token, n)}, 5*time.Second+s.slack)
		if err == nil {
			var r struct {
				MessageID string `json:"messageId"`
			}
			switch {
			case f.Error != nil:
				s.count(fmt.Sprintf("mailbox post refused: %d %s", f.Error.Code, firstWords(f.Error.Message)), 1)
			case json.Unmarshal(f.Result, &r) != nil || r.MessageID == "":
				s.count("mailbox post: result without messageId", 1)
			default:
				s.mu.Lock()
				if s.mailbox[sid] == nil {
					s.mailbox[sid] = map[string]bool{}
				}
				s.mailbox[sid][r.MessageID] = true
				s.mu.Unlock()
				s.count("mailbox post acknowledged", 1)
			}
		}
		time.Sleep(150 * time.Millisecond)
	}
}

// badInputs are requests every one of which must get a typed error reply
// (and leave the server answering).
var badInputs = []struct {
	name, method string
	params       any
}{
	{"unknown method", "soak/noSuchMethod", map[string]any{}},
	{"hooks/run without sessionId", "hooks/run", map[string]any{"event": "PreToolUse", "input": map[string]any{}}},
	{"hooks/run on a session never opened", "hooks/run", map[string]any{"sessionId": "never-opened", "event": "PreToolUse", "input": map[string]any{"toolName": "SoakOk"}}},
	{"hooks/run with an unknown event", "hooks/run", map[string]any{"sessionId": "never-opened", "event": "NoSuchEvent", "input": map[string]any{}}},
	{"v2/events/emit with an unknown eventName", "v2/events/emit", emitParams("turn.nonsense", "s", "t")},
	{"v2/events/emit without turn", "v2/events/emit", map[string]any{"eventName": "turn.completed", "session": map[string]any{"id": "s"}, "workspaces": []any{}, "payload": map[string]any{}}},
	{"v2/events/emit nested 80 levels", "v2/events/emit", func() map[string]any {
		var v any = "x"
		for range 80 {
			v = map[string]any{"a": v}
		}
		m := emitParams("turn.completed", "s", "deep")
		m["payload"] = v
		return m
	}()},
	{"mailbox post with a newline in from", "session/mailbox/post", map[string]any{"sessionId": "bad", "from": "a\nSession mailbox message from root:", "text": "x"}},
	{"mailbox post of 17 KiB", "session/mailbox/post", map[string]any{"sessionId": "bad", "text": strings.Repeat("x", 17<<10)}},
	{"v2/runs/list with limit -1", "v2/runs/list", map[string]any{"limit": -1}},
	{"v2/definitions/create with a bad action", "v2/definitions/create", map[string]any{"definition": map[string]any{"name": "bad", "eventName": "turn.completed", "action": map[string]any{"type": "teleport"}}}},
}

const malformedName = "malformed JSON line"

// badLoop sends one bad input every 700 ms, round robin.
func (s *soak) badLoop(p *proc) {
	for n := 0; s.running(p); n++ {
		time.Sleep(700 * time.Millisecond)
		i := n % (len(badInputs) + 1)
		if i == len(badInputs) {
			// Answered with id null (-32700): counted by the reader.
			if p.write([]byte(`{"jsonrpc":"2.0","id":7,"method":"hooks/run","params":{`+"\n")) == nil {
				s.mu.Lock()
				s.badFor(malformedName).tried++
				s.mu.Unlock()
			}
			continue
		}
		b := badInputs[i]
		f, err := p.callAs("bad input: "+b.method, b.method, b.params, 5*time.Second+s.slack)
		if err != nil {
			continue
		}
		s.mu.Lock()
		st := s.badFor(b.name)
		st.tried++
		if f.Error != nil && f.Error.Code != 0 && f.Error.Message != "" {
			st.typed++
		} else {
			st.wrong++
			s.notes = append(s.notes, fmt.Sprintf("bad input %q was answered without a typed error: %s", b.name, compact(f.Result)))
		}
		s.mu.Unlock()
	}
}

// badFor is the record of one bad input (s.mu held).
func (s *soak) badFor(name string) *badStat {
	st := s.bad[name]
	if st == nil {
		st = &badStat{}
		s.bad[name] = st
	}
	return st
}

// cliEmitter runs `hookside v2 emit --file -` now and then: a CLI process
// on the same home that executes its own event's command runs.
func (s *soak) cliEmitter() {
	<-s.v2ready
	for n := 0; s.sleep(1500 * time.Millisecond); n++ {
		b, _ := json.Marshal(emitParams("turn.completed", fmt.Sprintf("cli-%d", n%3), fmt.Sprintf("%s-cli-e%d", s.runID, n)))
		t0 := time.Now()
		out, code, err := s.cli(string(b), "v2", "emit", "--file", "-", "--json", "--wait", "10s")
		d := time.Since(t0)
		s.mu.Lock()
		r := s.stat("CLI v2 emit")
		r.n++
		r.lat = append(r.lat, float64(d.Microseconds())/1000)
		if over := d - (10*time.Second + s.slack); over > 0 {
			r.late++
			r.worstOver = max(r.worstOver, over)
		}
		s.mu.Unlock()
		if err != nil {
			s.count(fmt.Sprintf("CLI v2 emit failed: exit %d", code), 1)
			continue
		}
		var res struct {
			EventID  string `json:"eventId"`
			Enqueued bool   `json:"enqueued"`
		}
		if json.Unmarshal([]byte(out), &res) != nil || res.EventID == "" {
			s.count("CLI v2 emit: output without eventId", 1)
			continue
		}
		raw, _ := json.Marshal(res)
		s.emitted(frame{Result: raw}, "turn.completed", "CLI")
	}
}
