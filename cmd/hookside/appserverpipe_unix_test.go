//go:build unix

package main

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// TestAppServerHostClosedStdout: `hookside app-server --stdio` whose host
// closes its reading end of stdout while a hook runs (stdin stays open) is
// not killed by SIGPIPE: the failed write ends it as documented
// (docs/protocol.md, Cancellation, shutdown, exit) — one warning on stderr,
// the hook's process group killed, exit status 1.
func TestAppServerHostClosedStdout(t *testing.T) {
	e := newCLIEnv(t)
	dir := t.TempDir()
	started := filepath.Join(dir, "started")
	for _, f := range []string{"in", "out", "started"} {
		if err := syscall.Mkfifo(filepath.Join(dir, f), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	writeFiles(t, map[string]string{filepath.Join(dir, "sleepy.sh"): "#!/bin/sh\ncat > /dev/null\necho $$ > " + started + "\nexec sleep 30\n"})
	e.userConfig(t, map[string]any{"PreToolUse": []any{map[string]any{"matcher": "Bash",
		"hooks": []any{map[string]any{"type": "process", "command": filepath.Join(dir, "sleepy.sh")}}}}})
	// The shell is the host: the server's stdin and stdout are named pipes
	// it holds as fds 3 and 4. It closes fd 4 once the hook runs, sends one
	// more request and prints the server's exit status. SIGPIPE is ignored
	// in the shell only (set after the server started): a write to a server
	// that is gone fails instead of killing it.
	script := `d=$1
"$0" app-server --stdio < "$d/in" > "$d/out" 2> "$d/stderr" & srv=$!
trap '' PIPE
exec 3> "$d/in" 4< "$d/out"
printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"1","clientInfo":{"name":"t"}}}' >&3
read -r reply <&4
printf '%s\n' '{"jsonrpc":"2.0","id":2,"method":"session/open","params":{"sessionId":"s1","cwd":"'"$PWD"'"}}' >&3
read -r reply <&4
printf '%s\n' '{"jsonrpc":"2.0","id":3,"method":"hooks/run","params":{"sessionId":"s1","event":"PreToolUse","input":{"toolName":"Bash","toolInput":{"command":"ls"},"toolCallId":"c1"}}}' >&3
read -r pid < "$d/started"
exec 4<&-
printf '%s\n' '{"jsonrpc":"2.0","id":4,"method":"hooks/list","params":{"sessionId":"s1"}}' >&3
wait $srv; echo "exit $? hook $pid"`
	code, out, errs := e.shell(t, script, os.Args[0], dir)
	stderr, _ := os.ReadFile(filepath.Join(dir, "stderr"))
	f := strings.Fields(out)
	if code != 0 || len(f) != 4 || f[0] != "exit" || f[1] != "1" {
		t.Fatalf("shell: exit %d, stdout %q (want exit 1), %s\nhookside stderr:\n%s", code, out, errs, stderr)
	}
	if n := strings.Count(string(stderr), `level=WARN msg="the host closed stdout: shutting down"`); n != 1 {
		t.Errorf("want one warning that the host closed stdout, got %d:\n%s", n, stderr)
	}
	pid, err := strconv.Atoi(f[3])
	if err != nil {
		t.Fatalf("hook pid %q", f[3])
	}
	if err := syscall.Kill(-pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("the hook's process group %d is still there (kill: %v)", pid, err)
	}
}
