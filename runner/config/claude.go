package config

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hookside/hookside/internal/fsid"
	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/internal/jsonexact"
	hmatcher "github.com/hookside/hookside/matcher"
)

// claudeExtras reads Claude Code's handler fields `if`, `asyncRewake`,
// `rewakeMessage`, `rewakeSummary` and `once`
// (https://code.claude.com/docs/en/hooks#common-fields, #command-hook-fields;
// the rewake texts as the official security-guidance plugin uses them) into h. It returns a message and the offending node
// when the declaration must be dropped.
//
//   - `if` (a string) is kept; on an event other than the five tool events
//     the handler never runs, which is reported (CodeClaudeIfNever).
//   - `asyncRewake: true` implies `async`.
//   - `once` is honoured by Claude Code only in skill frontmatter; in a
//     settings or plugin file it is ignored (CodeIgnoredField).
func (p *parser) claudeExtras(where string, n *jnode, event string, h *hook.Hook) (string, *jnode) {
	if v := n.get("if"); v.present() {
		if v.kind != jString {
			return fmt.Sprintf("if must be a string (one permission rule such as \"Bash(git *)\"), got %s", v.kind), v
		}
		if _, err := hmatcher.ParseRule(v.str); err != nil {
			return fmt.Sprintf("if %q: %v", v.str, err), v
		}
		h.If = v.str
		if !slices.Contains(hook.ClaudeIfEvents, event) {
			p.report(hook.CodeClaudeIfNever, hook.SeverityWarning, v.off,
				"%s: \"if\" is evaluated on %s only; on %s a handler with \"if\" never runs", where, strings.Join(hook.ClaudeIfEvents, ", "), event)
		}
	}
	if v := n.get("asyncRewake"); v.present() {
		if v.kind != jBool {
			return fmt.Sprintf("asyncRewake must be a boolean, got %s", v.kind), v
		}
		h.AsyncRewake = v.b
		h.Async = h.Async || v.b
	}
	for _, k := range []struct {
		key string
		dst *string
	}{{"rewakeMessage", &h.RewakeMessage}, {"rewakeSummary", &h.RewakeSummary}} {
		if v := n.get(k.key); v.present() {
			if v.kind != jString {
				return fmt.Sprintf("%s must be a string, got %s", k.key, v.kind), v
			}
			*k.dst = v.str
		}
	}
	if v := n.get("once"); v.present() {
		p.report(hook.CodeIgnoredField, hook.SeverityWarning, v.off,
			"%s: once is honoured in skill frontmatter only; ignored in settings and plugin files", where)
	}
	return "", nil
}

// httpHandler validates an `http` handler
// (https://code.claude.com/docs/en/hooks#http-hook-fields): url (an
// absolute http or https URL), headers (an object of strings),
// allowedEnvVars (an array of names), plus the common fields timeout,
// statusMessage, enabled, if. The Hook's Command is the URL, so listings
// and the workspace declaration digest cover it.
func (p *parser) httpHandler(where string, n *jnode, event string, mi, hi int) (hook.Hook, hook.Limits, bool) {
	d := p.src.Dialect
	var own hook.Limits
	bad := func(at *jnode, format string, args ...any) (hook.Hook, hook.Limits, bool) {
		p.report(hook.CodeInvalidHook, hook.SeverityError, at.off, where+": "+format+"; declaration dropped", args...)
		p.reject(at.off, event, mi, hi, hook.CodeInvalidHook, "", format, args...)
		return hook.Hook{}, hook.Limits{}, false
	}
	h := hook.Hook{Type: hook.TypeHTTP, HTTP: &hook.HTTPHandler{}}
	u := n.get("url")
	switch {
	case !u.present():
		return bad(n, "http handler without url")
	case u.kind != jString:
		return bad(u, "url must be a string, got %s", u.kind)
	}
	if pu, err := url.Parse(u.str); err != nil || (pu.Scheme != "http" && pu.Scheme != "https") || pu.Host == "" {
		return bad(u, "url %q is not an absolute http or https URL", u.str)
	}
	h.HTTP.URL, h.Command = u.str, u.str
	if hd := n.get("headers"); hd.present() {
		if hd.kind != jObject {
			return bad(hd, "headers must be an object of strings, got %s", hd.kind)
		}
		h.HTTP.Headers = make(map[string]string, len(hd.fields))
		for _, f := range hd.fields {
			if f.val.kind != jString {
				return bad(f.val, "headers.%s must be a string, got %s", f.key, f.val.kind)
			}
			if strings.ContainsAny(f.key+f.val.str, "\r\n\x00") {
				return bad(f.val, "headers.%s contains a line break or NUL", f.key)
			}
			h.HTTP.Headers[f.key] = f.val.str
		}
	}
	if av := n.get("allowedEnvVars"); av.present() {
		if av.kind != jArray {
			return bad(av, "allowedEnvVars must be an array of strings, got %s", av.kind)
		}
		for i, e := range av.elems {
			if e.kind != jString {
				return bad(e, "allowedEnvVars[%d] must be a string, got %s", i, e.kind)
			}
			h.HTTP.AllowedEnvVars = append(h.HTTP.AllowedEnvVars, e.str)
		}
	}
	if at, msg := handlerCommon(n, d, d.TimeoutFor(event), &h, &own); at != nil {
		return bad(at, "%s", msg)
	}
	for _, k := range []string{"async", "asyncRewake", "command", "args", "shell"} {
		if v := n.get(k); v.present() {
			p.report(hook.CodeIgnoredField, hook.SeverityWarning, v.off, "%s: %s does not apply to an http handler; ignored", where, k)
		}
	}
	if at, msg := ifRule(n, &h); at != nil {
		return bad(at, "%s", msg)
	}
	return h, own, true
}

