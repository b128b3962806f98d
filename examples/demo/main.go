// Command demo plays an agent host and tours the product over real pipes:
// it spawns `hookside app-server --stdio` with a temporary HOOKSIDE_HOME,
// holding the user config examples/home/config.json (its ${EXAMPLES} filled
// in with the absolute path of examples/), and a copy of examples/workspace.
//
//  1. Shell hooks: the seven events through the example hook scripts.
//  2. Workspace trust: the workspace's own hook is pending trust, is
//     reviewed and granted, runs, then goes stale when its pinned script
//     is edited.
//  3. V2: a turn.completed event becomes a notification the demo host shows
//     (host/notification/show).
//
// It prints every request and the merged answer, checks each expected step
// and exits 1 naming the first one that did not happen. Everything lives in
// one temporary directory, removed at the end.
//
// Usage: go run ./examples/demo -bin ./bin/hookside -examples examples
package main

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

func main() {
	bin := flag.String("bin", "bin/hookside", "the hookside binary")
	examples := flag.String("examples", "examples", "the examples directory")
	flag.Parse()
	if err := run(os.Stdout, *bin, *examples); err != nil {
		fmt.Fprintln(os.Stderr, "demo: FAILED:", err)
		os.Exit(1)
	}
}

// prerequisites are the interpreters the example hooks are written for.
var prerequisites = []string{"bash", "jq", "python3", "node"}

// step is one request of the tour; check returns why the answer is not the
// expected one (nil: it is).
type step struct {
	title  string
	method string
	params any
	check  func(res json.RawMessage) error
}

// tour is one demo run: the connection and the temporary directories.
type tour struct {
	w       io.Writer
	h       *host
	home    string
	ws      string
	section int
}

func run(w io.Writer, bin, examples string) error {
	var missing []string
	for _, p := range prerequisites {
		if _, err := exec.LookPath(p); err != nil {
			missing = append(missing, p)
		}
	}
	if len(missing) > 0 {
		// Without them the example guards would fail open and the demo
		// would show nothing being denied.
		return fmt.Errorf("the example hooks need %s on PATH (missing: %s); install them (e.g. apt-get install jq nodejs python3)",
			strings.Join(prerequisites, ", "), strings.Join(missing, ", "))
	}
	ex, err := filepath.Abs(examples)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "hookside-demo-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	t := &tour{w: w, home: filepath.Join(tmp, "home"), ws: filepath.Join(tmp, "workspace")}
	if err := os.MkdirAll(t.home, 0o700); err != nil {
		return err
	}
	cfg, err := os.ReadFile(filepath.Join(ex, "home", "config.json"))
	if err != nil {
		return err
	}
	cfg = []byte(strings.ReplaceAll(string(cfg), "${EXAMPLES}", ex))
	if err := os.WriteFile(filepath.Join(t.home, "config.json"), cfg, 0o600); err != nil {
		return err
	}
	if err := os.CopyFS(t.ws, os.DirFS(filepath.Join(ex, "workspace"))); err != nil {
		return err
	}

	cmd := exec.Command(bin, "app-server", "--stdio", "--log-level", "warn")
	cmd.Env = append(os.Environ(), "HOOKSIDE_HOME="+t.home)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start %s: %w (run `make build` first)", bin, err)
	}
	t.h = newHost(w, stdin, stdout)
	fmt.Fprintf(w, "hookside demo: home %s, workspace %s\n", t.home, t.ws)
	err = t.play()
	stdin.Close()
	if werr := cmd.Wait(); err == nil && werr != nil {
		err = fmt.Errorf("hookside exited: %w", werr)
	}
	if err != nil {
		cmd.Process.Kill()
		return err
	}
	fmt.Fprintf(w, "notifications received: %v\nhookside exited with status 0\n", t.h.noteCounts())
	fmt.Fprintln(w, "demo: every expected step happened")
	return nil
}

func (t *tour) heading(title string) {
	t.section++
	line := fmt.Sprintf("%d. %s", t.section, title)
	fmt.Fprintf(t.w, "\n%s\n%s\n\n", line, strings.Repeat("═", len([]rune(line))))
}

// do plays the steps in order and stops at the first that fails.
func (t *tour) do(steps ...step) error {
	for _, s := range steps {
		if _, err := t.step(s); err != nil {
			return err
		}
	}
	return nil
}

func (t *tour) step(s step) (json.RawMessage, error) {
	fmt.Fprintf(t.w, "── %s\n", s.title)
	res, err := t.h.call(s.method, s.params)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.title, err)
	}
	fmt.Fprintf(t.w, "   ← %s\n\n", summarize(s.method, res))
	if s.check != nil {
		if err := s.check(res); err != nil {
			return nil, fmt.Errorf("%s: %w", s.title, err)
		}
	}
	return res, nil
}

func (t *tour) play() error {
	t.heading("Shell hooks: a session through the seven events")
	if err := t.shellHooks(); err != nil {
		return err
	}
	t.heading("Workspace trust: pending, reviewed, granted, then stale")
	if err := t.workspaceTrust(); err != nil {
		return err
	}
	t.heading("V2: turn.completed becomes a notification the host shows")
	if err := t.lifecycleNotification(); err != nil {
		return err
	}
	t.heading("Shut down")
	if err := t.do(
		step{title: "close the seven-event session", method: "session/close", params: map[string]any{"sessionId": "demo-1"}},
		step{title: "close the workspace-trust session", method: "session/close", params: map[string]any{"sessionId": "demo-2"}},
		step{title: "shut down", method: "shutdown"},
	); err != nil {
		return err
	}
	return t.h.notify("exit", nil)
}

// newTurnID is a random turn id: V2 derives a turn event's id from it alone.
func newTurnID() string {
	b := make([]byte, 8)
	rand.Read(b)
	return "turn-" + hex.EncodeToString(b)
}
