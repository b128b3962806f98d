package output

import (
	"bytes"
	"encoding/json"

	"github.com/hookside/hookside/internal/jsonexact"
)

// ClaudeAsyncResult is what a finished `async` command hook delivers
// (https://code.claude.com/docs/en/hooks#how-async-hooks-execute): its
// JSON's additionalContext and systemMessage, for Claude on the next turn.
// With asyncRewake, an exit 2 wakes Claude at once: Wake is set and
// WakeText is stderr, or stdout when stderr is empty (after the handler's
// rewakeMessage, when it has one); WakeSummary is the one-line notice for
// the user (the output's rewakeSummary, else the handler's).
type ClaudeAsyncResult struct {
	// HookID and Event name the handler and the event it ran for.
	HookID            string   `json:"hookId,omitempty"`
	Event             string   `json:"event,omitempty"`
	AdditionalContext []string `json:"additionalContext"`
	SystemMessage     string   `json:"systemMessage,omitempty"`
	Wake              bool     `json:"wake"`
	WakeText          string   `json:"wakeText,omitempty"`
	WakeSummary       string   `json:"wakeSummary,omitempty"`
	// HookErrors are non-blocking notices for the user, as the reply's
	// hookErrors: the output_truncated notice of a stdout or stderr that
	// reached the hook's output cap (maxOutputBytes), naming the cap in
	// bytes, as a hook run in the foreground gets; absent when none.
	HookErrors []string `json:"hookErrors,omitempty"`
}

// ClaudeAsync interprets the result of a background hook of event. As
// Claude Code does for background hooks, stdout is read line by line: the
// first line that starts with "{" and parses as an object, other than the
// async marker (ClaudeAsyncMarker), is the JSON output
// (https://github.com/anthropics/claude-code/issues/24794); a
// pretty-printed object therefore says nothing. A stream that reached
// the output cap (r.StdoutTruncated, r.StderrTruncated) puts the
// output_truncated notice in HookErrors, the one ParseClaude gives a hook
// run in the foreground (capNotice).
func ClaudeAsync(event string, rewake bool, r ProcessResult) ClaudeAsyncResult {
	res := ClaudeAsyncResult{AdditionalContext: []string{}}
	if r.TimedOut || r.SpawnError != "" || r.Skipped {
		return res
	}
	if n := capNotice(r); n != "" {
		res.HookErrors = []string{n}
	}
	if f, ok := firstJSONLine(r.Stdout); ok && claudeValidate(event, f) == "" {
		var a ClaudeAnswer
		if hso := claudeHSO(event, f, &a); hso != nil {
			if s, ok := claudeString(hso["additionalContext"]); ok && !isBlank(s) {
				res.AdditionalContext = append(res.AdditionalContext, s)
			}
		}
		res.SystemMessage, _ = claudeString(f["systemMessage"])
		res.WakeSummary, _ = claudeString(f["rewakeSummary"])
	}
	if rewake && r.ExitCode == 2 {
		res.Wake = true
		res.WakeText = firstNonBlank(validString(string(trim(r.Stderr))), validString(string(trim(r.Stdout))))
	}
	return res
}

// ClaudeAsyncMarker reports whether a command hook's stdout starts with
// Claude Code's runtime async marker: a first line that is a JSON object
// with "async": true (e.g. {"async": true, "asyncTimeout": 180000}). Such
// a hook asks to be treated as a background hook: its output is delivered
// with the next reply, as ClaudeAsync reads it.
func ClaudeAsyncMarker(stdout []byte) bool {
	line, _, _ := bytes.Cut(bytes.TrimLeft(stdout, " \t\r\n"), []byte("\n"))
	return isAsyncMarker(bytes.TrimSpace(line))
}

func isAsyncMarker(line []byte) bool {
	if len(line) == 0 || line[0] != '{' {
		return false
	}
	var m struct {
		Async *bool `json:"async"`
	}
	return jsonexact.Unmarshal(line, &m) == nil && m.Async != nil && *m.Async
}

// firstJSONLine returns the first line of out that starts with "{" and
// is a JSON object, skipping async markers.
func firstJSONLine(out []byte) (map[string]json.RawMessage, bool) {
	for _, line := range bytes.Split(out, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] != '{' || isAsyncMarker(line) {
			continue
		}
		return claudeObject(line)
	}
	return nil, false
}
