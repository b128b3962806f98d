package config

import (
	"unicode/utf16"
	"unicode/utf8"

	"github.com/hookside/hookside/internal/hook"
)

// Rejected is a declaration, matcher group (HookIndex -1) or whole event
// (MatcherIndex and HookIndex -1) that a file declares but that was dropped
// while parsing: invalid, over a spark limit, an unsupported handler type or
// event. Every Rejected also produced a Diagnostic; the record exists so
// `hooks explain` can list what will never run and why.
type Rejected struct {
	Kind         hook.SourceKind `json:"kind"`
	Path         string          `json:"path"`
	Source       string          `json:"source"` // path:line:col of the offending value
	Event        string          `json:"event"`
	MatcherIndex int             `json:"matcherIndex"`
	HookIndex    int             `json:"hookIndex"`
	// Matcher is the matcher of a rejected declaration's group (nil: the
	// group has none, or a whole group or event was rejected).
	Matcher *string `json:"matcher,omitempty"`
	Code    string  `json:"code"`
	Command string  `json:"command,omitempty"`
	Message string  `json:"message"`
}

// SettingsFile is one parsed Claude Code–shaped settings file.
type SettingsFile struct {
	Path     string
	Kind     hook.SourceKind
	Hooks    []hook.Hook // valid declarations, limits resolved (60000 ms default)
	Rejected []Rejected
}

// ParseSettingsFile parses a settings file written in dialect d (a Claude
// Code–shaped dialect such as hook.Spark, hooks-v2-handbook §1.3):
//
//	{"hooks": {"<Event>": [{"matcher": string, "parallel": bool,
//	   "hooks": [{"type": "command", "command": string, "args": [string],
//	     "timeout": <seconds>, "async": bool, "statusMessage": string,
//	     "maxOutputBytes": int, "enabled": bool}]}]}}
//
// Other top-level keys (permissions, env, …) are ignored; a key of a matcher
// group or handler outside the group's and Claude Code's handler fields
// (claudeEntryKeys) is reported with CodeIgnoredField at the key. kind is
// SourceUser (the user settings) or SourceWorkspace (project and local
// settings, which need trust). The dialect's rules apply; for hook.Spark:
//
//   - events other than UserPromptSubmit, PreToolUse, PostToolUse, Stop are
//     skipped with CodeSparkUnsupportedEvent;
//   - a matcher on UserPromptSubmit or Stop is kept but ignored at run time
//     (CodeSparkMatcherIgnored);
//   - limits (CodeSparkLimit; the entry is dropped, its siblings load): a
//     command (with exec-form args) over Limits.MaxCommandChars, a timeout
//     over Limits.MaxTimeoutMs, hooks past the Limits.MaxCommandsPerMatcher-th
//     of a group, groups past the Limits.MaxMatchersPerEvent-th of an event;
//   - handler types other than "command" (prompt, agent, http) are skipped
//     with CodeSparkUnsupportedType;
//   - "command" with "args" is exec form: run without a shell (Hook.Type
//     becomes TypeProcess).
//
// It never panics and never fails as a whole.
func ParseSettingsFile(d *hook.Dialect, path string, data []byte, kind hook.SourceKind) (*SettingsFile, []hook.Diagnostic) {
	f := &SettingsFile{Path: path, Kind: kind}
	p := &parser{path: path, data: data, src: hook.Source{Kind: kind, Path: path, Dialect: d}}
	p.claudeShaped()
	f.Hooks = resolveHooks(p.hooks, p.own, hook.Limits{}.Or(hook.Limits{}))
	f.Rejected = p.rejects
	return f, p.diags
}

// claudeShaped parses a Claude Code–shaped file (spark settings, plugin
// hooks/hooks.json): events directly under "hooks"; other top-level keys
// are ignored.
func (p *parser) claudeShaped() {
	t, ok := p.tree()
	if !ok {
		return
	}
	if t.kind != jObject {
		p.report(hook.CodeInvalidField, hook.SeverityError, t.off, NotAnObject+", got %s", t.kind)
		return
	}
	if h := t.get("hooks"); h.present() {
		if h.kind != jObject {
			p.report(hook.CodeInvalidField, hook.SeverityError, h.off, "hooks must be an object, got %s", h.kind)
			return
		}
		p.events(h)
	}
}

// commandOf returns the "command" string of a handler node, or "".
func commandOf(n *jnode) string {
	if c := n.get("command"); c != nil && c.kind == jString {
		return c.str
	}
	return ""
}

// utf16Len is the JavaScript length of s.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		if r == utf8.RuneError {
			n++
			continue
		}
		n += utf16.RuneLen(r)
	}
	return n
}
