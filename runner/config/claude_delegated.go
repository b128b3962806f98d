package config

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/hookside/hookside/internal/hook"
)

// delegatedHandler validates a prompt, agent or mcp_tool handler, which
// runs only in a session whose host declared the type (the dialect then
// Runs it; hook.Dialect.WithHostTypes):
//
//   - prompt, agent (https://code.claude.com/docs/en/hooks#prompt-and-agent-hook-fields):
//     prompt (a non-empty string), model (a string), continueOnBlock (a
//     boolean, prompt only);
//   - mcp_tool (https://code.claude.com/docs/en/hooks#mcp-tool-hook-fields):
//     server and tool (non-empty strings), input (an object);
//
// plus the common fields timeout (seconds; default 30 s prompt, 60 s
// agent, the command defaults for mcp_tool), statusMessage, enabled and
// if. The Hook's Command is the handler's canonical JSON (type-specific
// fields, sorted keys), so listings and the declaration digest cover
// every field that changes what runs.
func (p *parser) delegatedHandler(where string, n *jnode, event string, t hook.HookType, mi, hi int) (hook.Hook, hook.Limits, bool) {
	d := p.src.Dialect
	var own hook.Limits
	bad := func(at *jnode, format string, args ...any) (hook.Hook, hook.Limits, bool) {
		p.report(hook.CodeInvalidHook, hook.SeverityError, at.off, where+": "+format+"; declaration dropped", args...)
		p.reject(at.off, event, mi, hi, hook.CodeInvalidHook, "", format, args...)
		return hook.Hook{}, hook.Limits{}, false
	}
	str := func(key string, required bool) (string, *jnode, bool) {
		v := n.get(key)
		switch {
		case !v.present() && required:
			return "", n, false
		case !v.present():
			return "", nil, true
		case v.kind != jString || (required && strings.TrimSpace(v.str) == ""):
			return "", v, false
		}
		return v.str, v, true
	}
	h := hook.Hook{Type: t, Delegated: &hook.DelegatedHandler{}}
	dh := h.Delegated
	if t == hook.TypeMCPTool {
		var ok bool
		var at *jnode
		if dh.Server, at, ok = str("server", true); !ok {
			return bad(at, "mcp_tool handler needs server, a non-empty string")
		}
		if dh.Tool, at, ok = str("tool", true); !ok {
			return bad(at, "mcp_tool handler needs tool, a non-empty string")
		}
		if in := n.get("input"); in.present() {
			if in.kind != jObject {
				return bad(in, "input must be an object, got %s", in.kind)
			}
			raw, err := rawAt(p.data, in.off)
			if err != nil {
				return bad(in, "input: %v", err)
			}
			dh.Input = raw
		}
		for _, k := range []string{"prompt", "model", "continueOnBlock"} {
			if v := n.get(k); v.present() {
				p.report(hook.CodeIgnoredField, hook.SeverityWarning, v.off, "%s: %s does not apply to an mcp_tool handler; ignored", where, k)
			}
		}
	} else {
		var ok bool
		var at *jnode
		if dh.Prompt, at, ok = str("prompt", true); !ok {
			return bad(at, "%s handler needs prompt, a non-empty string", t)
		}
		if dh.Model, at, ok = str("model", false); !ok {
			return bad(at, "model must be a string, got %s", at.kind)
		}
		if v := n.get("continueOnBlock"); v.present() {
			switch {
			case t == hook.TypeAgent:
				p.report(hook.CodeIgnoredField, hook.SeverityWarning, v.off, "%s: continueOnBlock applies to prompt handlers only (an agent's ok:false always continues); ignored", where)
			case v.kind != jBool:
				return bad(v, "continueOnBlock must be a boolean, got %s", v.kind)
			default:
				dh.ContinueOnBlock = v.b
			}
		}
	}
	if at, msg := handlerCommon(n, d, d.TimeoutForType(t, event), &h, &own); at != nil {
		return bad(at, "%s", msg)
	}
	if at, msg := ifRule(n, &h); at != nil {
		return bad(at, "%s", msg)
	}
	for _, k := range []string{"async", "asyncRewake", "command", "args", "shell", "url"} {
		if v := n.get(k); v.present() {
			p.report(hook.CodeIgnoredField, hook.SeverityWarning, v.off, "%s: %s does not apply to a %s handler; ignored", where, k, t)
		}
	}
	canon, _ := json.Marshal(struct {
		Type hook.HookType `json:"type"`
		*hook.DelegatedHandler
	}{t, dh})
	h.Command = string(canon)
	h.At = p.at(n.off)
	return h, own, true
}

// rawAt returns the compact JSON of the one value starting at off in data.
func rawAt(data []byte, off int) (json.RawMessage, error) {
	var raw json.RawMessage
	if err := json.NewDecoder(bytes.NewReader(data[off:])).Decode(&raw); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// typeNotOnEvent reports and rejects a handler of type t that Claude Code
// does not run on event (hook.ClaudeTypeRunsOn). It returns true when the
// declaration is dropped.
func (p *parser) typeNotOnEvent(where string, at *jnode, event string, t hook.HookType, mi, hi int) bool {
	if !p.src.Dialect.HandlerExtras || hook.ClaudeTypeRunsOn(t, event) {
		return false
	}
	p.report(hook.CodeClaudeTypeNotOnEvent, hook.SeverityWarning, at.off, "%s: Claude Code does not run %s handlers on %s; skipped", where, t, event)
	p.reject(at.off, event, mi, hi, hook.CodeClaudeTypeNotOnEvent, "", "%s handlers do not run on %s", t, event)
	return true
}
