// Package conformance runs scripted end-to-end cases against the hookside
// binary over real pipes (see README.md for the case format).
package conformance

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Case is one conformance case file.
type Case struct {
	Name        string                     `json:"name"`
	Description string                     `json:"description"`
	Files       map[string]json.RawMessage `json:"files"`
	Args        []string                   `json:"args"`
	Env         map[string]string          `json:"env"`
	Framing     string                     `json:"framing"`
	Skip        string                     `json:"skip"`
	Steps       []Step                     `json:"steps"`
	// HostResponders answer server→client requests (hostsim.go).
	HostResponders []HostResponder `json:"hostResponders"`

	// ID is the case's path under cases/ without ".json" (the subtest name).
	ID string `json:"-"`
}

// Step is one action; exactly one action field is set.
type Step struct {
	Send                 json.RawMessage    `json:"send"`
	SendRaw              *string            `json:"sendRaw"`
	Expect               json.RawMessage    `json:"expect"`
	ExpectNotification   json.RawMessage    `json:"expectNotification"`
	ExpectNoNotification json.RawMessage    `json:"expectNoNotification"`
	ExpectNoResponse     *bool              `json:"expectNoResponse"`
	Sleep                *int               `json:"sleep"`
	CloseStdin           *bool              `json:"closeStdin"`
	ExpectExit           *int               `json:"expectExit"`
	WriteFile            *WriteFileStep     `json:"writeFile"`
	ExpectFile           *ExpectFileStep    `json:"expectFile"`
	ExpectProcessGone    *string            `json:"expectProcessGone"`
	Handshake            json.RawMessage    `json:"handshake"`
	Repeat               *Loop              `json:"repeat"`
	Concurrent           *Loop              `json:"concurrent"`
	Run                  *RunStep           `json:"run"`
	Symlink              *SymlinkStep       `json:"symlink"`
	ExpectGlob           *ExpectGlobStep    `json:"expectGlob"`
	AnswerRequest        *AnswerRequestStep `json:"answerRequest"`
	StartServer          *StartServerStep   `json:"startServer"`
	Kill                 *KillStep          `json:"kill"`

	// On names the server (startServer) the step talks to; "" = the
	// case's first server.
	On string `json:"on"`

	// Capture (on expect and run steps) stores values of the matched
	// message (run: of stdout parsed as JSON) in placeholders for the
	// following steps: {"NAME": "$.result.declarations[0].digest"}.
	Capture map[string]string `json:"capture"`

	// TimeoutMs bounds waiting steps (default 10000).
	TimeoutMs int `json:"timeoutMs"`
	// WithinMs is the observation window of expectNo* steps (default 300).
	WithinMs int `json:"withinMs"`
	// Count: expectNotification consumes this many matching notifications (default 1).
	Count int `json:"count"`
	// Optional: an expect that sees no response in time passes (a response
	// that arrives must still match).
	Optional bool `json:"optional"`
	// Note is a free comment.
	Note string `json:"note"`
}

// WriteFileStep writes (or replaces) a file during the case.
type WriteFileStep struct {
	Path    string          `json:"path"`
	Content json.RawMessage `json:"content"`
	Mode    string          `json:"mode"`
}

// ExpectFileStep waits for a file and matches its content.
type ExpectFileStep struct {
	Path string `json:"path"`
	// JSON, when set, is a pattern for the file parsed as JSON.
	JSON json.RawMessage `json:"json"`
	// Text, when set, is a pattern for the file's text (e.g. {"$regex": ...}).
	Text json.RawMessage `json:"text"`
	// Absent asserts the file does not exist (checked once, no waiting).
	Absent bool `json:"absent"`
}

// Loop runs Steps Count times with ${i} = 0..Count-1, one after another
// (repeat) or all at once in goroutines (concurrent).
type Loop struct {
	Count int    `json:"count"`
	Steps []Step `json:"steps"`
}

const (
	defaultTimeout = 10 * time.Second
	defaultWithin  = 300 * time.Millisecond
	exitGrace      = 5 * time.Second
)

