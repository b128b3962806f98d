package runner

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/internal/jsjson"
	"github.com/hookside/hookside/internal/jsonexact"
	"github.com/hookside/hookside/internal/jsonscan"
	"github.com/hookside/hookside/output"
)

// inputFields are the input fields the runner itself reads: the matcher's
// value, the sources of the snake_case aliases, the transcript content.
type inputFields struct {
	ToolName       json.RawMessage `json:"toolName"`
	ToolNameSnake  json.RawMessage `json:"tool_name"`
	Source         json.RawMessage `json:"source"`
	ToolInput      json.RawMessage `json:"toolInput"`
	ToolCallID     json.RawMessage `json:"toolCallId"`
	ToolResponse   json.RawMessage `json:"toolResponse"`
	ErrorDetails   json.RawMessage `json:"errorDetails"`
	IsInterrupt    json.RawMessage `json:"isInterrupt"`
	ResponseText   json.RawMessage `json:"responseText"`
	Prompt         json.RawMessage `json:"prompt"`
	StopHookActive json.RawMessage `json:"stopHookActive"`
	// StopHookActiveSnake is Claude Code's spelling of stopHookActive.
	StopHookActiveSnake json.RawMessage `json:"stop_hook_active"`
	// TranscriptPath / TranscriptPathSnake: the host's own transcript for
	// this run, given to the hook unchanged.
	TranscriptPath      json.RawMessage `json:"transcriptPath"`
	TranscriptPathSnake json.RawMessage `json:"transcript_path"`
	// PermissionSuggestions is PermissionRequest's permissionSuggestions,
	// given to hooks as permission_suggestions too.
	PermissionSuggestions json.RawMessage `json:"permissionSuggestions"`
	// Read only to check their types (checkInputTypes).
	RiskLevel     json.RawMessage `json:"riskLevel"`
	Error         json.RawMessage `json:"error"`
	Attachments   json.RawMessage `json:"attachments"`
	ToolCallCount json.RawMessage `json:"toolCallCount"`
}

// decode fills f from the top-level members of the valid JSON object raw,
// as jsonexact.Unmarshal would (exact names, escapes in names decoded, the
// last of a repeated member wins, each value raw and unchanged) but in one
// walk without reflection: this runs on every hooks/run before its hook is
// spawned, and encoding/json's reflection on a cold cache cost about 25 µs
// of it. The values alias raw.
func (f *inputFields) decode(raw []byte) {
	m, _ := jsonscan.Object(raw)
	for {
		key, val, ok := m.Next()
		if !ok {
			return
		}
		switch string(jsonscan.Name(key)) {
		case "toolName":
			f.ToolName = val
		case "tool_name":
			f.ToolNameSnake = val
		case "source":
			f.Source = val
		case "toolInput":
			f.ToolInput = val
		case "toolCallId":
			f.ToolCallID = val
		case "toolResponse":
			f.ToolResponse = val
		case "errorDetails":
			f.ErrorDetails = val
		case "isInterrupt":
			f.IsInterrupt = val
		case "responseText":
			f.ResponseText = val
		case "prompt":
			f.Prompt = val
		case "stopHookActive":
			f.StopHookActive = val
		case "stop_hook_active":
			f.StopHookActiveSnake = val
		case "transcriptPath":
			f.TranscriptPath = val
		case "transcript_path":
			f.TranscriptPathSnake = val
		case "permissionSuggestions":
			f.PermissionSuggestions = val
		case "riskLevel":
			f.RiskLevel = val
		case "error":
			f.Error = val
		case "attachments":
			f.Attachments = val
		case "toolCallCount":
			f.ToolCallCount = val
		}
	}
}

// baseInput is the hooks/run input as the host sent it (every field,
// unknown ones included, passes through to the hook: PROTOCOL.md §3) and
// the fields the runner reads, decoded in one pass without building a map.
type baseInput struct {
	raw json.RawMessage // the object, on one line ("{}" when absent)
	f   inputFields
	// splice: raw holds none of the names the runner sets, so a hook's
	// stdin is raw with the runner's fields appended (no re-encoding).
	splice bool
}