// manifestHooks returns the hooks a plugin declares in
// .claude-plugin/plugin.json when it has no hooks/hooks.json
// (https://code.claude.com/docs/en/plugins-reference#hooks): an inline
// "hooks" object (returned as {"hooks": …} under the manifest's path), or a
// "hooks" path relative to the plugin root (read, at most
// hook.MaxConfigFileBytes, and never outside the root). nil when there is
// none or it cannot be read.
func manifestHooks(root, manifestPath string, manifest []byte) (string, []byte) {
	var m struct {
		Hooks json.RawMessage `json:"hooks"`
	}
	if len(manifest) == 0 || jsonexact.Unmarshal(manifest, &m) != nil || len(m.Hooks) == 0 {
		return "", nil
	}
	switch m.Hooks[0] {
	case '{':
		return manifestPath, append(append([]byte(`{"hooks":`), m.Hooks...), '}')
	case '"':
		var rel string
		if jsonexact.Unmarshal(m.Hooks, &rel) != nil || rel == "" {
			return "", nil
		}
		r, err := os.OpenRoot(root)
		if err != nil {
			return "", nil
		}
		defer r.Close()
		rel = filepath.Clean(filepath.FromSlash(strings.TrimPrefix(rel, "./")))
		data, err := fsid.ReadInRoot(r, rel, hook.MaxConfigFileBytes)
		if err != nil {
			return "", nil
		}
		return filepath.Join(root, rel), data
	}
	return "", nil
}

// handlerCommon reads the fields every Claude Code handler type takes
// (the dialect's timeout key into own, defaultMs when absent;
// statusMessage, enabled into h); a wrongly typed one is returned with
// its message (at nil: none).
func handlerCommon(n *jnode, d *hook.Dialect, defaultMs int, h *hook.Hook, own *hook.Limits) (*jnode, string) {
	if v := n.get(d.TimeoutKey); v.present() {
		ms, msg := timeoutOf(v, d.TimeoutUnitMs)
		if msg != "" {
			return v, badTimeoutLabel(d) + " " + msg
		}
		own.TimeoutMs = ms
	}
	if own.TimeoutMs == 0 {
		own.TimeoutMs = defaultMs
	}
	if own.MaxOutputBytes == 0 {
		own.MaxOutputBytes = d.MaxOutputBytes
	}
	if v := n.get("statusMessage"); v.present() {
		if v.kind != jString {
			return v, fmt.Sprintf("statusMessage must be a string, got %s", v.kind)
		}
		h.StatusMessage = v.str
	}
	if v := n.get("enabled"); v.present() {
		if v.kind != jBool {
			return v, fmt.Sprintf("enabled must be a boolean, got %s", v.kind)
		}
		e := v.b
		h.Enabled = &e
	}
	return nil, ""
}

// ifRule reads an http or delegated handler's `if` (one permission rule)
// into h; a wrongly typed or unparsable one is returned with its message
// (at nil: none).
func ifRule(n *jnode, h *hook.Hook) (*jnode, string) {
	if v := n.get("if"); v.present() {
		if v.kind != jString {
			return v, fmt.Sprintf("if must be a string, got %s", v.kind)
		}
		if _, err := hmatcher.ParseRule(v.str); err != nil {
			return v, fmt.Sprintf("if %q: %v", v.str, err)
		}
		h.If = v.str
	}
	return nil, ""
}