// LoadCases reads every *.json under dir.
func LoadCases(dir string) ([]*Case, error) {
	var cases []*Case
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".json") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		var c Case
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&c); err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		rel, _ := filepath.Rel(dir, p)
		c.ID = strings.TrimSuffix(filepath.ToSlash(rel), ".json")
		if c.Name == "" || c.Description == "" || len(c.Steps) == 0 {
			return fmt.Errorf("%s: name, description and steps are required", p)
		}
		if err := validateSteps(c.Steps); err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		cases = append(cases, &c)
		return nil
	})
	sort.Slice(cases, func(i, j int) bool { return cases[i].ID < cases[j].ID })
	return cases, err
}

func validateSteps(steps []Step) error {
	for i := range steps {
		s := &steps[i]
		n := 0
		for _, set := range []bool{s.Send != nil, s.SendRaw != nil, s.Expect != nil, s.ExpectNotification != nil,
			s.ExpectNoNotification != nil, s.ExpectNoResponse != nil, s.Sleep != nil, s.CloseStdin != nil,
			s.ExpectExit != nil, s.WriteFile != nil, s.ExpectFile != nil, s.ExpectProcessGone != nil,
			s.Handshake != nil, s.Repeat != nil, s.Concurrent != nil, s.Run != nil, s.Symlink != nil,
			s.ExpectGlob != nil, s.AnswerRequest != nil, s.StartServer != nil, s.Kill != nil} {
			if set {
				n++
			}
		}
		if n != 1 {
			return fmt.Errorf("step %d: want exactly one action, have %d", i, n)
		}
		if len(s.Capture) > 0 && s.Expect == nil && s.Run == nil && s.Handshake == nil {
			return fmt.Errorf("step %d: capture needs an expect, run or handshake step", i)
		}
		for _, l := range []*Loop{s.Repeat, s.Concurrent} {
			if l != nil {
				if err := validateSteps(l.Steps); err != nil {
					return fmt.Errorf("step %d: %w", i, err)
				}
			}
		}
	}
	return nil
}

// Result is what running a case produced.
type Result struct {
	Failures []string
	Stderr   string
	Logf     func(string, ...any)
}

// runner executes one case.
type caseRun struct {
	c       *Case
	bin     string
	root    string
	vars    map[string]string
	conn    *conn
	conns   map[string]*conn // servers started by startServer steps
	framing string

	mu       sync.Mutex
	failures []string
	logf     func(string, ...any)
}

// RunCase runs c against the binary bin in the fresh directory root and
// returns the failures (empty = pass) and the server's stderr tail.
func RunCase(c *Case, bin, root string, logf func(string, ...any)) (failures []string, stderr string) {
	r := &caseRun{c: c, bin: bin, root: root, logf: logf}
	r.run()
	if r.conn != nil {
		stderr = r.conn.stderr.String()
	}
	return r.failures, stderr
}

func (r *caseRun) fail(format string, args ...any) {
	r.mu.Lock()
	r.failures = append(r.failures, fmt.Sprintf(format, args...))
	r.mu.Unlock()
}

func (r *caseRun) run() {
	home := filepath.Join(r.root, "home")
	ws := filepath.Join(r.root, "ws")
	userHome := filepath.Join(r.root, "userhome")
	for _, d := range []string{home, ws, userHome} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			r.fail("mkdir: %v", err)
			return
		}
	}
	r.vars = map[string]string{"HOME": home, "WS": ws, "ROOT": r.root}
	if err := r.writeFiles(); err != nil {
		r.fail("writing files: %v", err)
		return
	}
	args := r.c.Args
	if len(args) == 0 {
		args = []string{"app-server", "--stdio"}
	}
	framing := r.c.Framing
	for i, a := range args {
		args[i] = expand(a, r.vars)
		if a == "--framing" && i+1 < len(args) && framing == "" {
			framing = args[i+1]
		}
		if v, ok := strings.CutPrefix(a, "--framing="); ok && framing == "" {
			framing = v
		}
	}
	r.framing = framing
	conn, err := r.startServer(args, nil, framing, nil)
	if err != nil {
		r.fail("starting %s: %v", r.bin, err)
		return
	}
	r.conn = conn

	for i := range r.c.Steps {
		if err := r.step(&r.c.Steps[i], r.vars); err != nil {
			r.fail("step %d: %v", i, err)
			break
		}
	}
	r.finish()
}

