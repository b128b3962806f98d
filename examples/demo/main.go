// Command demo plays an agent host: it spawns `hookside app-server --stdio`
// over real pipes, opens a session on a copy of examples/workspace with the
// user config examples/home/config.json (whose ${EXAMPLES} is filled in with
// the absolute path of examples/), drives the seven events through the
// example hook scripts, and prints every request and merged answer.
//
// Usage: go run ./examples/demo -bin ./bin/hookside
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

func main() {
	bin := flag.String("bin", "bin/hookside", "the hookside binary")
	examples := flag.String("examples", "examples", "the examples directory")
	flag.Parse()
	if err := run(*bin, *examples); err != nil {
		fmt.Fprintln(os.Stderr, "demo:", err)
		os.Exit(1)
	}
}

type host struct {
	in     io.WriteCloser
	out    *bufio.Scanner
	nextID int
	notes  map[string]int
}

// prerequisites are the interpreters the example hooks are written for.
var prerequisites = []string{"bash", "jq", "python3", "node"}

func run(bin, examples string) error {
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
	home := filepath.Join(tmp, "home")
	ws := filepath.Join(tmp, "workspace")
	if err := os.MkdirAll(home, 0o700); err != nil {
		return err
	}
	cfg, err := os.ReadFile(filepath.Join(ex, "home", "config.json"))
	if err != nil {
		return err
	}
	cfg = []byte(strings.ReplaceAll(string(cfg), "${EXAMPLES}", ex))
	if err := os.WriteFile(filepath.Join(home, "config.json"), cfg, 0o600); err != nil {
		return err
	}
	if err := os.CopyFS(ws, os.DirFS(filepath.Join(ex, "workspace"))); err != nil {
		return err
	}

	cmd := exec.Command(bin, "app-server", "--stdio", "--log-level", "warn")
	cmd.Env = append(os.Environ(), "HOOKSIDE_HOME="+home)
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
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	h := &host{in: stdin, out: sc, notes: map[string]int{}}

	fmt.Printf("hookside demo: home %s, workspace %s\n\n", home, ws)
	steps := []struct {
		title  string
		method string
		params any
	}{
		{"handshake", "initialize", map[string]any{"protocolVersion": "1", "clientInfo": map[string]any{"name": "hookside-demo", "version": "1"}}},
		{"open a session on the workspace", "session/open", map[string]any{"sessionId": "demo-1", "cwd": ws, "agentName": "demo-agent", "mode": "build"}},
		{"SessionStart: the project notes become context", "hooks/run", run1("SessionStart", map[string]any{"source": "startup"})},
		{"UserPromptSubmit: a normal prompt gets a reminder", "hooks/run", run1("UserPromptSubmit", map[string]any{"prompt": "Fix the failing test in parser.go"})},
		{"UserPromptSubmit: a prompt with a credential is blocked (exit 2)", "hooks/run", run1("UserPromptSubmit", map[string]any{"prompt": "use api_key=abc123 for the call"})},
		{"PreToolUse: a harmless command is allowed", "hooks/run", tool("PreToolUse", "Bash", map[string]any{"command": "ls -la"})},
		{"PreToolUse: rm -rf is denied", "hooks/run", tool("PreToolUse", "Bash", map[string]any{"command": "rm -rf build/"})},
		{"PreToolUse: git push asks the user", "hooks/run", tool("PreToolUse", "Bash", map[string]any{"command": "git push origin main"})},
		{"PermissionRequest: no hook configured, nothing to say", "hooks/run", tool("PermissionRequest", "Bash", map[string]any{"command": "git push origin main"})},
		{"PostToolUse: an edit adds a reminder to the tool result", "hooks/run", post("PostToolUse", "Edit", map[string]any{"file_path": "parser.go"})},
		{"PostToolUseFailure: no hook configured", "hooks/run", post("PostToolUseFailure", "Bash", map[string]any{"command": "make"})},
		{"Stop: the first stop is sent back once to run the tests", "hooks/run", run1("Stop", map[string]any{"responseText": "Done: fixed the parser."})},
		{"Stop: the marker exists now, the turn may end", "hooks/run", run1("Stop", map[string]any{"responseText": "Tests pass; done."})},
		{"close the session", "session/close", map[string]any{"sessionId": "demo-1"}},
		{"shut down", "shutdown", nil},
	}
	for _, s := range steps {
		fmt.Printf("── %s\n", s.title)
		res, err := h.call(s.method, s.params)
		if err != nil {
			return err
		}
		fmt.Printf("   ← %s\n\n", summarize(s.method, res))
	}
	h.notify("exit", nil)
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("hookside exited: %w", err)
	}
	fmt.Printf("notifications received: %v\nhookside exited with status 0\n", h.notes)
	return nil
}

