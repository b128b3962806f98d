package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

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
// (raw text with a mode; "content" may also be JSON), {"$gen": …} (the
// raw text it generates), or any other JSON value (written as JSON). Text starting with "#!" is made executable
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
	// {"$gen": …} (as content or alone) is the raw text it generates.
	if obj, ok := v.(map[string]any); ok && len(obj) == 1 {
		if g, ok := obj["$gen"].(map[string]any); ok {
			v = generate(g, vars)
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