// environ is the server's environment: the test's, minus HOOKSIDE_*, plus
// HOOKSIDE_HOME, HOME, the leak marker and the case's env.
func (r *caseRun) environ(home, userHome string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "HOOKSIDE_") || k == "HOME" || strings.HasPrefix(k, "CLAUDE_") || strings.HasPrefix(k, "ZCODE_") {
			continue
		}
		env = append(env, kv)
	}
	env = append(env, "HOOKSIDE_HOME="+home, "HOME="+userHome, markerVar+"="+r.root)
	keys := make([]string, 0, len(r.c.Env))
	for k := range r.c.Env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		env = append(env, k+"="+expand(r.c.Env[k], r.vars))
	}
	return env
}

// finish closes stdin, waits for the exit and checks the case-wide rules.
func (r *caseRun) finish() {
	r.finishConn(r.conn, "")
	r.finishExtra()
	if left := leftoverProcesses(r.root, 2*time.Second); len(left) > 0 {
		r.fail("hook processes left behind after the server exited:\n  %s", strings.Join(left, "\n  "))
	}
}

// finishConn closes one server's stdin, waits for its exit and checks its
// stdout rules (prefix names it in failures).
func (r *caseRun) finishConn(c *conn, prefix string) {
	_ = c.closeStdin()
	select {
	case <-c.exited:
	case <-time.After(exitGrace):
		r.fail("%sserver did not exit within %v after stdin was closed", prefix, exitGrace)
		_ = c.cmd.Process.Kill()
		<-c.exited
	}
	c.mu.Lock()
	for _, v := range c.violations {
		if c.killed && strings.Contains(v, "unterminated") {
			continue // a frame cut by kill -9
		}
		r.failures = append(r.failures, prefix+"protocol violation: "+v)
	}
	for _, m := range c.responses {
		r.failures = append(r.failures, prefix+"unexpected response (no expect step consumed it): "+m.String())
	}
	c.mu.Unlock()
}

func (r *caseRun) writeFiles() error {
	paths := make([]string, 0, len(r.c.Files))
	for p := range r.c.Files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		if err := writeCaseFile(r.root, expand(p, r.vars), r.c.Files[p], "", r.vars); err != nil {
			return err
		}
	}
	return nil
}