// decodeInput checks that raw is a JSON object (or absent) and decodes the
// fields the runner reads. Errors are *InputError.
func decodeInput(raw json.RawMessage) (baseInput, error) {
	in := baseInput{raw: json.RawMessage("{}"), splice: true}
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return in, nil
	}
	if raw[0] != '{' || !json.Valid(raw) {
		return in, &InputError{Reason: "must be a JSON object"}
	}
	in.f.decode(raw)
	in.raw = raw
	if bytes.IndexByte(raw, '\n') >= 0 || bytes.IndexByte(raw, '\r') >= 0 {
		var b bytes.Buffer // pretty-printed input (Content-Length framing): one line for the hook
		if json.Compact(&b, raw) == nil {
			in.raw = b.Bytes()
		}
	}
	in.splice = !hasOwnKey(in.raw)
	return in, nil
}

// ownKeys are the names buildStdin sets; an input that already has one is
// re-encoded so that the hook sees each name once, with the runner's value.
var ownKeys = map[string]bool{
	"cwd": true, "hookEventName": true, "hook_event_name": true, "mode": true, "permission_mode": true,
	"sessionId": true, "session_id": true, "timestamp": true, "traceId": true, "turnId": true,
	"agentName": true, "agent_type": true, "transcript_path": true, "transcriptPath": true,
	"tool_name": true, "tool_input": true, "tool_use_id": true, "tool_response": true,
	"error_details": true, "is_interrupt": true, "last_assistant_message": true,
	"responsePreview": true, "stopHookActive": true, "stop_hook_active": true,
	"permission_suggestions": true,
}

// hasOwnKey reports whether the top level of the (valid) object raw has a
// key in ownKeys, or a key written with escapes (compared conservatively).
func hasOwnKey(raw []byte) bool {
	m, _ := jsonscan.Object(raw)
	for {
		key, _, ok := m.Next()
		if !ok {
			return false
		}
		inner := key[1 : len(key)-1]
		if bytes.IndexByte(inner, '\\') >= 0 || ownKeys[string(inner)] {
			return true
		}
	}
}

// stdinContext is what the runner adds to every hook's input.
type stdinContext struct {
	event, cwd, mode, sessionID, traceID, turnID, agentName string
	now                                                     time.Time
	stopHookActive                                          bool
	raw                                                     json.RawMessage // the host's input, for internal hooks
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // only strings, bools and maps of those reach here
	}
	return b
}

// buildStdin returns the one line of JSON a hook reads (PROTOCOL.md §3): the
// host's input plus the common camelCase fields and their snake_case aliases,
// ended by "\n" (lifecycle-hooks-and-workspace-trust §"进程钩子的协议": 每个钩子
// 从 stdin 读到一行 JSON — a line, so `read -r line` in a shell hook succeeds).
// transcriptPath is the per-hook temporary transcript file.
func buildStdin(in baseInput, c stdinContext, transcriptPath string) []byte {
	if !in.splice {
		return buildStdinMap(in, c, transcriptPath)
	}
	b := make([]byte, 0, len(in.raw)+512+2*len(transcriptPath)+len(in.f.ToolInput)+len(in.f.ToolResponse)+len(in.f.ResponseText))
	b = append(b, in.raw[:bytes.LastIndexByte(in.raw, '}')]...)
	first := len(bytes.TrimSpace(b)) == 1 // "{": the input object is empty
	raw := func(k string, v []byte) {
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(b, '"')
		b = append(b, k...)
		b = append(b, '"', ':')
		b = append(b, v...)
	}
	str := func(k, v string) {
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(b, '"')
		b = append(b, k...)
		b = append(b, '"', ':')
		b = jsjson.AppendString(b, v)
	}
	for _, f := range stdinFields(in, c, transcriptPath) {
		if f.raw != nil {
			raw(f.key, f.raw)
		} else {
			str(f.key, f.str)
		}
	}
	return append(b, '}', '\n')
}

// stdinField is one name the runner adds to a hook's input.
type stdinField struct {
	key string
	str string          // a string value …
	raw json.RawMessage // … or a JSON value
}

