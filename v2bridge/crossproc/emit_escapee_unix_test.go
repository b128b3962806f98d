//go:build unix

package crossproc

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestEmitKillsWhatACommandActionLeftBehind: a command action run by the
// CLI's `hookside v2 emit` that starts processes outside its process group
// (setsid, and a double fork into a new session) leaves none of them
// running once the emit has returned, as under app-server and `hooks run`.
// Before, the CLI was not the subreaper of its actions and did not sweep
// their run token, so about one such process in three outlived it.
func TestEmitKillsWhatACommandActionLeftBehind(t *testing.T) {
	home, dir := t.TempDir(), t.TempDir()
	env := append(os.Environ(), "HOOKSIDE_HOME="+home, "HOOKSIDE_V2_MAINTENANCE_MS=600000")
	script := filepath.Join(dir, "escape.sh")
	// Each escapee writes its pid (renamed into place whole) and the
	// action waits for both files, so that both exist before it exits.
	body := `#!/bin/sh
d="$1"
setsid sh -c 'echo $$ > "$0/a.tmp" && mv "$0/a.tmp" "$0/a"; exec sleep 300' "$d" &
( setsid sh -c 'echo $$ > "$0/b.tmp" && mv "$0/b.tmp" "$0/b"; exec sleep 300' "$d" & )
while [ ! -s "$d/a" ] || [ ! -s "$d/b" ]; do sleep 0.01; done
echo ok
`
	if err := os.WriteFile(script, []byte(body), 0o700); err != nil {
		t.Fatal(err)
	}
	def := filepath.Join(dir, "def.json")
	if err := os.WriteFile(def, []byte(fmt.Sprintf(`{"id":"esc","name":"E","eventName":"turn.completed","timeoutMs":10000,
		"action":{"type":"command","hook":{"type":"process","command":%q,"args":[%q]}}}`, script, filepath.Join(dir, "pids"))), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"v2", "definitions", "create", "--file", def},
		{"v2", "bindings", "create", "--hook", "esc", "--scope", "application"}} {
		if out, err := hooksideCmd(env, args...).CombinedOutput(); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
	}
	for i := range 6 {
		turn := "t" + strconv.Itoa(i)
		pids := filepath.Join(dir, "pids") // emptied for each emit
		if err := os.RemoveAll(pids); err != nil {
			t.Fatal(err)
		}
		if err := os.Mkdir(pids, 0o700); err != nil {
			t.Fatal(err)
		}
		ev := filepath.Join(dir, turn+".json")
		if err := os.WriteFile(ev, []byte(`{"eventName":"turn.completed","session":{"id":"s"},"turn":{"id":"`+turn+`"}}`), 0o600); err != nil {
			t.Fatal(err)
		}
		if out, err := hooksideCmd(env, "v2", "emit", "--file", ev, "--wait", "20s").CombinedOutput(); err != nil || !strings.Contains(string(out), "succeeded") {
			t.Fatalf("emit %s: %v\n%s", turn, err, out)
		}
		for _, name := range []string{"a", "b"} {
			b, err := os.ReadFile(filepath.Join(pids, name))
			if err != nil {
				t.Fatalf("emit %s: the action's escapee %s wrote no pid: %v", turn, name, err)
			}
			pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
			if err != nil {
				t.Fatalf("emit %s: pid file %s: %q", turn, name, b)
			}
			if alive(pid, 2*time.Second) {
				_ = syscall.Kill(pid, syscall.SIGKILL)
				t.Errorf("emit %s: escapee %s (pid %d, setsid) is still running after the emit returned", turn, name, pid)
			}
		}
	}
}

// alive reports whether pid is still a running process (not a zombie)
// after waiting up to d for it to go.
func alive(pid int, d time.Duration) bool {
	for end := time.Now().Add(d); ; time.Sleep(10 * time.Millisecond) {
		if syscall.Kill(pid, 0) != nil {
			return false
		}
		if st, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat"); err == nil {
			if f := strings.Fields(string(st[strings.LastIndexByte(string(st), ')')+1:])); len(f) > 0 && f[0] == "Z" {
				return false
			}
		}
		if time.Now().After(end) {
			return true
		}
	}
}