func run1(event string, input map[string]any) map[string]any {
	return map[string]any{"sessionId": "demo-1", "event": event, "turnId": "turn-1", "input": input}
}

func tool(event, name string, in map[string]any) map[string]any {
	return run1(event, map[string]any{"toolName": name, "toolInput": in, "toolCallId": "call-" + event})
}

func post(event, name string, in map[string]any) map[string]any {
	m := tool(event, name, in)
	input := m["input"].(map[string]any)
	if event == "PostToolUse" {
		input["toolResponse"] = map[string]any{"ok": true}
	} else {
		input["error"] = "make: *** [all] Error 2"
	}
	return m
}

func (h *host) send(msg map[string]any) error {
	msg["jsonrpc"] = "2.0"
	b, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	fmt.Printf("   → %s\n", b)
	_, err = h.in.Write(append(b, '\n'))
	return err
}

func (h *host) notify(method string, params any) {
	m := map[string]any{"method": method}
	if params != nil {
		m["params"] = params
	}
	_ = h.send(m)
}

func (h *host) call(method string, params any) (json.RawMessage, error) {
	h.nextID++
	id := h.nextID
	m := map[string]any{"id": id, "method": method}
	if params != nil {
		m["params"] = params
	}
	if err := h.send(m); err != nil {
		return nil, err
	}
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if !h.out.Scan() {
			return nil, fmt.Errorf("hookside closed stdout: %v", h.out.Err())
		}
		var msg struct {
			ID     *int            `json:"id"`
			Method string          `json:"method"`
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		if err := json.Unmarshal(h.out.Bytes(), &msg); err != nil {
			return nil, fmt.Errorf("bad frame %q: %w", h.out.Text(), err)
		}
		if msg.Method != "" {
			h.notes[msg.Method]++
			continue
		}
		if msg.ID == nil || *msg.ID != id {
			continue
		}
		if msg.Error != nil {
			return nil, fmt.Errorf("%s failed: %s", method, msg.Error)
		}
		return msg.Result, nil
	}
	return nil, fmt.Errorf("%s: no reply in 30 s", method)
}

// summarize prints the interesting part of a result.
func summarize(method string, res json.RawMessage) string {
	if method != "hooks/run" {
		if len(res) > 300 {
			return string(res[:300]) + "…"
		}
		return string(res)
	}
	var m struct {
		Decision       *string `json:"decision"`
		DecisionReason *string `json:"decisionReason"`
		Blocked        bool    `json:"blocked"`
		BlockReason    *string `json:"blockReason"`
		ModelContext   *string `json:"modelContext"`
		Stop           *struct {
			ContinueTurn   bool    `json:"continueTurn"`
			Continuation   *string `json:"continuation"`
			StopHookActive bool    `json:"stopHookActive"`
		} `json:"stop"`
		Runs []struct {
			Outcome  string `json:"outcome"`
			ExitCode *int   `json:"exitCode"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(res, &m); err != nil {
		return string(res)
	}
	var parts []string
	for _, r := range m.Runs {
		parts = append(parts, r.Outcome)
	}
	s := fmt.Sprintf("runs %v", parts)
	if m.Decision != nil {
		s += fmt.Sprintf(" · decision %s", *m.Decision)
		if m.DecisionReason != nil {
			s += fmt.Sprintf(" (%s)", *m.DecisionReason)
		}
	}
	if m.Blocked {
		s += " · BLOCKED"
		if m.BlockReason != nil {
			s += ": " + *m.BlockReason
		}
	}
	if m.ModelContext != nil {
		s += "\n     modelContext: " + strings.ReplaceAll(*m.ModelContext, "\n", "\n                   ")
	}
	if m.Stop != nil {
		s += fmt.Sprintf("\n     stop: continueTurn=%v stopHookActive=%v", m.Stop.ContinueTurn, m.Stop.StopHookActive)
		if m.Stop.Continuation != nil {
			s += "\n     continuation: " + strings.ReplaceAll(*m.Stop.Continuation, "\n", "\n                   ")
		}
	}
	return s
}
