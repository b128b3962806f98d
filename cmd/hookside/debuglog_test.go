package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// appServerSession plays one host session against `hookside app-server
// --stdio` with args: initialize, session/open (workspace hooks on),
// hooks/run PreToolUse (a user hook runs, an untrusted workspace hook is
// refused admission), then shutdown and exit. With
// waitFor, it waits (hang guard 60 s) for a stderr line holding it before
// shutting down. It returns the server's stderr.
func appServerSession(t *testing.T, e cliEnv, waitFor string, args ...string) string {
	t.Helper()
	// Hang guard: the server is killed after 60 s, which ends every read.
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], append([]string{"app-server", "--stdio"}, args...)...)
	cmd.Dir = e.ws
	cmd.Env = append(os.Environ(), envAsBinary+"=1", "HOOKSIDE_HOME="+e.home, "HOME="+e.userHome)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Wait's status is not checked: another test's in-process `hooks run`
	// may have made this process a subreaper that reaps it first.
	defer func() { _ = cmd.Wait() }()
	lines := make(chan string, 1024)
	var all strings.Builder
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			all.WriteString(sc.Text() + "\n")
			select {
			case lines <- sc.Text():
			default:
			}
		}
	}()
	replies := bufio.NewScanner(stdout)
	replies.Buffer(make([]byte, 1<<20), 1<<20)
	call := func(id any, method string, params any) {
		t.Helper()
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
		if _, err := stdin.Write(append(b, '\n')); err != nil {
			t.Fatal(err)
		}
		for replies.Scan() {
			var m struct{ ID any }
			if json.Unmarshal(replies.Bytes(), &m) == nil && m.ID != nil {
				return
			}
		}
		t.Fatalf("%s: no reply", method)
	}
	call(1, "initialize", map[string]any{"protocolVersion": "1", "clientInfo": map[string]any{"name": "test", "version": "0"}})
	_, _ = io.WriteString(stdin, `{"jsonrpc":"2.0","method":"initialized","params":{}}`+"\n")
	call(2, "session/open", map[string]any{"sessionId": "s1", "cwd": e.ws, "workspaceHooks": true})
	call(3, "hooks/run", map[string]any{"sessionId": "s1", "event": "PreToolUse",
		"input": map[string]any{"toolName": "Bash", "toolInput": map[string]any{"command": "ls"}, "toolCallId": "c1"}})
	if waitFor != "" {
		deadline := time.After(60 * time.Second)
	wait:
		for {
			select {
			case l := <-lines:
				if strings.Contains(l, waitFor) {
					break wait
				}
			case <-deadline:
				t.Fatalf("no %q on stderr within 60 s", waitFor)
			}
		}
	}
	call(5, "shutdown", nil)
	_, _ = io.WriteString(stdin, `{"jsonrpc":"2.0","method":"exit"}`+"\n")
	_ = stdin.Close()
	<-done
	return all.String()
}

func debugLogEnv(t *testing.T) cliEnv {
	e := newCLIEnv(t)
	e.userConfig(t, oneHook("PreToolUse", map[string]any{"type": "command", "command": "echo 'token=supersecret123' >&2; exit 0"}))
	writeFiles(t, map[string]string{filepath.Join(e.ws, "zcode.json"): zcodeDecls(map[string]any{"type": "command", "command": "true"})})
	return e
}

// TestAppServerDebugLog: at --log-level debug a whole session logs each
// request (method, id, duration), each hook process (hook id, argv[0], pid,
// exit, duration) and each admission decision, and no hook output; at the
// default level (info) none of those lines.
func TestAppServerDebugLog(t *testing.T) {
	e := debugLogEnv(t)
	log := appServerSession(t, e, "", "--log-level", "debug")
	for _, want := range []string{
		`msg=request method=initialize id=1 durationMs=`,
		`msg=request method=hooks/run id=3 durationMs=`,
		`msg="hook process" hookId=user:`, `argv0=sh pid=`, `exitCode=0 durationMs=`,
		`msg=admission hookId=workspace:`, `state=pending_trust`, `admitted=false`,
		`msg="session loaded" session=s1`,
	} {
		if !strings.Contains(log, want) {
			t.Errorf("debug log lacks %q:\n%s", want, log)
		}
	}
	if strings.Contains(log, "supersecret123") {
		t.Errorf("debug log holds hook output:\n%s", log)
	}
	log = appServerSession(t, e, "")
	for _, bad := range []string{"msg=request", `msg="hook process"`, "msg=admission", `msg="v2 event dispatched"`, `msg="session loaded"`} {
		if strings.Contains(log, bad) {
			t.Errorf("info log holds %q:\n%s", bad, log)
		}
	}
}

// TestVerboseFlag: -v/--verbose on the shell commands logs what was loaded
// from where, admission decisions and hook processes to stderr.
func TestVerboseFlag(t *testing.T) {
	e := debugLogEnv(t)
	in := `{"toolName":"Bash","toolInput":{"command":"ls"}}`
	_, _, errs := e.hookside(t, in, "hooks", "run", "--event", "PreToolUse", "--input", "-", "-v")
	for _, want := range []string{`msg="session loaded"`, `msg="hooks loaded" source=user path=` + filepath.Join(e.home, "config.json"),
		`msg="workspace hooks" feature=true root=` + e.ws, `msg=admission`, `msg="hook process"`} {
		if !strings.Contains(errs, want) {
			t.Errorf("hooks run -v lacks %q:\n%s", want, errs)
		}
	}
	for _, args := range [][]string{{"hooks", "list", "--verbose"}, {"hooks", "explain", "--event", "Stop", "-v"}, {"hooks", "trust", "status", "-v"}} {
		_, _, errs := e.hookside(t, "", args...)
		if !strings.Contains(errs, `msg="session loaded"`) {
			t.Errorf("%v: no debug log:\n%s", args, errs)
		}
	}
	for _, args := range [][]string{{"version", "-v"}, {"v2", "runs", "list", "-v"}} {
		if code, _, errs := e.hookside(t, "", args...); code != 0 {
			t.Errorf("%v: exit %d %s", args, code, errs)
		}
	}
	if _, _, errs := e.hookside(t, in, "hooks", "run", "--event", "PreToolUse", "--input", "-"); strings.Contains(errs, "level=DEBUG") {
		t.Errorf("debug lines without -v:\n%s", errs)
	}
}

// TestLogLevelErrorNamesTheLevels: an unknown --log-level names the
// accepted levels, not slog's parser.
func TestLogLevelErrorNamesTheLevels(t *testing.T) {
	code, _, errs := runCLI("app-server", "--stdio", "--log-level", "bogus", "--home", t.TempDir())
	if code != exitUsage || !strings.Contains(errs, `--log-level: want debug, info, warn or error, not "bogus"`) || strings.Contains(errs, "slog") {
		t.Fatalf("exit %d %s", code, errs)
	}
}
