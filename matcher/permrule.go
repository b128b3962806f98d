package matcher

import (
	"errors"
	"fmt"
	"net/url"
	"path"
	"strings"
	"unicode/utf8"
)

// This file implements the `if` field of Claude Code hook handlers: one
// permission rule, `Tool` or `Tool(specifier)`, evaluated against a tool call
// (https://code.claude.com/docs/en/hooks#common-fields, rule syntax per
// https://code.claude.com/docs/en/permissions#permission-rule-syntax).

// ErrRule is wrapped by every ParseRule error.
var ErrRule = errors.New("invalid permission rule")

// Rule is one parsed permission rule.
type Rule struct {
	// Tool is the tool name as written: "Bash", "Edit", "mcp__github",
	// "mcp__puppeteer__*", "WebFetch", "Agent".
	Tool string
	// Specifier is the text inside the parentheses ("" when there are
	// none); "*" and "" both mean every use of the tool.
	Specifier string
	bash      *bashPattern
}

// ToolCall is what a Rule is evaluated against: the hook input's tool_name
// and tool_input, and the directories path rules are relative to. Paths may
// be POSIX or Windows spellings; Windows paths are matched in POSIX form
// (C:\Users\a becomes /c/Users/a).
type ToolCall struct {
	ToolName   string
	Input      map[string]any
	Cwd        string // base of `path` and `./path` patterns
	ProjectDir string // base of `/path` patterns; Cwd when empty
	Home       string // base of `~/path` patterns; such patterns match nothing when empty
}

// IfEvents are the events on which Claude Code evaluates `if`; on any other
// event a handler with `if` set never runs
// (https://code.claude.com/docs/en/hooks#common-fields).
var IfEvents = []string{"PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest", "PermissionDenied"}

// IfApplies reports whether event is one of IfEvents.
func IfApplies(event string) bool {
	for _, e := range IfEvents {
		if e == event {
			return true
		}
	}
	return false
}

// ParseRule parses one permission rule. It fails (wrapping ErrRule) on an
// empty rule, invalid UTF-8, a tool name with characters other than ASCII letters, digits,
// "_" and "-" (an MCP rule may end in "__*"), a "(" without the closing ")"
// at the end, unbalanced parentheses, and on anything that combines rules:
// the `if` field has no `&&`, `||` or list form.
func ParseRule(s string) (Rule, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return Rule{}, fmt.Errorf("%w: empty", ErrRule)
	}
	if !utf8.ValidString(s) {
		return Rule{}, fmt.Errorf("%w: %q is not valid UTF-8", ErrRule, s)
	}
	tool, spec, hasSpec := s, "", false
	if i := strings.IndexByte(s, '('); i >= 0 {
		if !strings.HasSuffix(s, ")") {
			return Rule{}, fmt.Errorf("%w: %q: \"(\" without a closing \")\" at the end (one rule only: no &&, || or lists)", ErrRule, s)
		}
		tool, spec, hasSpec = s[:i], s[i+1:len(s)-1], true
		depth := 0
		for j := 0; j < len(spec); j++ {
			switch spec[j] {
			case '(':
				depth++
			case ')':
				if depth--; depth < 0 {
					return Rule{}, fmt.Errorf("%w: %q: one rule only (no &&, || or lists)", ErrRule, s)
				}
			}
		}
		if depth != 0 {
			return Rule{}, fmt.Errorf("%w: %q: unbalanced parentheses", ErrRule, s)
		}
	}
	if !validRuleTool(tool) {
		return Rule{}, fmt.Errorf("%w: %q: tool name %q must be letters, digits, _ and - (one rule only: no &&, || or lists)", ErrRule, s, tool)
	}
	r := Rule{Tool: tool, Specifier: strings.TrimSpace(spec)}
	if hasSpec && r.Specifier == "" {
		r.Specifier = "*"
	}
	if r.Tool == "Bash" && !r.all() {
		r.bash = compileBashPattern(r.Specifier)
	}
	return r, nil
}

