package conformance

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
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
	SendRaw              *RawText           `json:"sendRaw"`
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

// RawText is a sendRaw value: a string, or an array of strings, {"$gen": …}
// objects and {"$hex": "ff fe"} objects written one after the other (a
// frame too big or too deep to spell out in a case file; bytes a JSON
// string cannot hold, such as invalid UTF-8: hex digit pairs, spaces
// ignored).
type RawText struct{ parts []any }

// UnmarshalJSON implements json.Unmarshaler.
func (t *RawText) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		t.parts = []any{s}
		return nil
	}
	if err := json.Unmarshal(b, &t.parts); err != nil {
		return fmt.Errorf("sendRaw: want a string or an array of strings and $gen objects: %w", err)
	}
	for i, p := range t.parts {
		if g, ok := p.(map[string]any); ok && len(g) == 1 && g["$gen"] != nil {
			continue
		}
		if g, ok := p.(map[string]any); ok && len(g) == 1 && g["$hex"] != nil {
			h, _ := g["$hex"].(string)
			raw, err := hex.DecodeString(strings.ReplaceAll(h, " ", ""))
			if err != nil {
				return fmt.Errorf("sendRaw[%d]: $hex: %w", i, err)
			}
			t.parts[i] = rawBytes(raw)
			continue
		}
		if _, ok := p.(string); !ok {
			return fmt.Errorf("sendRaw[%d]: want a string, a $gen or a $hex object", i)
		}
	}
	return nil
}

// rawBytes is a {"$hex": …} part of a sendRaw value, decoded.
type rawBytes []byte

// text is the bytes to write, placeholders expanded ($hex parts as they are).
func (t *RawText) text(vars map[string]string) string {
	var b strings.Builder
	for _, p := range t.parts {
		if raw, ok := p.(rawBytes); ok {
			b.Write(raw)
			continue
		}
		b.WriteString(expandAll(p, vars).(string))
	}
	return b.String()
}