// stdinFields lists the names the runner adds, in order.
func stdinFields(in baseInput, c stdinContext, transcriptPath string) []stdinField {
	fs := make([]stdinField, 0, 24)
	add := func(k, v string) { fs = append(fs, stdinField{key: k, str: v}) }
	addRaw := func(k string, v json.RawMessage) {
		if v != nil {
			fs = append(fs, stdinField{key: k, raw: v})
		}
	}
	add("cwd", c.cwd)
	add("hookEventName", c.event)
	add("hook_event_name", c.event)
	add("mode", c.mode)
	add("permission_mode", c.mode)
	add("sessionId", c.sessionID)
	add("session_id", c.sessionID)
	add("timestamp", c.now.UTC().Format(time.RFC3339Nano))
	add("traceId", c.traceID)
	add("turnId", c.turnID)
	add("agentName", c.agentName)
	add("agent_type", c.agentName)
	add("transcript_path", transcriptPath)
	add("transcriptPath", transcriptPath)
	// snake_case aliases (configured-runner-input.ts:39)
	addRaw("tool_name", in.f.ToolName)
	addRaw("tool_input", in.f.ToolInput)
	addRaw("tool_use_id", in.f.ToolCallID)
	addRaw("tool_response", in.f.ToolResponse)
	addRaw("error_details", in.f.ErrorDetails)
	addRaw("is_interrupt", in.f.IsInterrupt)
	// lifecycle-hooks-and-workspace-trust §"进程钩子的协议": permission_suggestions
	// maps permissionSuggestions when the host gives it.
	addRaw("permission_suggestions", in.f.PermissionSuggestions)
	if c.event == hook.Stop {
		var text string
		if in.f.ResponseText != nil {
			_ = jsonexact.Unmarshal(in.f.ResponseText, &text)
			addRaw("last_assistant_message", in.f.ResponseText)
		}
		add("responsePreview", output.ResponsePreview(text))
		active := json.RawMessage("false")
		if c.stopHookActive {
			active = json.RawMessage("true")
		}
		addRaw("stopHookActive", active)
		addRaw("stop_hook_active", active)
	}
	return fs
}

// buildStdinMap is buildStdin for an input that already holds names the
// runner sets: the runner's values win, each name appears once.
func buildStdinMap(in baseInput, c stdinContext, transcriptPath string) []byte {
	out := map[string]json.RawMessage{}
	_ = jsonexact.Unmarshal(in.raw, &out) // valid: decodeInput checked it
	for _, f := range stdinFields(in, c, transcriptPath) {
		if f.raw != nil {
			out[f.key] = f.raw
		} else {
			out[f.key] = mustJSON(f.str)
		}
	}
	b, err := json.Marshal(out)
	if err != nil {
		panic(err) // RawMessages from json.Unmarshal are valid
	}
	return append(b, '\n')
}

// transcriptBase is where per-session transcript directories are made:
// $TMPDIR when set, else /dev/shm when it is a writable directory (tmpfs:
// no disk metadata operations on the hot path; on this project's machines a
// directory create on the disk costs ~0.5 ms, more than the rest of a run),
// else os.TempDir().
var transcriptBase = sync.OnceValue(func() string {
	if d := os.Getenv("TMPDIR"); d != "" {
		return d
	}
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		if f, err := os.CreateTemp("/dev/shm", ".hookside-probe-"); err == nil {
			f.Close()
			os.Remove(f.Name())
			return "/dev/shm"
		}
	}
	return os.TempDir()
})

var transcriptSeq atomic.Uint64

