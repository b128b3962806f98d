//go:build unix

package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	hexec "github.com/hookside/hookside/runner/exec"
)

// TestHooksRunAsyncOutcomes: hooks run shows each async hook's outcome on
// stderr once it ended (exit code, duration), and exits as without them.
func TestHooksRunAsyncOutcomes(t *testing.T) {
	e := newCLIEnv(t)
	e.userConfig(t, oneHook("Stop", map[string]any{"type": "command", "command": "sleep 0.2; exit 3", "async": true}))
	code, _, errs := e.hookside(t, "", "hooks", "run", "--event", "Stop")
	if code != exitOK || !regexp.MustCompile(`hookside hooks run: async hook exit 3 after [0-9]{3,} ms: sleep 0\.2; exit 3\n`).MatchString(errs) {
		t.Errorf("exit %d, stderr %q; want exit 0 and the async hook's exit 3 line", code, errs)
	}
}

// TestHooksRunSignalStopsAsync: SIGINT or SIGTERM while hooks run waits for
// its async hooks stops them (the sleep's process is gone), names each
// stopped one on stderr, shows the ended ones' outcomes, and exits as a
// shell does after the signal: 130 (SIGINT), 143 (SIGTERM).
func TestHooksRunSignalStopsAsync(t *testing.T) {
	for _, c := range []struct {
		sig  string
		exit int
	}{{"INT", 130}, {"TERM", 143}} {
		t.Run(c.sig, func(t *testing.T) {
			e := newCLIEnv(t)
			dir := t.TempDir()
			pidFile := filepath.Join(dir, "sleep.pid")
			e.userConfig(t, map[string]any{"Stop": []any{map[string]any{"hooks": []any{
				map[string]any{"type": "command", "command": "exit 4", "async": true},
				map[string]any{"type": "command", "command": "echo $$ > '" + pidFile + "'; exec sleep 30", "async": true},
			}}}})
			// A shell runs hookside in the background, sends the signal once
			// hookside says it waits, and prints hookside's exit status.
			errFile := filepath.Join(dir, "stderr")
			script := `"$0" hooks run --event Stop > /dev/null 2> "$1" & pid=$!
i=0; until grep -q 'waiting for the async hooks' "$1" && [ -s "$2" ]; do i=$((i+1)); [ $i -gt 1000 ] && break; sleep 0.01; done
kill -` + c.sig + ` $pid; wait $pid; echo "exit $?"`
			code, out, errs := e.shell(t, script, os.Args[0], errFile, pidFile)
			stderr, _ := os.ReadFile(errFile)
			if code != 0 || strings.TrimSpace(out) != "exit "+strconv.Itoa(c.exit) {
				t.Fatalf("shell: exit %d, stdout %q (want exit %d), %s\nhookside stderr:\n%s", code, out, c.exit, errs, stderr)
			}
			// The exit 4 hook has normally ended when the signal comes; on a
			// loaded machine it may still be running, and is then stopped too.
			name := "SIG" + c.sig
			wants := []string{
				"hookside hooks run: " + name + ": stopping 1 async hook(s) still running\n",
				"hookside hooks run: async hook exit 4 after ",
				"hookside hooks run: async hook stopped by " + name + " after ",
			}
			if strings.Contains(string(stderr), "stopping 2 async hook(s)") {
				wants = []string{"hookside hooks run: " + name + ": stopping 2 async hook(s) still running\n"}
				if n := strings.Count(string(stderr), "async hook stopped by "+name+" after "); n != 2 {
					t.Errorf("2 async hooks stopping, %d said stopped:\n%s", n, stderr)
				}
			}
			for _, want := range wants {
				if !strings.Contains(string(stderr), want) {
					t.Errorf("stderr lacks %q:\n%s", want, stderr)
				}
			}
			pidText, _ := os.ReadFile(pidFile)
			if pid := strings.TrimSpace(string(pidText)); pid == "" || processAlive(pid) {
				t.Errorf("the async sleep (pid %q) was not stopped", pid)
			}
		})
	}
}

