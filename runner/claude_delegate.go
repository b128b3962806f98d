package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/internal/jsonexact"
	"github.com/hookside/hookside/output"
)

// DelegateFunc runs one prompt, agent or mcp_tool handler in the host and
// returns the host's JSON result (output.Verdict for prompt and agent,
// output.MCPToolResult for mcp_tool). ctx carries the handler's timeout
// and the run's cancellation; the function returns ctx.Err() when it ends
// first. Any other error is the host's (reported as a non-blocking error).
type DelegateFunc func(ctx context.Context, call DelegatedCall) (json.RawMessage, error)

// DelegatedCall is what the host gets for one delegated handler
// (docs/protocol.md host/hook/prompt, host/hook/agent, host/hook/mcpTool).
type DelegatedCall struct {
	SessionID, RunID, HookID, Event string
	Type                            hook.HookType
	// Prompt (prompt, agent) has $ARGUMENTS replaced by the hook input
	// (SubstituteArguments); Model is the handler's ("" = the host's
	// default fast model).
	Prompt, Model string
	// Server, Tool and Arguments (mcp_tool): the handler's input with its
	// ${path} placeholders resolved against the hook input
	// (SubstituteToolInput); {} when the handler has none.
	Server, Tool string
	Arguments    json.RawMessage
	// TimeoutMs is the handler's timeout; Input the hook input JSON a
	// command handler would read on stdin.
	TimeoutMs int
	Input     json.RawMessage
}

// SubstituteArguments applies a prompt or agent handler's placeholder rule
// (https://code.claude.com/docs/en/hooks#prompt-and-agent-hook-fields):
// every "$ARGUMENTS" becomes input (the hook input JSON), "\$" is a
// literal "$" (so "\$ARGUMENTS" stays as written without the backslash),
// and everything else is kept. A prompt with no $ARGUMENTS gets the input
// appended after a blank line.
func SubstituteArguments(prompt string, input []byte) string {
	const ph = "$ARGUMENTS"
	var b strings.Builder
	found := false
	for i := 0; i < len(prompt); {
		switch {
		case strings.HasPrefix(prompt[i:], `\$`):
			b.WriteByte('$')
			i += 2
		case strings.HasPrefix(prompt[i:], ph):
			b.Write(input)
			found = true
			i += len(ph)
		default:
			b.WriteByte(prompt[i])
			i++
		}
	}
	if !found {
		b.WriteString("\n\n")
		b.Write(input)
	}
	return b.String()
}

// SubstituteToolInput resolves the ${path} placeholders in the string
// values (at any depth) of an mcp_tool handler's input
// (https://code.claude.com/docs/en/hooks#mcp-tool-hook-fields): path is a
// dot-separated walk of the hook input object (array elements by index),
// such as "tool_input.file_path"; a string value is inserted as is, any
// other value as its JSON, and a path that names nothing as "". A nil
// input gives {}.
func SubstituteToolInput(input, hookInput json.RawMessage) json.RawMessage {
	if len(input) == 0 {
		return json.RawMessage("{}")
	}
	var root any
	_ = jsonexact.Unmarshal(hookInput, &root)
	var v any
	dec := json.NewDecoder(bytes.NewReader(input))
	dec.UseNumber()
	if dec.Decode(&v) != nil {
		return json.RawMessage("{}")
	}
	out, err := json.Marshal(substituteValue(v, root))
	if err != nil {
		return json.RawMessage("{}")
	}
	return out
}

func substituteValue(v, root any) any {
	switch t := v.(type) {
	case string:
		return substitutePaths(t, root)
	case []any:
		for i := range t {
			t[i] = substituteValue(t[i], root)
		}
	case map[string]any:
		for k := range t {
			t[k] = substituteValue(t[k], root)
		}
	}
	return v
}

func substitutePaths(s string, root any) string {
	var b strings.Builder
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		b.WriteString(lookupPath(root, s[i+2:i+j]))
		s = s[i+j+1:]
	}
}

func lookupPath(root any, path string) string {
	cur := root
	for _, seg := range strings.Split(path, ".") {
		switch t := cur.(type) {
		case map[string]any:
			cur = t[seg]
		case []any:
			n, err := strconv.Atoi(seg)
			if err != nil || n < 0 || n >= len(t) {
				return ""
			}
			cur = t[n]
		default:
			return ""
		}
	}
	switch t := cur.(type) {
	case nil:
		return ""
	case string:
		return t
	}
	b, _ := json.Marshal(cur)
	return string(b)
}

// claudeDelegated runs a prompt, agent or mcp_tool handler through the
// session's Delegate with the handler's timeout.
func (s *Session) claudeDelegated(ctx context.Context, h *hook.Hook, rc *claudeRunCtx, runID string) output.DelegatedResult {
	dh := h.Delegated
	r := output.DelegatedResult{Type: h.Type, ContinueOnBlock: dh.ContinueOnBlock}
	if s.opts.Delegate == nil {
		r.Err = "no host runs " + string(h.Type) + " handlers"
		return r
	}
	transcript, cleanup, err := s.claudeTranscript(rc)
	if err != nil {
		r.Err = err.Error()
		return r
	}
	defer cleanup()
	input := bytes.TrimSuffix(claudeStdin(rc.in, rc.event, s.opts.ID, transcript, rc.cwd, s.opts.Mode), []byte("\n"))
	call := DelegatedCall{
		SessionID: s.opts.ID, RunID: runID, HookID: h.ID, Event: rc.event, Type: h.Type,
		Model: dh.Model, Server: dh.Server, Tool: dh.Tool, TimeoutMs: h.TimeoutMs, Input: input,
	}
	if h.Type == hook.TypeMCPTool {
		call.Arguments = SubstituteToolInput(dh.Input, input)
	} else {
		call.Prompt = SubstituteArguments(dh.Prompt, input)
	}
	cctx, cancel := context.WithTimeout(ctx, time.Duration(h.TimeoutMs)*time.Millisecond)
	defer cancel()
	body, err := s.opts.Delegate(cctx, call)
	switch {
	case err == nil:
		r.Body = body
	case ctx.Err() == nil && errors.Is(cctx.Err(), context.DeadlineExceeded):
		r.TimedOut = true
	default:
		r.Err = err.Error()
	}
	return r
}