func validRuleTool(t string) bool {
	t = strings.TrimSuffix(t, "__*")
	if t == "" {
		return false
	}
	for i := 0; i < len(t); i++ {
		c := t[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// String returns the rule in its canonical spelling.
func (r Rule) String() string {
	if r.all() {
		return r.Tool
	}
	return r.Tool + "(" + r.Specifier + ")"
}

func (r Rule) all() bool { return r.Specifier == "" || r.Specifier == "*" }

// Match reports whether the tool call matches the rule, per
// https://code.claude.com/docs/en/permissions#tool-specific-permission-rules:
//   - the tool: the same name; Task and Agent are one tool; an Edit rule
//     covers every built-in tool that edits files (Edit, MultiEdit, Write,
//     NotebookEdit) and a Read rule those that read them (Read, Grep,
//     Glob); "mcp__server" and "mcp__server__*" cover every tool of that
//     server;
//   - no specifier, "" or "*": every use of the tool;
//   - Bash: tool_input.command, see Rule.matchBash;
//   - Read, Edit and the tools they cover: the file path
//     (tool_input.file_path, notebook_path or path) against a gitignore
//     pattern: "//p" from the filesystem root, "~/p" from Home, "/p" from
//     ProjectDir, "p" or "./p" from Cwd; "*" stays within one directory,
//     "**" crosses directories, a pattern without "/" matches at any depth,
//     a match on a directory covers everything inside it;
//   - WebFetch(domain:host): the host of tool_input.url, case-insensitive;
//   - Agent(type) / Task(type): tool_input.subagent_type;
//   - any other specifier matches nothing.
func (r Rule) Match(c ToolCall) bool {
	if !r.toolMatches(c.ToolName) {
		return false
	}
	if r.all() {
		return true
	}
	switch r.Tool {
	case "Bash":
		cmd, _ := c.Input["command"].(string)
		return r.bash.matchCommand(cmd)
	case "Read", "Edit", "Write", "MultiEdit", "NotebookEdit", "Grep", "Glob":
		return matchPathRule(r.Specifier, inputPath(c.Input), c)
	case "WebFetch":
		domain, ok := strings.CutPrefix(r.Specifier, "domain:")
		raw, _ := c.Input["url"].(string)
		u, err := url.Parse(raw)
		return ok && err == nil && u.Hostname() != "" && strings.EqualFold(u.Hostname(), domain)
	case "Agent", "Task":
		t, _ := c.Input["subagent_type"].(string)
		return t == r.Specifier
	}
	return false
}

var (
	editTools = []string{"Edit", "MultiEdit", "Write", "NotebookEdit"}
	readTools = []string{"Read", "Grep", "Glob"}
)

func (r Rule) toolMatches(name string) bool {
	switch {
	case r.Tool == name:
		return true
	case r.Tool == "Edit":
		return contains(editTools, name)
	case r.Tool == "Read":
		return contains(readTools, name)
	case r.Tool == "Agent" || r.Tool == "Task":
		return name == "Agent" || name == "Task"
	case strings.HasPrefix(r.Tool, "mcp__"):
		server := strings.TrimSuffix(strings.TrimPrefix(r.Tool, "mcp__"), "__*")
		return !strings.Contains(server, "__") && strings.HasPrefix(name, "mcp__"+server+"__")
	}
	return false
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func inputPath(in map[string]any) string {
	for _, k := range []string{"file_path", "notebook_path", "path"} {
		if s, ok := in[k].(string); ok && s != "" {
			return s
		}
	}
	return ""
}

// posixPath turns a Windows path into the POSIX form Claude Code matches:
// backslashes become "/" and a drive "C:" becomes "/c".
func posixPath(p string) string {
	p = strings.ReplaceAll(p, `\`, "/")
	if len(p) >= 2 && p[1] == ':' && (p[0] >= 'a' && p[0] <= 'z' || p[0] >= 'A' && p[0] <= 'Z') {
		p = "/" + strings.ToLower(p[:1]) + p[2:]
	}
	return p
}

func matchPathRule(pattern, file string, c ToolCall) bool {
	if file == "" {
		return false
	}
	var base string
	switch {
	case strings.HasPrefix(pattern, "//"):
		base, pattern = "/", pattern[2:]
	case strings.HasPrefix(pattern, "~/"):
		if c.Home == "" {
			return false
		}
		base, pattern = c.Home, pattern[2:]
	case strings.HasPrefix(pattern, "/"):
		base = c.ProjectDir
		if base == "" {
			base = c.Cwd
		}
		pattern = pattern[1:]
	case strings.HasPrefix(pattern, "./"):
		base, pattern = c.Cwd, pattern[2:]
	default:
		base = c.Cwd
		if !strings.Contains(strings.TrimSuffix(pattern, "/"), "/") {
			pattern = "**/" + pattern // no slash: any depth
		}
	}
	base = path.Clean(posixPath(base))
	file = posixPath(file)
	if !strings.HasPrefix(file, "/") {
		file = path.Join(posixPath(c.Cwd), file)
	}
	file = path.Clean(file)
	if !path.IsAbs(base) || !path.IsAbs(file) {
		return false
	}
	rel := strings.TrimPrefix(file, base)
	if base != "/" {
		if rel == file || rel != "" && rel[0] != '/' {
			return false // not under base
		}
	}
	rel = strings.Trim(rel, "/")
	if rel == "" {
		return false
	}
	pat := strings.Split(strings.TrimSuffix(pattern, "/"), "/")
	segs := strings.Split(rel, "/")
	for k := 1; k <= len(segs); k++ { // the file or one of its directories
		if globSegments(pat, segs[:k]) {
			return true
		}
	}
	return false
}

// globSegments matches path segments against pattern segments: "**" is any
// number of segments (zero included), every other segment is path.Match.
func globSegments(pat, segs []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for len(pat) > 0 && pat[0] == "**" {
				pat = pat[1:]
			}
			if len(pat) == 0 {
				return true
			}
			for i := 0; i <= len(segs); i++ {
				if globSegments(pat, segs[i:]) {
					return true
				}
			}
			return false
		}
		if len(segs) == 0 {
			return false
		}
		if ok, err := path.Match(pat[0], segs[0]); err != nil || !ok {
			return false
		}
		pat, segs = pat[1:], segs[1:]
	}
	return len(segs) == 0
}