// shell runs script with sh -c (args as $0, $1, …) in the workspace, with
// the environment e.hookside gives the binary, and returns exit status,
// stdout and stderr.
func (e cliEnv) shell(t *testing.T, script string, args ...string) (int, string, string) {
	t.Helper()
	res := hexec.Run(context.Background(), hexec.Spec{
		Argv: append([]string{"/bin/sh", "-c", script}, args...), Dir: e.ws,
		Env:     append(os.Environ(), envAsBinary+"=1", "HOOKSIDE_HOME="+e.home, "HOME="+e.userHome),
		Timeout: time.Minute, KillGrace: time.Second, MaxOutputBytes: 1 << 20,
	})
	if res.StartErr != nil || res.TimedOut {
		t.Fatalf("sh: %v (timed out %v)", res.StartErr, res.TimedOut)
	}
	return res.ExitCode, string(res.Stdout), string(res.Stderr)
}

// processAlive reports whether process pid (decimal) exists.
func processAlive(pid string) bool {
	n, err := strconv.Atoi(pid)
	return err == nil && syscall.Kill(n, 0) == nil
}

// TestHooksRunSignalStopsSyncHook: SIGINT or SIGTERM while hooks run waits
// for a synchronous hook (sh -c running sleep 30) stops it — the shell and
// its sleep are gone — prints no answer, says "interrupted by SIGINT" (or
// SIGTERM) on stderr and exits as after the async wait: 130, 143; on the
// zcode and the claude profile. The stopped hook did not fail by itself:
// its log line (-v) is INFO "hook cancelled" with the error "cancelled:
// interrupted by SIGINT", not WARN "hook failed … terminated by a signal".
func TestHooksRunSignalStopsSyncHook(t *testing.T) {
	for _, c := range []struct {
		profile, sig string
		exit         int
	}{{"zcode", "INT", 130}, {"zcode", "TERM", 143}, {"claude", "INT", 130}, {"claude", "TERM", 143}} {
		t.Run(c.profile+"/"+c.sig, func(t *testing.T) {
			e := newCLIEnv(t)
			dir := t.TempDir()
			shPID, sleepPID := filepath.Join(dir, "sh.pid"), filepath.Join(dir, "sleep.pid")
			h := map[string]any{"type": "command", "command": "echo $$ > '" + shPID + "'; sleep 30 & echo $! > '" + sleepPID + "'; wait"}
			if c.profile == "claude" {
				b, _ := json.Marshal(map[string]any{"hooks": oneHook("Stop", h)})
				writeFiles(t, map[string]string{filepath.Join(e.userHome, ".claude", "settings.json"): string(b)})
			} else {
				e.userConfig(t, oneHook("Stop", h))
			}
			// A shell runs hookside in the background, sends the signal once
			// the hook's sleep started, and prints hookside's exit status.
			outFile, errFile := filepath.Join(dir, "stdout"), filepath.Join(dir, "stderr")
			script := `"$0" hooks run -v --event Stop --profile "$4" > "$1" 2> "$2" & pid=$!
i=0; until [ -s "$3" ]; do i=$((i+1)); [ $i -gt 1000 ] && break; sleep 0.01; done
kill -` + c.sig + ` $pid; wait $pid; echo "exit $?"`
			code, out, errs := e.shell(t, script, os.Args[0], outFile, errFile, sleepPID, c.profile)
			stdout, _ := os.ReadFile(outFile)
			stderr, _ := os.ReadFile(errFile)
			if code != 0 || strings.TrimSpace(out) != "exit "+strconv.Itoa(c.exit) {
				t.Fatalf("shell: exit %d, stdout %q (want exit %d), %s\nhookside stderr:\n%s", code, out, c.exit, errs, stderr)
			}
			if want := "hookside hooks run: interrupted by SIG" + c.sig + ": the running hooks were stopped, nothing was decided\n"; !strings.Contains(string(stderr), want) {
				t.Errorf("stderr lacks %q:\n%s", want, stderr)
			}
			if len(stdout) != 0 {
				t.Errorf("stdout %q, want no answer", stdout)
			}
			if strings.Contains(string(stderr), "level=WARN") || strings.Contains(string(stderr), "terminated by a signal") ||
				!strings.Contains(string(stderr), `level=INFO msg="hook cancelled"`) ||
				!strings.Contains(string(stderr), `error="cancelled: interrupted by SIG`+c.sig+`"`) {
				t.Errorf("the stopped hook's log line is not INFO \"hook cancelled\" (cancelled: interrupted by SIG%s):\n%s", c.sig, stderr)
			}
			for _, f := range []string{shPID, sleepPID} {
				pidText, _ := os.ReadFile(f)
				if pid := strings.TrimSpace(string(pidText)); pid == "" || processAlive(pid) {
					t.Errorf("%s: the hook's process (pid %q) was not stopped", filepath.Base(f), pid)
				}
			}
		})
	}
}
