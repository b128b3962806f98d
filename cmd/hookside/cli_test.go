package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	hexec "github.com/hookside/hookside/runner/exec"
)

// With envAsBinary=1 the test binary is the hookside binary: main's run
// with the process's arguments, real stdin/stdout/stderr and exit status.
const envAsBinary = "HOOKSIDE_TEST_AS_BINARY"

// cliEnv is a hermetic home, user home and workspace for the binary.
type cliEnv struct {
	root, home, userHome, ws string
}

func newCLIEnv(t *testing.T) cliEnv {
	t.Helper()
	root := t.TempDir()
	e := cliEnv{root: root, home: filepath.Join(root, "home"), userHome: filepath.Join(root, "userhome"), ws: filepath.Join(root, "ws")}
	writeFiles(t, map[string]string{
		filepath.Join(e.ws, ".git", "HEAD"):       "ref: refs/heads/main\n",
		filepath.Join(e.userHome, ".keep"):        "",
		filepath.Join(e.home, "config.json.keep"): "",
	})
	return e
}

// userConfig writes the user config (hooks enabled) with events.
func (e cliEnv) userConfig(t *testing.T, events map[string]any) {
	t.Helper()
	b, err := json.Marshal(map[string]any{"hooks": map[string]any{"enabled": true, "events": events}})
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, map[string]string{filepath.Join(e.home, "config.json"): string(b)})
}

// hookside runs the binary in the workspace with HOOKSIDE_HOME and HOME
// set to the env's directories and returns exit status, stdout, stderr.
func (e cliEnv) hookside(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	if os.Getenv(envAsBinary) != "" {
		t.Fatal("the test binary, started as hookside, ran its tests: TestMain must handle " + envAsBinary)
	}
	// Started through runner/exec, which registers its children: an
	// in-process `hooks run` of another test made this process the
	// subreaper, and its reaper collects unregistered children.
	res := hexec.Run(context.Background(), hexec.Spec{
		Argv: append([]string{os.Args[0]}, args...), Dir: e.ws,
		Env:   append(os.Environ(), envAsBinary+"=1", "HOOKSIDE_HOME="+e.home, "HOME="+e.userHome, "USERPROFILE="+e.userHome),
		Stdin: []byte(stdin), Timeout: time.Minute, KillGrace: time.Second, MaxOutputBytes: 1 << 20,
	})
	if res.StartErr != nil || res.TimedOut {
		t.Fatalf("hookside %v: %v (timed out %v)", args, res.StartErr, res.TimedOut)
	}
	return res.ExitCode, string(res.Stdout), string(res.Stderr)
}

// oneHook is an events map with one unmatched hook on event.
func oneHook(event string, h map[string]any) map[string]any {
	return map[string]any{event: []any{map[string]any{"hooks": []any{h}}}}
}
