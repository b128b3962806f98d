package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
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
	cmd := exec.Command(os.Args[0], args...)
	cmd.Dir = e.ws
	cmd.Env = append(os.Environ(), envAsBinary+"=1", "HOOKSIDE_HOME="+e.home, "HOME="+e.userHome, "USERPROFILE="+e.userHome)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatalf("hookside %v: %v", args, err)
		}
		code = ee.ExitCode()
	}
	return code, out.String(), errb.String()
}

// oneHook is an events map with one unmatched hook on event.
func oneHook(event string, h map[string]any) map[string]any {
	return map[string]any{event: []any{map[string]any{"hooks": []any{h}}}}
}