// writeTranscript creates the temporary transcript file the hook sees as
// transcript_path: a JSONL file with the current prompt (UserPromptSubmit) or
// response (Stop), or empty for other events. It is not the session
// transcript (lifecycle-hooks-and-workspace-trust §"与 Claude Code 的兼容程度").
// Files live in the session's private directory (0700, made on first use,
// removed by Session.Close); the returned cleanup removes the file when the
// hook has ended (configured-runner-callback.ts:67 in the spec). Events
// without a prompt or response share one empty file (emptyTranscript).
func (s *Session) writeTranscript(event string, in baseInput) (path string, cleanup func(), err error) {
	content := transcriptContent(event, in)
	if len(content) == 0 {
		path, err = s.emptyTranscript()
		return path, func() {}, err
	}
	dir, err := s.transcriptDir()
	if err != nil {
		return "", func() {}, err
	}
	if path, err = createTranscript(dir, content); err != nil {
		return "", func() {}, err
	}
	return path, func() { os.Remove(path) }, nil
}

// createTranscript creates a new transcript file (0600) in dir holding
// content; nothing is left behind when it fails.
func createTranscript(dir string, content []byte) (string, error) {
	path := filepath.Join(dir, "transcript-"+strconv.FormatUint(transcriptSeq.Add(1), 10)+".jsonl")
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", fmt.Errorf("create transcript: %w", err)
	}
	_, err = f.Write(content)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = os.Remove(path)
		return "", fmt.Errorf("write transcript: %w", err)
	}
	return path, nil
}

// emptyTranscript returns the session's empty transcript file, the
// transcript_path of every hook whose event has no prompt or response: an
// empty regular file (0600) in the session's private directory, kept
// until Session.Close. Before each use it is checked (emptyIntact: one
// fstat(2) of the file kept open on Unix, an lstat(2) of its path on
// Windows): a hook that wrote into it, replaced or removed it gets a new
// one for the next hook, so every hook starts with an empty regular file,
// as with a file per hook, without a create and unlink per run.
func (s *Session) emptyTranscript() (string, error) {
	s.tmpMu.Lock()
	path, f := s.empty, s.emptyF
	s.tmpMu.Unlock()
	if path != "" && emptyIntact(path, f) {
		return path, nil
	}
	dir, err := s.transcriptDir()
	if err != nil {
		return "", err
	}
	s.tmpMu.Lock()
	defer s.tmpMu.Unlock()
	if s.empty != path { // another hook replaced it meanwhile
		return s.empty, nil
	}
	if path != "" {
		_ = os.Remove(path)
	}
	if s.emptyF != nil {
		_ = s.emptyF.Close()
		s.emptyF = nil
	}
	if path, err = createTranscript(dir, nil); err != nil {
		s.empty = ""
		return "", err
	}
	s.empty = path
	s.emptyF = openIntact(path)
	return path, nil
}

// transcriptDir returns the session's private temporary directory, making
// it on first use.
func (s *Session) transcriptDir() (string, error) {
	s.tmpMu.Lock()
	defer s.tmpMu.Unlock()
	if s.tmpDir != "" {
		if _, err := os.Stat(s.tmpDir); err == nil {
			return s.tmpDir, nil
		}
	}
	base := transcriptBase()
	sweepTranscriptDirs(base)
	dir, err := os.MkdirTemp(base, transcriptDirPrefix())
	if err != nil {
		return "", fmt.Errorf("create transcript dir: %w", err)
	}
	s.tmpDir = dir
	return dir, nil
}

// transcriptContent is what the transcript file of a hook on event holds:
// the prompt (UserPromptSubmit) or the response (Stop) as one JSONL line,
// else nothing.
func transcriptContent(event string, in baseInput) []byte {
	switch event {
	case hook.UserPromptSubmit:
		if in.f.Prompt != nil {
			return transcriptLine("user", in.f.Prompt)
		}
	case hook.Stop:
		if in.f.ResponseText != nil {
			return transcriptLine("assistant", in.f.ResponseText)
		}
	}
	return nil
}

func transcriptLine(role string, text json.RawMessage) []byte {
	b, _ := json.Marshal(map[string]any{
		"type":    role,
		"message": map[string]any{"role": role, "content": text},
	})
	return append(b, '\n')
}

// lstatEmpty reports whether path is an empty regular file (one lstat(2)).
func lstatEmpty(path string) bool {
	fi, err := os.Lstat(path)
	return err == nil && fi.Mode().IsRegular() && fi.Size() == 0
}