// writeCaseFile writes one entry of `files` (or a writeFile step). spec is
// a JSON string (raw text), an object {"content": "...", "mode": "0644"}
// (raw text with a mode; "content" may also be JSON), or any other JSON
// value (written as JSON). Text starting with "#!" is made executable
// unless a mode is given.
func writeCaseFile(root, rel string, spec json.RawMessage, mode string, vars map[string]string) error {
	var v any
	if err := json.Unmarshal(spec, &v); err != nil {
		return fmt.Errorf("%s: %w", rel, err)
	}
	if obj, ok := v.(map[string]any); ok {
		if c, has := obj["content"]; has && len(obj) <= 2 {
			if m, hasMode := obj["mode"]; hasMode || len(obj) == 1 {
				if ms, ok := m.(string); ok {
					mode = ms
				}
				v = c
			}
		}
	}
	var data []byte
	perm := os.FileMode(0o644)
	switch x := v.(type) {
	case string:
		data = []byte(expand(x, vars))
		if strings.HasPrefix(x, "#!") {
			perm = 0o755
		}
	default:
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(expandAll(x, vars)); err != nil {
			return err
		}
		data = buf.Bytes()
	}
	if mode != "" {
		m, err := strconv.ParseUint(mode, 8, 32)
		if err != nil {
			return fmt.Errorf("%s: bad mode %q", rel, mode)
		}
		perm = os.FileMode(m)
	}
	path := rel
	if !filepath.IsAbs(path) {
		path = filepath.Join(root, rel)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	// Write beside and rename, so a concurrently reading server never sees
	// a half-written file.
	tmp := path + ".conformance-tmp"
	if err := os.WriteFile(tmp, data, perm); err != nil {
		return err
	}
	if err := os.Chmod(tmp, perm); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

var placeholder = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}`)

// expand replaces ${NAME} for the names in vars and leaves every other
// ${...} alone (hook commands use ${CLAUDE_PROJECT_DIR} and the like).
func expand(s string, vars map[string]string) string {
	return placeholder.ReplaceAllStringFunc(s, func(m string) string {
		if v, ok := vars[m[2:len(m)-1]]; ok {
			return v
		}
		return m
	})
}

// expandAll expands placeholders in every string (keys included) of a decoded JSON value.
func expandAll(v any, vars map[string]string) any {
	switch x := v.(type) {
	case string:
		return expand(x, vars)
	case []any:
		out := make([]any, len(x))
		for i := range x {
			out[i] = expandAll(x[i], vars)
		}
		return out
	case map[string]any:
		if g, ok := x["$gen"].(map[string]any); ok && len(x) == 1 {
			return generate(g, vars)
		}
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[expand(k, vars)] = expandAll(e, vars)
		}
		return out
	}
	return v
}

// generate expands {"$gen": {"repeat": "ab", "count": 3, "prefix": "", "suffix": ""}}
// into a string ("ababab" between prefix and suffix): big inputs without
// big case files.
func generate(g map[string]any, vars map[string]string) string {
	rep, _ := g["repeat"].(string)
	n, _ := g["count"].(float64)
	pre, _ := g["prefix"].(string)
	suf, _ := g["suffix"].(string)
	return expand(pre, vars) + strings.Repeat(expand(rep, vars), int(n)) + expand(suf, vars)
}

func decodeExpanded(raw json.RawMessage, vars map[string]string) (any, error) {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, err
	}
	return expandAll(v, vars), nil
}

func stepTimeout(s *Step) time.Duration {
	if s.TimeoutMs > 0 {
		return time.Duration(s.TimeoutMs) * time.Millisecond
	}
	return defaultTimeout
}

func stepWithin(s *Step) time.Duration {
	if s.WithinMs > 0 {
		return time.Duration(s.WithinMs) * time.Millisecond
	}
	return defaultWithin
}

func (r *caseRun) step(s *Step, vars map[string]string) error {
	if s.StartServer != nil {
		if s.StartServer.Name == "" {
			return errors.New("startServer: a name is required")
		}
		c, err := r.startServer(s.StartServer.Args, s.StartServer.Env, r.framing, s.StartServer.HostResponders)
		if err != nil {
			return fmt.Errorf("startServer: %w", err)
		}
		r.mu.Lock()
		if r.conns == nil {
			r.conns = map[string]*conn{}
		}
		old := r.conns[s.StartServer.Name]
		r.conns[s.StartServer.Name] = c
		r.mu.Unlock()
		if old != nil {
			r.finishConn(old, fmt.Sprintf("server %q (replaced): ", s.StartServer.Name))
		}
		return nil
	}
	c, err := r.connFor(s.On)
	if err != nil {
		return err
	}
	switch {
	case s.AnswerRequest != nil:
		return r.answerRequest(c, s.AnswerRequest, vars, stepTimeout(s))
	case s.Kill != nil:
		return r.kill(c, s.Kill, stepTimeout(s))
	case s.Send != nil:
		v, err := decodeExpanded(s.Send, vars)
		if err != nil {
			return fmt.Errorf("send: %w", err)
		}
		if obj, ok := v.(map[string]any); ok {
			if _, has := obj["jsonrpc"]; !has {
				obj["jsonrpc"] = "2.0"
			}
		}
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		return c.send(b)
	case s.SendRaw != nil:
		return c.write([]byte(expand(*s.SendRaw, vars)))
	case s.Expect != nil:
		pat, err := decodeExpanded(s.Expect, vars)
		if err != nil {
			return fmt.Errorf("expect: %w", err)
		}
		got, err := r.expectResponse(c, pat, stepTimeout(s))
		var miss *noResponse
		if s.Optional && errors.As(err, &miss) {
			return nil
		}
		if err != nil {
			return err
		}
		return capture(s.Capture, got, vars)
	case s.ExpectNotification != nil:
		pat, err := decodeExpanded(s.ExpectNotification, vars)
		if err != nil {
			return fmt.Errorf("expectNotification: %w", err)
		}
		n := max(s.Count, 1)
		for i := range n {
			if err := r.expectNotification(c, pat, stepTimeout(s)); err != nil {
				if n > 1 {
					return fmt.Errorf("notification %d of %d: %w", i+1, n, err)
				}
				return err
			}
		}
		return nil
	case s.ExpectNoNotification != nil:
		pat, err := decodeExpanded(s.ExpectNoNotification, vars)
		if err != nil {
			return fmt.Errorf("expectNoNotification: %w", err)
		}
		if m, ok := pat.(string); ok {
			pat = map[string]any{"method": m}
		}
		var got *message
		c.waitFor(stepWithin(s), func() bool {
			for i := range c.notes {
				if matchValue("$", pat, c.notes[i].v, true) == nil {
					got = &c.notes[i]
					return true
				}
			}
			return false
		})
		if got != nil {
			return fmt.Errorf("expectNoNotification %s: got %s", compact(pat, 500), got)
		}
		return nil
	case s.ExpectNoResponse != nil:
		var got *message
		c.waitFor(stepWithin(s), func() bool {
			if len(c.responses) > 0 {
				got = &c.responses[0]
				return true
			}
			return false
		})
		if got != nil {
			return fmt.Errorf("expectNoResponse: got %s", got)
		}
		return nil
	case s.Sleep != nil:
		time.Sleep(time.Duration(*s.Sleep) * time.Millisecond)
		return nil
	case s.CloseStdin != nil:
		return c.closeStdin()
	case s.ExpectExit != nil:
		select {
		case <-c.exited:
		case <-time.After(stepTimeout(s)):
			return fmt.Errorf("expectExit %d: server still running after %v", *s.ExpectExit, stepTimeout(s))
		}
		c.mu.Lock()
		code, werr := c.exitCode, c.exitErr
		c.mu.Unlock()
		if code != *s.ExpectExit {
			return fmt.Errorf("expectExit: exit status %d (%v), want %d", code, werr, *s.ExpectExit)
		}
		return nil
	case s.WriteFile != nil:
		return writeCaseFile(r.root, expand(s.WriteFile.Path, vars), s.WriteFile.Content, s.WriteFile.Mode, vars)
	case s.ExpectFile != nil:
		return r.expectFile(s.ExpectFile, vars, stepTimeout(s))
	case s.ExpectProcessGone != nil:
		return expectProcessGone(expand(*s.ExpectProcessGone, vars), stepTimeout(s))
	case s.Handshake != nil:
		return r.handshake(c, s.Handshake, s.Capture, vars, stepTimeout(s))
	case s.Run != nil:
		return r.runCommand(s, vars)
	case s.Symlink != nil:
		return r.symlink(s.Symlink, vars)
	case s.ExpectGlob != nil:
		return r.expectGlob(s.ExpectGlob, vars)
	case s.Repeat != nil:
		for i := range s.Repeat.Count {
			iv := withVar(vars, "i", strconv.Itoa(i))
			for j := range s.Repeat.Steps {
				if err := r.step(&s.Repeat.Steps[j], iv); err != nil {
					return fmt.Errorf("repeat i=%d step %d: %w", i, j, err)
				}
			}
		}
		return nil
	case s.Concurrent != nil:
		errs := make([]error, s.Concurrent.Count)
		var wg sync.WaitGroup
		for i := range s.Concurrent.Count {
			wg.Go(func() {
				iv := withVar(vars, "i", strconv.Itoa(i))
				for j := range s.Concurrent.Steps {
					if err := r.step(&s.Concurrent.Steps[j], iv); err != nil {
						errs[i] = fmt.Errorf("concurrent i=%d step %d: %w", i, j, err)
						return
					}
				}
			})
		}
		wg.Wait()
		var all []error
		for _, e := range errs {
			if e != nil {
				all = append(all, e)
			}
		}
		if len(all) > 5 {
			all = append(all[:5], fmt.Errorf("… and %d more", len(all)-5))
		}
		return errors.Join(all...)
	}
	return errors.New("empty step")
}

func withVar(vars map[string]string, k, v string) map[string]string {
	out := make(map[string]string, len(vars)+1)
	for a, b := range vars {
		out[a] = b
	}
	out[k] = v
	return out
}

// expectResponse waits for the response with the pattern's id (when the
// pattern names a literal id) or the next response, and matches it.
func (r *caseRun) expectResponse(c *conn, pat any, timeout time.Duration) (map[string]any, error) {
	obj, _ := pat.(map[string]any)
	wantID, byID := obj["id"]
	if byID {
		if m, isOp := wantID.(map[string]any); isOp && isOpObject(m) {
			byID = false
		}
		if s, ok := wantID.(string); ok && strings.HasPrefix(s, "$") {
			byID = false
		}
	}
	var got message
	ok, eof := c.waitFor(timeout, func() bool {
		for i, m := range c.responses {
			if !byID || deepEqual(m.v["id"], wantID) {
				got = m
				c.responses = append(c.responses[:i:i], c.responses[i+1:]...)
				return true
			}
		}
		return false
	})
	if !ok {
		why := fmt.Sprintf("no response within %v", timeout)
		if eof {
			why = "server stdout closed before the response arrived"
		}
		return nil, &noResponse{fmt.Sprintf("expect %s: %s%s", compact(pat, 1500), why, r.pending(c))}
	}
	r.logf("<- %s", compact(got.v, 2000))
	if mm := matchValue("$", pat, got.v, true); mm != nil {
		return nil, fmt.Errorf("expect: response does not match\n    %v\n    expected: %s\n    actual:   %s", mm, compact(pat, 3000), got)
	}
	return got.v, nil
}

// noResponse is the error of an expect that saw no response.
type noResponse struct{ msg string }

func (e *noResponse) Error() string { return e.msg }

// expectNotification consumes the first buffered or incoming notification
// matching pat.
func (r *caseRun) expectNotification(c *conn, pat any, timeout time.Duration) error {
	ok, eof := c.waitFor(timeout, func() bool {
		for i, m := range c.notes {
			if matchValue("$", pat, m.v, true) == nil {
				c.notes = append(c.notes[:i:i], c.notes[i+1:]...)
				return true
			}
		}
		return false
	})
	if ok {
		return nil
	}
	why := fmt.Sprintf("none within %v", timeout)
	if eof {
		why = "server stdout closed first"
	}
	// Show the closest candidates: same method first.
	c.mu.Lock()
	defer c.mu.Unlock()
	var near []string
	method, _ := pat.(map[string]any)["method"]
	for _, m := range c.notes {
		if method == nil || deepEqual(m.v["method"], method) {
			near = append(near, fmt.Sprintf("%v\n      in %s", matchValue("$", pat, m.v, true), m))
			if len(near) == 4 {
				break
			}
		}
	}
	msg := fmt.Sprintf("expectNotification %s: %s", compact(pat, 1500), why)
	if len(near) > 0 {
		msg += "\n    unmatched candidates:\n    - " + strings.Join(near, "\n    - ")
	} else {
		msg += fmt.Sprintf("\n    (%d other notifications buffered)", len(c.notes))
	}
	return errors.New(msg)
}

// pending describes unconsumed responses, for failure messages.
func (r *caseRun) pending(c *conn) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.responses) == 0 {
		return ""
	}
	var s []string
	for i, m := range c.responses {
		if i == 4 {
			s = append(s, fmt.Sprintf("… %d more", len(c.responses)-4))
			break
		}
		s = append(s, m.String())
	}
	return "\n    unconsumed responses:\n    - " + strings.Join(s, "\n    - ")
}

func (r *caseRun) expectFile(s *ExpectFileStep, vars map[string]string, timeout time.Duration) error {
	path := expand(s.Path, vars)
	if !filepath.IsAbs(path) {
		path = filepath.Join(r.root, path)
	}
	if s.Absent {
		if _, err := os.Stat(path); err == nil {
			return fmt.Errorf("expectFile %s: exists, want absent", path)
		}
		return nil
	}
	deadline := time.Now().Add(timeout)
	var last error
	for {
		b, err := os.ReadFile(path)
		if err == nil {
			last = matchFile(b, s, vars)
			if last == nil {
				return nil
			}
		} else {
			last = err
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("expectFile %s: %v", path, last)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func matchFile(b []byte, s *ExpectFileStep, vars map[string]string) error {
	if s.JSON != nil {
		pat, err := decodeExpanded(s.JSON, vars)
		if err != nil {
			return err
		}
		var v any
		if err := json.Unmarshal(bytes.TrimSpace(b), &v); err != nil {
			return fmt.Errorf("not JSON (%v): %q", err, clip(b))
		}
		if mm := matchValue("$", pat, v, true); mm != nil {
			return fmt.Errorf("%v\n    file: %s", mm, compact(v, 3000))
		}
	}
	if s.Text != nil {
		pat, err := decodeExpanded(s.Text, vars)
		if err != nil {
			return err
		}
		if mm := matchValue("$", pat, string(b), true); mm != nil {
			return mm
		}
	}
	return nil
}

// handshake sends initialize (id "hs-init") and initialized, then, when the
// argument holds "session", session/open (id "hs-open") with sessionId
// "s1" and cwd ${WS} unless given. "initialize" overrides initialize
// params; "expectOpen" is a pattern for the session/open result.
func (r *caseRun) handshake(c *conn, raw json.RawMessage, capt map[string]string, vars map[string]string, timeout time.Duration) error {
	v, err := decodeExpanded(raw, vars)
	if err != nil {
		return err
	}
	arg, _ := v.(map[string]any)
	initParams := map[string]any{"protocolVersion": "1", "clientInfo": map[string]any{"name": "conformance", "version": "0"}}
	if o, ok := arg["initialize"].(map[string]any); ok {
		for k, x := range o {
			initParams[k] = x
		}
	}
	send := func(m map[string]any) error {
		m["jsonrpc"] = "2.0"
		b, err := json.Marshal(m)
		if err != nil {
			return err
		}
		return c.send(b)
	}
	if err := send(map[string]any{"id": "hs-init", "method": "initialize", "params": initParams}); err != nil {
		return err
	}
	if _, err := r.expectResponse(c, map[string]any{"id": "hs-init", "result": map[string]any{"protocolVersion": "1"}}, timeout); err != nil {
		return fmt.Errorf("handshake: %w", err)
	}
	if err := send(map[string]any{"method": "initialized", "params": map[string]any{}}); err != nil {
		return err
	}
	sess, ok := arg["session"].(map[string]any)
	if !ok {
		return nil
	}
	params := map[string]any{"sessionId": "s1", "cwd": vars["WS"]}
	for k, x := range sess {
		params[k] = x
	}
	if err := send(map[string]any{"id": "hs-open", "method": "session/open", "params": params}); err != nil {
		return err
	}
	want := map[string]any{"id": "hs-open", "result": map[string]any{"sessionId": params["sessionId"]}}
	if e, ok := arg["expectOpen"]; ok {
		want["result"] = e
	}
	got, err := r.expectResponse(c, want, timeout)
	if err != nil {
		return fmt.Errorf("handshake: %w", err)
	}
	return capture(capt, got, vars)
}
