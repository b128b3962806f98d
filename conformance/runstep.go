package conformance

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// RunStep executes the binary under test as a command-line program (e.g.
// `hookside hooks trust grant …`) next to the running server, with the
// server's environment (HOOKSIDE_HOME, HOME, marker) plus Env, and checks
// its exit status and output.
type RunStep struct {
	// Args are the binary's arguments (placeholders expanded).
	Args []string `json:"args"`
	// Stdin is written to the command's stdin (then EOF); default empty.
	Stdin string `json:"stdin"`
	// Cwd is the working directory (default the case root).
	Cwd string `json:"cwd"`
	// Env is extra environment.
	Env map[string]string `json:"env"`
	// ExpectExit is the required exit status (default 0).
	ExpectExit *int `json:"expectExit"`
	// Stdout / Stderr are patterns for the output as a string
	// (e.g. {"$regex": "…"} or {"$contains": "…"}).
	Stdout json.RawMessage `json:"stdout"`
	Stderr json.RawMessage `json:"stderr"`
	// StdoutJSON is a pattern for stdout parsed as JSON.
	StdoutJSON json.RawMessage `json:"stdoutJson"`
	// MinMs / MaxMs bound how long the command took (e.g. a lock wait).
	MinMs int `json:"minMs"`
	MaxMs int `json:"maxMs"`
}

// SymlinkStep creates (or replaces) a symbolic link Path → Target.
type SymlinkStep struct {
	Path   string `json:"path"`
	Target string `json:"target"`
}

// ExpectGlobStep counts the paths matching a glob pattern.
type ExpectGlobStep struct {
	Pattern string `json:"pattern"`
	// Count is the required number of matches (default: at least one).
	Count *int `json:"count"`
}

func (r *caseRun) runCommand(s *Step, vars map[string]string) error {
	rs := s.Run
	args := make([]string, len(rs.Args))
	for i, a := range rs.Args {
		args[i] = expand(a, vars)
	}
	ctx, cancel := context.WithTimeout(context.Background(), stepTimeout(s))
	defer cancel()
	cmd := exec.CommandContext(ctx, r.bin, args...)
	ownGroup(cmd)
	cmd.Dir = r.root
	if rs.Cwd != "" {
		cmd.Dir = expand(rs.Cwd, vars)
		if !filepath.IsAbs(cmd.Dir) {
			cmd.Dir = filepath.Join(r.root, cmd.Dir)
		}
	}
	env := r.environ(filepath.Join(r.root, "home"), filepath.Join(r.root, "userhome"))
	for k, v := range rs.Env {
		env = append(env, k+"="+expand(v, vars))
	}
	cmd.Env = env
	cmd.Stdin = strings.NewReader(expand(rs.Stdin, vars))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	took := time.Since(start)
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		return fmt.Errorf("run %q: %v", args, err)
	}
	code := cmd.ProcessState.ExitCode()
	r.logf("run %q: exit %d in %s\n  stdout: %s\n  stderr: %s", args, code, took.Round(time.Millisecond), clip(stdout.Bytes()), clip(stderr.Bytes()))
	desc := func() string {
		return fmt.Sprintf("run %q (exit %d, %s)\n    stdout: %s\n    stderr: %s", args, code,
			took.Round(time.Millisecond), clip(stdout.Bytes()), clip(stderr.Bytes()))
	}
	if ctx.Err() != nil {
		return fmt.Errorf("%s: killed after %v", desc(), stepTimeout(s))
	}
	want := 0
	if rs.ExpectExit != nil {
		want = *rs.ExpectExit
	}
	if code != want {
		return fmt.Errorf("%s: exit status %d, want %d", desc(), code, want)
	}
	if rs.MinMs > 0 && took < time.Duration(rs.MinMs)*time.Millisecond {
		return fmt.Errorf("%s: took %s, want at least %d ms", desc(), took, rs.MinMs)
	}
	if rs.MaxMs > 0 && took > time.Duration(rs.MaxMs)*time.Millisecond {
		return fmt.Errorf("%s: took %s, want at most %d ms", desc(), took, rs.MaxMs)
	}
	for _, o := range []struct {
		name string
		pat  json.RawMessage
		out  []byte
	}{{"stdout", rs.Stdout, stdout.Bytes()}, {"stderr", rs.Stderr, stderr.Bytes()}} {
		if o.pat == nil {
			continue
		}
		pat, err := decodeExpanded(o.pat, vars)
		if err != nil {
			return err
		}
		if mm := matchValue("$", pat, string(o.out), true); mm != nil {
			return fmt.Errorf("%s: %s does not match: %v", desc(), o.name, mm)
		}
	}
	var parsed any
	if rs.StdoutJSON != nil || len(s.Capture) > 0 {
		if err := json.Unmarshal(bytes.TrimSpace(stdout.Bytes()), &parsed); err != nil {
			return fmt.Errorf("%s: stdout is not JSON: %v", desc(), err)
		}
	}
	if rs.StdoutJSON != nil {
		pat, err := decodeExpanded(rs.StdoutJSON, vars)
		if err != nil {
			return err
		}
		if mm := matchValue("$", pat, parsed, true); mm != nil {
			return fmt.Errorf("%s: stdout JSON does not match: %v", desc(), mm)
		}
	}
	return capture(s.Capture, parsed, vars)
}

func (r *caseRun) symlink(s *SymlinkStep, vars map[string]string) error {
	path := expand(s.Path, vars)
	if !filepath.IsAbs(path) {
		path = filepath.Join(r.root, path)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	_ = os.Remove(path)
	return os.Symlink(expand(s.Target, vars), path)
}

func (r *caseRun) expectGlob(s *ExpectGlobStep, vars map[string]string) error {
	pat := expand(s.Pattern, vars)
	if !filepath.IsAbs(pat) {
		pat = filepath.Join(r.root, pat)
	}
	m, err := filepath.Glob(pat)
	if err != nil {
		return err
	}
	if s.Count == nil && len(m) == 0 || s.Count != nil && len(m) != *s.Count {
		want := "at least 1"
		if s.Count != nil {
			want = strconv.Itoa(*s.Count)
		}
		return fmt.Errorf("expectGlob %s: %d match(es) %q, want %s", pat, len(m), m, want)
	}
	return nil
}

// capture stores values found at JSON paths of v into vars (the case's
// placeholders). A path is "$" followed by ".key" and "[n]" parts.
func capture(spec map[string]string, v any, vars map[string]string) error {
	for name, path := range spec {
		x, err := lookupPath(v, path)
		if err != nil {
			return fmt.Errorf("capture %s: %w", name, err)
		}
		switch t := x.(type) {
		case string:
			vars[name] = t
		default:
			b, _ := json.Marshal(t)
			vars[name] = string(b)
		}
	}
	return nil
}

var pathPart = regexp.MustCompile(`\.([^.\[\]]+)|\[(\d+)\]`)

func lookupPath(v any, path string) (any, error) {
	rest, ok := strings.CutPrefix(path, "$")
	if !ok {
		return nil, fmt.Errorf("path %q must start with $", path)
	}
	for _, m := range pathPart.FindAllStringSubmatch(rest, -1) {
		if m[1] != "" {
			obj, ok := v.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("%s: not an object at .%s", path, m[1])
			}
			if v, ok = obj[m[1]]; !ok {
				return nil, fmt.Errorf("%s: no key %q", path, m[1])
			}
			continue
		}
		i, _ := strconv.Atoi(m[2])
		arr, ok := v.([]any)
		if !ok || i >= len(arr) {
			return nil, fmt.Errorf("%s: no element [%d]", path, i)
		}
		v = arr[i]
	}
	return v, nil
}
