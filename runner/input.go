package runner

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hookside/hookside/output"
	"github.com/hookside/hookside/runner/config"
)

// ResponsePreviewChars is how much of a Stop's responseText goes into
// responsePreview (lifecycle-hooks-and-workspace-trust §"进程钩子的协议":
// "截到 4000 字符").
const ResponsePreviewChars = 4000

// baseInput is the decoded hooks/run input: every field the host sent, kept
// verbatim, so unknown fields pass through to the hook (PROTOCOL.md §3).
type baseInput map[string]json.RawMessage

// decodeInput checks that input is a JSON object (or absent) and decodes its
// top level.
func decodeInput(raw json.RawMessage) (baseInput, error) {
	in := baseInput{}
	if len(raw) == 0 || string(raw) == "null" {
		return in, nil
	}
	if err := json.Unmarshal(raw, &in); err != nil {
		return nil, fmt.Errorf("input must be a JSON object: %w", err)
	}
	return in, nil
}

// aliases maps camelCase input fields to the snake_case names Claude
// Code–style scripts read (lifecycle-hooks-and-workspace-trust
// §"进程钩子的协议", configured-runner-input.ts:39).
var aliases = [...][2]string{
	{"toolName", "tool_name"},
	{"toolInput", "tool_input"},
	{"toolCallId", "tool_use_id"},
	{"toolResponse", "tool_response"},
	{"errorDetails", "error_details"},
	{"isInterrupt", "is_interrupt"},
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
// host's input plus the common camelCase fields and their snake_case aliases.
// transcriptPath is the per-hook temporary transcript file.
func buildStdin(in baseInput, c stdinContext, transcriptPath string) []byte {
	out := make(map[string]json.RawMessage, len(in)+24)
	for k, v := range in {
		out[k] = v
	}
	str := func(k, v string) { out[k] = mustJSON(v) }
	str("cwd", c.cwd)
	str("hookEventName", c.event)
	str("hook_event_name", c.event)
	str("mode", c.mode)
	str("permission_mode", c.mode)
	str("sessionId", c.sessionID)
	str("session_id", c.sessionID)
	str("timestamp", c.now.UTC().Format(time.RFC3339Nano))
	str("traceId", c.traceID)
	str("turnId", c.turnID)
	str("agentName", c.agentName)
	str("agent_type", c.agentName)
	str("transcript_path", transcriptPath)
	str("transcriptPath", transcriptPath)
	for _, a := range aliases {
		if v, ok := in[a[0]]; ok {
			out[a[1]] = v
		}
	}
	if c.event == config.Stop {
		var text string
		if v, ok := in["responseText"]; ok {
			_ = json.Unmarshal(v, &text)
			out["last_assistant_message"] = v
		}
		str("responsePreview", output.CutRunes(text, ResponsePreviewChars))
		active := mustJSON(c.stopHookActive)
		out["stopHookActive"] = active
		out["stop_hook_active"] = active
	}
	b, err := json.Marshal(out)
	if err != nil {
		// Values are RawMessages that came from json.Unmarshal: always valid.
		panic(err)
	}
	return b
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
// hook has ended (configured-runner-callback.ts:67 in the spec).
func (s *Session) writeTranscript(event string, in baseInput) (path string, cleanup func(), err error) {
	dir, err := s.transcriptDir()
	if err != nil {
		return "", func() {}, err
	}
	path = filepath.Join(dir, "transcript-"+strconv.FormatUint(transcriptSeq.Add(1), 10)+".jsonl")
	var content []byte
	switch event {
	case config.UserPromptSubmit:
		if p, ok := in["prompt"]; ok {
			content = transcriptLine("user", p)
		}
	case config.Stop:
		if p, ok := in["responseText"]; ok {
			content = transcriptLine("assistant", p)
		}
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", func() {}, fmt.Errorf("create transcript: %w", err)
	}
	cleanup = func() { os.Remove(path) }
	if len(content) > 0 {
		_, err = f.Write(content)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		cleanup()
		return "", func() {}, fmt.Errorf("write transcript: %w", err)
	}
	return path, cleanup, nil
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
	dir, err := os.MkdirTemp(transcriptBase(), "hookside-session-")
	if err != nil {
		return "", fmt.Errorf("create transcript dir: %w", err)
	}
	s.tmpDir = dir
	return dir, nil
}

func transcriptLine(role string, text json.RawMessage) []byte {
	b, _ := json.Marshal(map[string]any{
		"type":    role,
		"message": map[string]any{"role": role, "content": text},
	})
	return append(b, '\n')
}
